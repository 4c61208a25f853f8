import { AjvCompiler } from "@fastify/ajv-compiler";
import { SerializerSelector } from "@fastify/fast-json-stringify-compiler";

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type Serializer = ReturnType<ReturnType<SerializerFactory>>;
type ValidatorFactory = ReturnType<typeof AjvCompiler>;
type Validator = ReturnType<ReturnType<ValidatorFactory>>;

/**
 * Fastify's request validators and response serializers, each compiled on its route's first use
 * instead of all at once before the server listens. Compiling every route's schemas (Ajv and
 * fast-json-stringify check each against the JSON Schema meta-schema and generate code) took over
 * a second of a 2.5 s restart, and memory for routes a household never calls. `warm` compiles
 * them right after the server listens, a few milliseconds at a time, the routes a first visit
 * calls first, so the first person after a restart does not pay for them (issue 36);
 * `compileAll` is for a test that every schema compiles.
 */
export function lazyCompilers() {
  /** Each pending compilation, with the URL of its route. */
  const pending = new Map<() => unknown, string>();

  /** `eager(externals, options)(route)` compiled at the first call of what `wrap` returns. */
  function deferred<Externals, Options, Route, Compiled>(
    eager: (externals: Externals, options: Options) => (route: Route) => Compiled,
    wrap: (compiled: () => Compiled, current: () => Compiled | undefined) => Compiled,
  ) {
    return (externals: Externals, options: Options) => {
      let compile: ((route: Route) => Compiled) | undefined;
      return (route: Route): Compiled => {
        let compiled: Compiled | undefined;
        const build = () => {
          pending.delete(build);
          compile ??= eager(externals, options);
          compiled ??= compile(route);
          return compiled;
        };
        pending.set(build, (route as { url?: string }).url ?? "");
        return wrap(
          () => compiled ?? build(),
          () => compiled,
        );
      };
    };
  }

  const serializer: SerializerFactory = deferred(
    SerializerSelector(),
    (compiled): Serializer =>
      (document) =>
        compiled()(document),
  );
  const validator: ValidatorFactory = deferred(AjvCompiler(), (compiled, current): Validator => {
    const validate = ((data: unknown) => compiled()(data)) as Validator;
    // Fastify reads a failed validation's `errors` from the function it called.
    Object.defineProperty(validate, "errors", { get: () => (current() as { errors?: unknown })?.errors });
    return validate;
  });

  return {
    compilersFactory: { buildSerializer: serializer, buildValidator: validator },
    /** Compiles what is still pending; answers how many validators and serializers that was. */
    compileAll() {
      const builds = [...pending.keys()];
      for (const build of builds) build();
      return builds.length;
    },
    /**
     * Compiles what is pending in the background: routes whose URL `first` picks before the
     * rest, in slices of about `sliceMs` with the event loop free between them, so requests
     * arriving meanwhile wait for one slice at most. Resolves with how many it compiled.
     */
    async warm(first: (url: string) => boolean, sliceMs = 4): Promise<number> {
      const all = [...pending.entries()];
      const order = [...all.filter(([, url]) => first(url)), ...all.filter(([, url]) => !first(url))];
      let compiled = 0;
      for (let i = 0; i < order.length; ) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        const until = performance.now() + sliceMs;
        // At least one per slice, however short.
        do {
          const [build] = order[i++]!;
          // A request may have compiled it meanwhile.
          if (pending.has(build)) {
            build();
            compiled++;
          }
        } while (i < order.length && performance.now() < until);
      }
      return compiled;
    },
  };
}
