/** Small total functions for reading untrusted JSON: each returns a typed value or the fallback. */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function asString(value: unknown, fallback: string, maxLength = 10_000): string {
  return typeof value === "string" ? value.slice(0, maxLength) : fallback;
}

export function asOptionalString(value: unknown, maxLength = 10_000): string | undefined {
  return typeof value === "string" ? value.slice(0, maxLength) : undefined;
}

export function asBoolean(value: unknown, fallback: boolean): boolean {
  return typeof value === "boolean" ? value : fallback;
}

export function asEnum<T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  return typeof value === "string" && (allowed as readonly string[]).includes(value)
    ? (value as T)
    : undefined;
}

/** An ISO date string that parses to a real instant, or undefined. */
export function asIsoDate(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > 40) return undefined;
  const time = Date.parse(value);
  return Number.isFinite(time) ? value : undefined;
}

export function isValidTimeZone(value: unknown): value is string {
  if (typeof value !== "string" || value.length === 0 || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** An http(s) URL normalised by the URL parser, or undefined for anything else (javascript:, data:, junk). */
export function asHttpUrl(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > 2048) return undefined;
  try {
    const url = new URL(value.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** What a person typed into a URL field: "example.com" means https://example.com/. */
export function normaliseUserUrl(input: string): string | undefined {
  const trimmed = input.trim();
  if (!trimmed) return undefined;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
  const url = asHttpUrl(withScheme);
  if (!url) return undefined;
  // A host without a dot (other than localhost or an IP) is almost always a typo.
  const host = new URL(url).hostname;
  if (!host.includes(".") && host !== "localhost" && !host.startsWith("[")) return undefined;
  return url;
}

export const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** Ids inside configs: keep a sane given one, else derive a stable one from the position. */
export function asId(value: unknown, prefix: string, index: number): string {
  return typeof value === "string" && value.length > 0 && value.length <= 100 ? value : `${prefix}-${index}`;
}

/** Keeps ids unique after parsing (a hand-edited config may repeat one). */
export function uniqueIds<T extends { id: string }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.map((item, index) => {
    let id = item.id;
    while (seen.has(id)) id = `${item.id}-${index}`;
    seen.add(id);
    return id === item.id ? item : { ...item, id };
  });
}
