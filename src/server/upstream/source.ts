import type { Static, TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { notFoundBecause, upstreamFailed } from "../http/errors.js";
import { capitalized, type UpstreamResponse } from "./fetch.js";

/**
 * One kind of answer from outside, declared once with the JSON Schema it must match. Answers are
 * parsed against it, never cast: a malformed answer is a 502 `upstream_failed` naming where it
 * went wrong, not a crash somewhere further in, and the types the code reads come from the schema.
 */
export interface Source<S extends TSchema> {
  readonly schema: S;
  /** Whether `json` matches, for callers that answer a mismatch their own way. */
  matches(json: unknown): json is Static<S>;
  /** The answer's JSON, checked against the schema. */
  parse(json: unknown, response: Pick<UpstreamResponse, "service" | "what">): Static<S>;
  /** 2xx: the parsed answer; 404: the caller's unknown item; anything else: 502. */
  read(response: UpstreamResponse): Static<S>;
}

export function defineSource<S extends TSchema>(schema: S): Source<S> {
  const check = TypeCompiler.Compile(schema);
  const source: Source<S> = {
    schema,
    matches: (json): json is Static<S> => check.Check(json),
    parse(json, { service, what }) {
      if (check.Check(json)) return json;
      const first = check.Errors(json).First();
      const where = first ? ` (${first.path || "/"}: ${first.message})` : "";
      throw upstreamFailed(`${capitalized(service)} answered ${what} in an unexpected shape${where}`);
    },
    read(response) {
      const { status, service, what } = response;
      if (status === 404) throw notFoundBecause(`${capitalized(service)} has no such ${what}`);
      if (status < 200 || status > 299)
        throw upstreamFailed(`${capitalized(service)} answered ${status} for ${what}`);
      return source.parse(jsonOf(response), response);
    },
  };
  return source;
}

/** The answer's body as JSON, or undefined when it is not JSON. */
export function maybeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The answer's body as JSON; an answer that is not JSON is a 502. */
export function jsonOf({ text, service, what }: UpstreamResponse): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw upstreamFailed(`${capitalized(service)} answered ${what} with a body that is not JSON`);
  }
}
