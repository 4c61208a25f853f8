import type { Static, TObject, TSchema } from "@sinclair/typebox";

/**
 * The total parser every widget config goes through: it walks the config's JSON Schema and
 * repairs the stored value toward it, field by field, so anything (missing, malformed, from an
 * older version) becomes a complete, usable config. A bad field falls back to its `default`, or
 * is left out when optional; a bad list item is dropped; good fields are kept; unknown keys go.
 *
 * It reads the standard keywords (type, const, anyOf, properties, required, items, minLength,
 * maxLength, pattern, minimum, maximum, minItems, maxItems, uniqueItems, default) and the few
 * repair keywords below, which JSON Schema has no words for. Validators ignore those.
 */
export interface RepairKeywords {
  /** Strings: cut to maxLength instead of rejected (a long stored note is shortened, not lost). */
  truncate?: boolean;
  /** Strings: the stored text as the widget uses it (trimmed, normalised), or undefined if unusable. */
  clean?(value: string): string | undefined;
  /** A default that depends on the position in enclosing lists, outermost first (ids, colours). */
  defaultAt?(path: readonly number[]): unknown;
  /** Lists of `{id}` objects: repeated ids get a suffix, since items are addressed by id. */
  uniqueIds?: boolean;
}

type Schema = TSchema & RepairKeywords & Record<string, unknown>;

const INVALID = Symbol("invalid");
type Result = unknown | typeof INVALID;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A complete config for `schema` from any stored value. */
export function parseConfig<S extends TObject>(schema: S, raw: unknown): Static<S> {
  const parsed = readObject(schema as unknown as Schema, isRecord(raw) ? raw : {}, []);
  // Only an object schema with a required key lacking a default can refuse `{}`: a definition bug.
  if (parsed === INVALID) throw new Error("A widget config schema needs a default for every required key");
  return parsed as Static<S>;
}

/** One value checked and repaired against `schema` alone; undefined when it cannot be used. */
export function readValue(schema: TSchema, value: unknown): unknown {
  const result = read(schema as Schema, value, []);
  return result === INVALID ? undefined : result;
}

function read(schema: Schema, value: unknown, path: readonly number[]): Result {
  if ("const" in schema) return value === schema.const ? value : INVALID;
  if (Array.isArray(schema.anyOf)) {
    for (const branch of schema.anyOf as Schema[]) {
      const result = read(branch, value, path);
      if (result !== INVALID) return result;
    }
    return INVALID;
  }
  switch (schema.type) {
    case "object":
      return isRecord(value) ? readObject(schema, value, path) : INVALID;
    case "array":
      return Array.isArray(value) ? readArray(schema, value, path) : INVALID;
    case "string":
      return typeof value === "string" ? readString(schema, value) : INVALID;
    case "number":
    case "integer":
      return readNumber(schema, value);
    case "boolean":
      return typeof value === "boolean" ? value : INVALID;
    default:
      throw new Error(`The widget config parser cannot read a schema of type ${String(schema.type)}`);
  }
}

function fallback(schema: Schema, path: readonly number[]): Result {
  if (schema.defaultAt) return schema.defaultAt(path);
  // A copy: defaults are shared objects and configs get edited.
  if ("default" in schema) return structuredClone(schema.default);
  return INVALID;
}

function readObject(schema: Schema, value: Record<string, unknown>, path: readonly number[]): Result {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const out: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(properties)) {
    let result = Object.hasOwn(value, key) ? read(property, value[key], path) : INVALID;
    if (result === INVALID) result = fallback(property, path);
    if (result !== INVALID) out[key] = result;
    else if (required.has(key)) return INVALID;
  }
  return out;
}

function readArray(schema: Schema, value: unknown[], path: readonly number[]): Result {
  const itemSchema = schema.items as Schema;
  let items: unknown[] = [];
  value.forEach((entry, index) => {
    const result = read(itemSchema, entry, [...path, index]);
    if (result !== INVALID) items.push(result);
  });
  if (schema.uniqueItems) items = [...new Set(items)];
  if (schema.uniqueIds) items = uniqueIds(items as { id: string }[]);
  if (typeof schema.maxItems === "number") items = items.slice(0, schema.maxItems);
  if (typeof schema.minItems === "number" && items.length < schema.minItems) return INVALID;
  return items;
}

const patterns = new Map<string, RegExp>();
function pattern(source: string): RegExp {
  let compiled = patterns.get(source);
  if (!compiled) {
    compiled = new RegExp(source);
    patterns.set(source, compiled);
  }
  return compiled;
}

function readString(schema: Schema, value: string): Result {
  const max = schema.maxLength as number | undefined;
  let text = schema.truncate && max !== undefined ? value.slice(0, max) : value;
  if (schema.clean) {
    const cleaned = schema.clean(text);
    if (cleaned === undefined) return INVALID;
    text = cleaned;
  }
  if (max !== undefined && text.length > max) return INVALID;
  if (typeof schema.minLength === "number" && text.length < schema.minLength) return INVALID;
  if (typeof schema.pattern === "string" && !pattern(schema.pattern).test(text)) return INVALID;
  return text;
}

function readNumber(schema: Schema, value: unknown): Result {
  if (typeof value !== "number" || !Number.isFinite(value)) return INVALID;
  if (schema.type === "integer" && !Number.isInteger(value)) return INVALID;
  if (typeof schema.minimum === "number" && value < schema.minimum) return INVALID;
  if (typeof schema.maximum === "number" && value > schema.maximum) return INVALID;
  // -0 is what JSON cannot store (it writes 0): a parsed config must survive being saved.
  return value === 0 ? 0 : value;
}

/**
 * Keeps ids unique (a hand-edited config may repeat one): a repeat gets a number appended, its
 * position or the next free one after it (a fixed suffix could itself be taken and never end).
 */
export function uniqueIds<T extends { id: string }>(items: T[], seen = new Set<string>()): T[] {
  return items.map((item, index) => {
    let id = item.id;
    for (let n = index; seen.has(id); n++) id = `${item.id}-${n}`;
    seen.add(id);
    return id === item.id ? item : { ...item, id };
  });
}
