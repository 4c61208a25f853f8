import { compile, isRegistered, type JSONValue, search } from "@jmespath-community/jmespath";
import { CUSTOM_API_QUERY_MAX } from "./contract.js";

/**
 * JMESPath (the community edition, https://jmespath.site) as the widget uses it, shared by the
 * server (which runs the queries and refuses a bad one on save) and the settings form (which
 * checks as you type; it loads this file with import() so the library stays out of the first
 * bundle).
 */

/** Function names the expression calls, found in its syntax tree. */
function calledFunctions(node: unknown, names: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const child of node) calledFunctions(child, names);
  else if (node !== null && typeof node === "object") {
    const record = node as Record<string, unknown>;
    if (record.type === "Function" && typeof record.name === "string") names.add(record.name);
    for (const value of Object.values(record)) calledFunctions(value, names);
  }
  return names;
}

/** What is wrong with an expression as written, or null when it can run. */
export function queryProblem(expression: string): string | null {
  if (expression.trim() === "") return "must not be empty";
  if (expression.length > CUSTOM_API_QUERY_MAX) return `must be at most ${CUSTOM_API_QUERY_MAX} characters`;
  let tree: unknown;
  try {
    tree = compile(expression);
  } catch (error) {
    return `is not a JMESPath expression: ${(error as Error).message}`;
  }
  // The parser takes any name as a function; an unknown one would fail only when run.
  const unknown = [...calledFunctions(tree, new Set())].filter((name) => !isRegistered(name));
  if (unknown.length > 0) return `calls an unknown function: ${unknown.map((n) => `${n}()`).join(", ")}`;
  return null;
}

/** The expression's result on `json`; throws an Error saying why when it fails at run time. */
export function runQuery(json: unknown, expression: string): unknown {
  return search(json as JSONValue, expression);
}
