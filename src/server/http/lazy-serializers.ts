import { SerializerSelector } from "@fastify/fast-json-stringify-compiler";

type Factory = ReturnType<typeof SerializerSelector>;
type Compiler = ReturnType<Factory>;
type Serializer = ReturnType<Compiler>;

/**
 * Fastify's response serializers, each compiled on its route's first answer instead of all at once
 * before the server listens. Compiling every route's schemas (fast-json-stringify validates each
 * against the JSON Schema meta-schema and generates code) took over a second of a 2.5 s restart,
 * and memory for routes a household never calls. `compileAll` is for a test that every schema compiles.
 */
export function lazySerializers() {
  const eager = SerializerSelector();
  const pending = new Set<() => Serializer>();
  const factory: Factory = (externalSchemas, options) => {
    const compile = eager(externalSchemas, options);
    return (route) => {
      let serializer: Serializer | undefined;
      const build = () => {
        pending.delete(build);
        serializer ??= compile(route);
        return serializer;
      };
      pending.add(build);
      return (document) => (serializer ?? build())(document);
    };
  };
  return {
    factory,
    /** Compiles what is still pending; answers how many serializers that was. */
    compileAll() {
      const builds = [...pending];
      for (const build of builds) build();
      return builds.length;
    },
  };
}
