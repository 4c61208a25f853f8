import { describe, expect, it } from "vitest";
import { lazyCompilers } from "./lazy-compilers.js";

/** The schema of a route at `url`; reading it (compiling) notes the URL in `read`. */
const schemaOf = (url: string, read: string[]) => ({
  type: "object",
  get properties() {
    if (!read.includes(url)) read.push(url);
    return { a: { type: "string" } };
  },
});

/** Registers a response serializer and a body validator per URL, as Fastify does per route. */
function routes(urls: string[], read: string[] = []) {
  const compilers = lazyCompilers();
  const { buildSerializer, buildValidator } = compilers.compilersFactory;
  const serialize = buildSerializer({}, {} as never);
  // The options Fastify passes by default.
  const validate = buildValidator({}, { customOptions: {}, plugins: [] } as never);
  const serializers = urls.map((url) =>
    serialize({ schema: schemaOf(url, read), method: "GET", url, httpStatus: "200" } as never),
  );
  const validators = urls.map((url) =>
    validate({ schema: schemaOf(url, read), method: "POST", url, httpPart: "body" } as never),
  );
  return { compilers, serializers, validators };
}

describe("lazyCompilers.warm", () => {
  it("compiles everything pending, a first visit's routes first, leaving nothing to compile on use", async () => {
    const order: string[] = [];
    const { compilers, serializers, validators } = routes(
      ["/api/admin/users", "/api/bootstrap", "/api/x"],
      order,
    );
    expect(order).toEqual([]);
    const compiled = await compilers.warm((url) => url === "/api/bootstrap");
    expect(compiled).toBe(6);
    expect(compilers.compileAll()).toBe(0);
    // They work as compiled before.
    expect(serializers[1]!({ a: "b" } as never)).toBe('{"a":"b"}');
    expect(validators[1]!({ a: { not: "a string" } } as never)).toBe(false);
    expect(validators[1]!({ a: "fine" } as never)).toBe(true);
    expect(order).toEqual(["/api/bootstrap", "/api/admin/users", "/api/x"]);
  });

  it("yields to the event loop between slices, and skips what a request compiled meanwhile", async () => {
    const urls = Array.from({ length: 40 }, (_, i) => `/api/r${i}`);
    const { compilers, serializers } = routes(urls);
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    // A slice of 0 ms compiles one at a time, with a turn of the loop before each.
    const warming = compilers.warm(() => false, 0);
    // A request arriving meanwhile compiles its own route.
    serializers[39]!({ a: "x" } as never);
    const compiled = await warming;
    clearInterval(ticking);
    expect(compiled).toBe(79);
    expect(turns).toBeGreaterThan(0);
  });
});
