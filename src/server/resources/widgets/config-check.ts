import type { TSchema } from "@sinclair/typebox";
import { isRecord, type RepairKeywords } from "../../../contract/widget-kit/parse.js";

/**
 * The strict twin of the config parser (contract/widget-kit/parse.ts). The parser repairs any
 * stored value so a widget always shows; a patch is an edit someone means, so whatever the parser
 * would drop or replace is refused instead of silently lost. It reads the same keywords, and lets
 * through what the parser keeps as written: a missing key with a default (the parser fills it in),
 * a bad value equal to its own default, and keys the schema does not name (older configs, the
 * grid's `layout`).
 */

export interface ConfigIssue {
  /** JSON Pointer within the config. */
  path: string;
  message: string;
}

type Schema = TSchema & RepairKeywords & Record<string, unknown>;

/** Every issue of `config` against a widget type's config schema, in document order. */
export function configIssues(schema: TSchema, config: unknown): ConfigIssue[] {
  return check(schema as Schema, config, "");
}

/**
 * The issues of `after` that `before` did not already have. A stored config may hold what an
 * older version or a PUT (which takes any object) left there; an edit is refused for what it
 * brings, not for what it leaves as it was. Issues are matched by their message and the values
 * at and above their place, not by path, so an insertion that shifts a list matches still.
 */
export function newConfigIssues(schema: TSchema, before: unknown, after: unknown): ConfigIssue[] {
  const found = configIssues(schema, after);
  if (found.length === 0) return found;
  const held = new Map<string, number>();
  for (const issue of configIssues(schema, before)) {
    const key = signature(before, issue);
    held.set(key, (held.get(key) ?? 0) + 1);
  }
  return found.filter((issue) => {
    const key = signature(after, issue);
    const left = held.get(key) ?? 0;
    if (left > 0) held.set(key, left - 1);
    return left === 0;
  });
}

function signature(config: unknown, issue: ConfigIssue) {
  const tokens = issue.path.split("/").slice(1);
  return JSON.stringify([issue.message, valueAt(config, tokens), valueAt(config, tokens.slice(0, -1))]);
}

function valueAt(value: unknown, escaped: string[]): unknown {
  for (const token of escaped) {
    const key = token.replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(value)) value = value[Number(key)];
    else if (isRecord(value) && Object.hasOwn(value, key)) value = value[key];
    else return undefined;
  }
  return value;
}

const escapeToken = (key: string) => key.replaceAll("~", "~0").replaceAll("/", "~1");

function check(schema: Schema, value: unknown, at: string): ConfigIssue[] {
  if ("const" in schema)
    return value === schema.const ? [] : [{ path: at, message: `must be ${JSON.stringify(schema.const)}` }];
  if (Array.isArray(schema.anyOf)) return checkUnion(schema.anyOf as Schema[], value, at);
  switch (schema.type) {
    case "object":
      return isRecord(value) ? checkObject(schema, value, at) : [{ path: at, message: "must be an object" }];
    case "array":
      return Array.isArray(value)
        ? checkArray(schema, value, at)
        : [{ path: at, message: "must be an array" }];
    case "string":
      return typeof value === "string"
        ? checkString(schema, value, at)
        : [{ path: at, message: "must be a string" }];
    case "number":
    case "integer":
      return checkNumber(schema, value, at);
    case "boolean":
      return typeof value === "boolean" ? [] : [{ path: at, message: "must be a boolean" }];
    default:
      // The parser cannot read other types, so no widget schema has them.
      return [];
  }
}

function checkUnion(branches: Schema[], value: unknown, at: string): ConfigIssue[] {
  const results = branches.map((branch) => check(branch, value, at));
  if (results.some((issues) => issues.length === 0)) return [];
  if (branches.every((branch) => "const" in branch))
    return [
      { path: at, message: `must be one of: ${branches.map((b) => JSON.stringify(b.const)).join(", ")}` },
    ];
  // The branch that came closest says most about what to fix.
  return results.reduce((best, issues) => (issues.length < best.length ? issues : best));
}

/** A bad value the parser would replace by this very value is not lost, so it passes. */
function isOwnDefault(schema: Schema, value: unknown) {
  return "default" in schema && JSON.stringify(schema.default) === JSON.stringify(value);
}

function checkObject(schema: Schema, value: Record<string, unknown>, at: string): ConfigIssue[] {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const issues: ConfigIssue[] = [];
  for (const [key, property] of Object.entries(properties)) {
    const path = `${at}/${escapeToken(key)}`;
    if (Object.hasOwn(value, key)) {
      const found = check(property, value[key], path);
      if (found.length > 0 && !isOwnDefault(property, value[key])) issues.push(...found);
    } else if (required.has(key) && !("default" in property) && !property.defaultAt) {
      issues.push({ path, message: "is required" });
    }
  }
  return issues;
}

function checkArray(schema: Schema, value: unknown[], at: string): ConfigIssue[] {
  const item = schema.items as Schema;
  const issues: ConfigIssue[] = [];
  for (let i = 0; i < value.length; i++) issues.push(...check(item, value[i], `${at}/${i}`));
  if (typeof schema.maxItems === "number" && value.length > schema.maxItems)
    issues.push({ path: at, message: `must have at most ${schema.maxItems} items` });
  if (typeof schema.minItems === "number" && value.length < schema.minItems)
    issues.push({ path: at, message: `must have at least ${schema.minItems} items` });
  if (schema.uniqueItems)
    issues.push(
      ...repeats(
        value,
        (entry) => entry,
        (i) => ({ path: `${at}/${i}`, message: "repeats an earlier item" }),
      ),
    );
  // Items are addressed by id: the parser would rename a repeat, and edits would miss it.
  if (schema.uniqueIds)
    issues.push(
      ...repeats(
        value,
        (entry) => (isRecord(entry) ? entry.id : undefined),
        (i) => ({ path: `${at}/${i}/id`, message: "repeats an earlier item's id" }),
      ),
    );
  return issues;
}

/** Objects are never equal to each other here, as in the parser's Set. */
function repeats(value: unknown[], keyOf: (entry: unknown) => unknown, issue: (i: number) => ConfigIssue) {
  const seen = new Set<unknown>();
  const issues: ConfigIssue[] = [];
  value.forEach((entry, i) => {
    const key = keyOf(entry);
    if (key === undefined || (typeof key === "object" && key !== null)) return;
    if (seen.has(key)) issues.push(issue(i));
    else seen.add(key);
  });
  return issues;
}

function checkString(schema: Schema, value: string, at: string): ConfigIssue[] {
  const text = schema.clean ? schema.clean(value) : value;
  if (text === undefined) {
    const what = typeof schema.description === "string" ? `: ${schema.description}` : "";
    return [{ path: at, message: `is not a usable value${what}` }];
  }
  const max = schema.maxLength as number | undefined;
  const min = schema.minLength as number | undefined;
  // A too-long text would be cut by the parser: refused here, so nothing typed is lost.
  if (max !== undefined && text.length > max)
    return [{ path: at, message: `must be at most ${max} characters` }];
  if (min !== undefined && text.length < min)
    return [{ path: at, message: `must be at least ${min} characters` }];
  if (typeof schema.pattern === "string" && !pattern(schema.pattern).test(text))
    return [{ path: at, message: `must match ${schema.pattern}` }];
  return [];
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

function checkNumber(schema: Schema, value: unknown, at: string): ConfigIssue[] {
  if (typeof value !== "number" || !Number.isFinite(value))
    return [{ path: at, message: "must be a number" }];
  if (schema.type === "integer" && !Number.isInteger(value))
    return [{ path: at, message: "must be an integer" }];
  if (typeof schema.minimum === "number" && value < schema.minimum)
    return [{ path: at, message: `must be at least ${schema.minimum}` }];
  if (typeof schema.maximum === "number" && value > schema.maximum)
    return [{ path: at, message: `must be at most ${schema.maximum}` }];
  return [];
}
