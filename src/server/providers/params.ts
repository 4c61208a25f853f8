import { Type } from "@sinclair/typebox";
import { badRequest } from "../http/errors.js";

/**
 * Query-string building blocks. Every value that reaches an upstream URL is matched against a
 * strict pattern first (and still encoded), so nothing a client sends can change the path or add
 * parameters to a provider call.
 */

/** A whole number in a query string ("20"); bounds are checked by `intParam`. */
export const IntString = (description: string) => Type.String({ pattern: "^[0-9]{1,6}$", description });

export function intParam(
  value: string | undefined,
  name: string,
  min: number,
  max: number,
  fallback: number,
) {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw badRequest(`${name} must be a whole number from ${min} to ${max}`, [
      { path: `/${name}`, message: `must be between ${min} and ${max}` },
    ]);
  }
  return n;
}

/** A comma-separated list whose items each match `pattern`; empty items are dropped. */
export function listParam(value: string | undefined, name: string, pattern: RegExp, max: number) {
  if (value === undefined) return undefined;
  const items = [
    ...new Set(
      value
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  const bad = items.find((item) => !pattern.test(item));
  if (bad !== undefined || items.length > max) {
    throw badRequest(
      bad !== undefined ? `${name} has an invalid item` : `${name} has more than ${max} items`,
      [{ path: `/${name}`, message: bad !== undefined ? "has an invalid item" : `at most ${max} items` }],
    );
  }
  return items;
}

/** Opaque page tokens and cursors handed back by providers. */
export const PageToken = Type.String({ pattern: "^[A-Za-z0-9_\\-.=~+/:]{1,1024}$" });
