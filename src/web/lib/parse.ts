import { isTimeZone, webAddress } from "../../contract/widget-kit/fields";
import { isRecord } from "../../contract/widget-kit/parse";

/**
 * Small total functions for reading untrusted JSON outside widget configs (those are parsed by
 * their contract definitions): each returns a typed value or the fallback.
 */

export { isRecord };

export function asBoolean(value: unknown, fallback: boolean): boolean {
  return typeof value === "boolean" ? value : fallback;
}

export function asEnum<T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  return typeof value === "string" && (allowed as readonly string[]).includes(value)
    ? (value as T)
    : undefined;
}

export function isValidTimeZone(value: unknown): value is string {
  return typeof value === "string" && isTimeZone(value);
}

/** What a person typed into a URL field: "example.com" means https://example.com/, "nas.lan:5000" http. */
export function normaliseUserUrl(input: string): string | undefined {
  return webAddress(input);
}
