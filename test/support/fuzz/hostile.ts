import fc from "fast-check";

/**
 * What a hostile or careless client sends: strings PostgreSQL cannot store, invalid Unicode,
 * huge and tiny numbers, wrong types, prototype keys, long strings and deep nesting. Raw JSON text
 * where JSON.stringify could not produce it (escaped lone surrogates, 1e400, duplicate keys).
 */

export const hostileString = fc.oneof(
  fc.constantFrom(
    "\u0000",
    "a\u0000b",
    "\ud800",
    "x\udfffy",
    "\ud83d",
    "",
    " ",
    "\u202e\u200b",
    "' OR 1=1 --",
    "<script>alert(1)</script>",
    "../../../etc/passwd",
    "%00",
    "null",
    "true",
    "100",
    "__proto__",
    "constructor",
  ),
  fc.string().map((s) => `${s}\u0000${s}`),
  fc.constantFrom(10_000, 100_000, 300_000).map((n) => "x".repeat(n)),
  fc.constant("💥".repeat(5000)),
);

export const hostileNumber = fc.constantFrom(
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  -Number.MAX_SAFE_INTEGER - 2,
  5e-324,
  -0,
  0,
  -1,
  0.5,
  1e21,
  100_000.0001,
);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  hostileNumber,
  fc.constantFrom(null, true, false, [], {}, [[]], [null], { "": "" }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(hostileString, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
);

const deep = (depth: number, kind: "array" | "object") =>
  kind === "array"
    ? `${"[".repeat(depth)}${"]".repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

/** JSON text for a field's value that JSON.stringify cannot write. */
export const rawHostileValue = fc.oneof(
  fc.constantFrom(
    '"\\ud800"',
    '"a\\u0000b"',
    '"\\udfff\\ud800"',
    "1e400",
    "-1e400",
    "123456789012345678901234567890",
    "0.0000000000000000000000000001",
    "-0",
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"a":1,"a":"dup"}',
  ),
  fc
    .tuple(fc.integer({ min: 5_000, max: 10_000 }), fc.constantFrom("array" as const, "object" as const))
    .map(([depth, kind]) => deep(depth, kind)),
  fc.integer({ min: 60, max: 80 }).map((depth) => deep(depth, "array")),
);

/** Whole bodies that are not a valid JSON object (or are hostile as a whole). */
export const rawHostileBody = fc.oneof(
  fc.constantFrom(
    "",
    " ",
    "{",
    "}",
    "not json",
    "{'a':1}",
    '{"a":1,}',
    "[]",
    "null",
    "0",
    '"text"',
    "\ufeff{}",
    '{"__proto__":{"isAdmin":true}}',
    '{"constructor":{"prototype":{"isAdmin":true}}}',
    '{"a":"\\ud800"}',
    '{"a\\u0000":1}',
  ),
  fc
    .tuple(fc.integer({ min: 5_000, max: 10_000 }), fc.constantFrom("array" as const, "object" as const))
    .map(([depth, kind]) => deep(depth, kind)),
  fc.constant(`{"a":"${"y".repeat(1_100_000)}"}`),
);

/** Query parameter values as raw, already-encoded text. */
export const rawHostileQueryValue = fc.oneof(
  fc.constantFrom(
    "%00",
    "a%00b",
    "%ff",
    "%",
    "%E0%A4%A",
    "%ED%A0%80",
    "%C0%AF",
    "..%2F..%2F",
    "%2e%2e",
    "null",
    "-1",
    "1e400",
    "99999999999999999999",
    "",
    "%20",
  ),
  fc.constantFrom(5_000, 20_000).map((n) => "q".repeat(n)),
  hostileString.map((s) => encodeURIComponent(s.toWellFormed().slice(0, 5000))),
);

/** Whole query strings that play with the parser: repeated keys, brackets, prototype keys. */
export const rawHostileQuery = fc.constantFrom(
  "id=a&id=b",
  "id[]=x",
  "id[a]=b",
  "__proto__=x",
  "__proto__[polluted]=1",
  "constructor[prototype][polluted]=1",
  "=x",
  "&&&",
  "a=%00",
  ";id=x",
  "pairs=BTC-USD,BTC-USD,BTC-USD,BTC-USD,BTC-USD,BTC-USD,BTC-USD,BTC-USD,BTC-USD,BTC-USD,BTC-USD",
);

/** A raw path segment for a path parameter. */
export const rawHostileSegment = fc.constantFrom(
  "%00",
  "%ff",
  "%",
  "..",
  "%2e%2e",
  "%2F",
  "a%2Fb",
  "%20",
  "x".repeat(300),
);

export const contentType = fc.oneof(
  { arbitrary: fc.constant("application/json"), weight: 12 },
  {
    arbitrary: fc.constantFrom(
      "application/json; charset=utf-8",
      "APPLICATION/JSON",
      "application/json; charset=latin1",
      "application/json;;",
      "text/plain",
      "text/html",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/vnd.api+json",
      "application/octet-stream",
      "",
    ),
    weight: 2,
  },
);

/** Extra request headers; values stay printable (Node refuses control characters itself). */
export const extraHeaders = fc.record(
  {
    "last-event-id": fc.oneof(fc.uuid(), fc.constantFrom("x", "", "0".repeat(5000), "%00")),
    accept: fc.constantFrom("text/html", "*/*", "application/json", "text/event-stream", "image/*"),
    "x-request-id": fc.constantFrom("x".repeat(200), "a b", "<x>", "id-1"),
    "accept-language": fc.constantFrom("en", "xx", "*", "de-DE,de;q=0.9"),
    authorization: fc.constantFrom("Bearer garbage", "Basic Zm9vOmJhcg==", "Bearer ", "bearer x.y.z"),
    origin: fc.constantFrom("https://evil.example", "null", "http://127.0.0.1:3000"),
    "sec-fetch-site": fc.constantFrom("cross-site", "same-origin", "none"),
    "x-forwarded-for": fc.constantFrom("1.2.3.4", "::1", "not-an-ip", "1.1.1.1, 2.2.2.2"),
  },
  { requiredKeys: [] },
);
