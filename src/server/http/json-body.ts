import type { FastifyInstance, FastifyRequest } from "fastify";
import secureJson from "secure-json-parse";
import type { Problem } from "../../contract/errors.js";
import { badRequest, invalidJson } from "./errors.js";

declare global {
  interface String {
    /** ES2024, present in Node 20: false when the string holds a lone surrogate. */
    isWellFormed(): boolean;
    /** ES2024, present in Node 20: lone surrogates replaced by U+FFFD. */
    toWellFormed(): string;
  }
}

/**
 * Deepest nesting of arrays and objects a body may have. Every widget config of DESIGN section 6
 * fits in under 10 levels; the cap exists so that nothing downstream (validation, better-auth,
 * JSON.stringify, the database driver) ever recurses into a hostile 10,000-level body.
 */
export const JSON_MAX_DEPTH = 64;
/** A bad body names at most this many places; one is enough to fix, a few help. */
const MAX_ERRORS = 10;

type Errors = NonNullable<Problem["errors"]>;

/**
 * The one JSON body parser of the app (and the same string rule for query and path parameters), for every route including better-auth's `/api/auth/*`.
 * In order, each step cheap and none recursive:
 * 1. the nesting depth, counted on the raw text before anything parses it;
 * 2. JSON.parse with Fastify's own prototype-poisoning guard (secure-json-parse);
 * 3. every key and string value: no NUL (PostgreSQL cannot store it) and no lone surrogate (not
 *    valid Unicode, so not storable either). Both are 400 `validation_failed` naming the JSON path,
 *    on every route alike, so no route can reach the database with them.
 */
export function installInputGuards(app: FastifyInstance) {
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser(
    "application/json",
    { parseAs: "string" },
    (_request: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
      try {
        done(null, parseJsonBody(String(body)));
      } catch (error) {
        done(error as Error);
      }
    },
  );
  // Callback-style: it runs on every request and waits for nothing (an async hook costs a promise).
  app.addHook("preValidation", (request, _reply, done) => {
    try {
      assertStorableParameters(request);
      done();
    } catch (error) {
      done(error as Error);
    }
  });
}

export function parseJsonBody(text: string): unknown {
  if (text.trim() === "") {
    throw invalidJson("The body is empty but Content-Type is application/json");
  }
  assertDepth(text);
  let value: unknown;
  try {
    value = secureJson.parse(text, null, { protoAction: "error", constructorAction: "error" });
  } catch (error) {
    throw invalidJson(`The body is not acceptable JSON: ${(error as Error).message}`);
  }
  const errors = unstorableStrings(value);
  if (errors.length > 0) throw invalidStrings("body", errors);
  return value;
}

/** Query and path parameters reach the database and upstreams as strings: the same rule as bodies. */
export function assertStorableParameters(request: FastifyRequest) {
  for (const [where, value] of [
    ["querystring", request.query],
    ["params", request.params],
  ] as const) {
    if (!value || typeof value !== "object") continue;
    const errors = unstorableStrings(value);
    if (errors.length > 0) throw invalidStrings(where, errors);
  }
}

function invalidStrings(where: string, errors: Errors) {
  return badRequest(
    `The ${where} is invalid: ${errors.map((e) => `${e.path} ${e.message}`).join("; ")}`,
    errors,
  );
}

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Counts `[`/`{` outside strings; malformed text is left for JSON.parse to report. */
function assertDepth(text: string) {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > JSON_MAX_DEPTH) {
        throw badRequest(`The body nests arrays and objects deeper than ${JSON_MAX_DEPTH} levels`, [
          { path: "/", message: `must not nest deeper than ${JSON_MAX_DEPTH} levels` },
        ]);
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
}

interface Node {
  value: unknown;
  parent: Node | null;
  key: string;
}

/** Walks the parsed value with an explicit stack; the path is built only for the offenders. */
function unstorableStrings(root: unknown): Errors {
  const errors: Errors = [];
  const stack: Node[] = [{ value: root, parent: null, key: "" }];
  while (stack.length > 0 && errors.length < MAX_ERRORS) {
    const node = stack.pop()!;
    const { value } = node;
    if (typeof value === "string") {
      const problem = stringProblem(value);
      if (problem) errors.push({ path: pointer(node), message: problem });
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], parent: node, key: String(i) });
    } else if (value && typeof value === "object") {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        const child: Node = { value: (value as Record<string, unknown>)[key], parent: node, key };
        const problem = stringProblem(key);
        if (problem) errors.push({ path: pointer(child), message: `key ${problem}` });
        else stack.push(child);
      }
    }
  }
  return errors.slice(0, MAX_ERRORS);
}

function stringProblem(value: string): string | null {
  if (value.includes("\u0000")) return "must not contain the NUL character (\\u0000)";
  if (!value.isWellFormed()) return "must be well-formed Unicode (no lone surrogate)";
  return null;
}

/** RFC 6901 JSON Pointer of a node; the offending characters are shown, not echoed raw. */
function pointer(node: Node): string {
  const parts: string[] = [];
  for (let at: Node | null = node; at?.parent; at = at.parent) parts.push(at.key);
  return (
    parts
      .reverse()
      .map(
        (part) =>
          `/${part
            .replaceAll("~", "~0")
            .replaceAll("/", "~1")
            .replaceAll("\u0000", "\\u0000")
            .toWellFormed()}`,
      )
      .join("") || "/"
  );
}
