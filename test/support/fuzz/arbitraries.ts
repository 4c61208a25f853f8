import fc from "fast-check";

/** A JSON Schema node as the OpenAPI document spells it. */
export type Schema = Record<string, any>;

/**
 * Stands for "an id the user (or another user) really has"; replaced at send time from the live
 * fixture ids, so generated requests reach real rows rather than only 404s.
 */
export const KNOWN_ID = "__known_id__";
export const knownIdMarker = fc.nat({ max: 1000 }).map((n) => `${KNOWN_ID}${n}`);

/**
 * Values that conform to a schema (what a careful client sends). Bounded in size: the point is
 * to reach the handlers, not to send megabytes (hostile.ts does that on purpose).
 */
export function fromSchema(
  schema: Schema,
  resolve: (ref: string) => Schema,
  depth = 0,
): fc.Arbitrary<unknown> {
  if (schema.$ref) return fromSchema(resolve(schema.$ref), resolve, depth);
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return fc.oneof(...union.map((s: Schema) => fromSchema(s, resolve, depth + 1)));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if ("const" in schema) return fc.constant(schema.const);
  switch (schema.type) {
    case "string":
      return stringFor(schema);
    case "number":
    case "integer": {
      const min = schema.minimum ?? schema.exclusiveMinimum ?? -1e6;
      const max = schema.maximum ?? schema.exclusiveMaximum ?? 1e6;
      const numbers =
        schema.type === "integer"
          ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
          : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
      return numbers.filter(
        (n) =>
          (schema.exclusiveMinimum === undefined || n > schema.exclusiveMinimum) &&
          (schema.exclusiveMaximum === undefined || n < schema.exclusiveMaximum),
      );
    }
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(
        schema.items ? fromSchema(schema.items, resolve, depth + 1) : fc.jsonValue({ maxDepth: 2 }),
        {
          maxLength: 4,
        },
      );
    case "object": {
      const properties: Record<string, Schema> = schema.properties ?? {};
      const keys = Object.keys(properties);
      if (keys.length === 0) return freeObject(depth);
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const key of keys) model[key] = fromSchema(properties[key]!, resolve, depth + 1);
      return fc.record(model, { requiredKeys: schema.required ?? [] });
    }
    default:
      // No type: any JSON value (settings config).
      return fc.oneof(fc.jsonValue({ maxDepth: 3 }), freeObject(depth));
  }
}

/** A free-form object such as a widget config: realistic nested shapes, ids, urls. */
function freeObject(depth: number): fc.Arbitrary<Record<string, unknown>> {
  const value = fc.oneof(
    { arbitrary: fc.jsonValue({ maxDepth: Math.max(0, 3 - depth) }), weight: 4 },
    { arbitrary: fc.webUrl(), weight: 1 },
    { arbitrary: fc.uuid(), weight: 1 },
  );
  return fc.dictionary(fc.string({ maxLength: 12 }), value, { maxKeys: 6 });
}

function stringFor(schema: Schema): fc.Arbitrary<string> {
  if (schema.format === "uuid") return fc.oneof({ arbitrary: knownIdMarker, weight: 3 }, fc.uuid());
  if (schema.format === "date-time")
    return fc
      .date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true })
      .map((d) => d.toISOString());
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 60, 300);
  if (schema.pattern) {
    try {
      return fc
        .stringMatching(new RegExp(schema.pattern), { size: "small" })
        .filter((s) => s.length >= minLength && s.length <= maxLength);
    } catch {
      // A pattern fast-check cannot generate from (lookarounds): plain strings instead.
    }
  }
  return fc.oneof(
    fc.string({ minLength, maxLength, unit: "grapheme-ascii" }),
    fc.string({ minLength, maxLength, unit: "grapheme" }),
  );
}
