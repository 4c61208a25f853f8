import type { StringOptions, TLiteral, TSchema, TUnion } from "@sinclair/typebox";
import { Type } from "../typebox.js";
import type { RepairKeywords } from "./parse.js";

/**
 * The field vocabulary of widget config schemas: TypeBox types carrying the repair keywords the
 * config parser understands (see parse.ts), so each widget's file reads as a list of its keys.
 */

type TextOptions = Pick<StringOptions, "maxLength" | "minLength" | "default" | "description"> & {
  /** Whitespace around the text is dropped. */
  trim?: boolean;
};

/** Free text, cut to its maximum length. */
export function Text(options: TextOptions & { maxLength: number }) {
  const { trim, ...rest } = options;
  const keywords: RepairKeywords = { truncate: true, ...(trim ? { clean: (s) => s.trim() } : {}) };
  return Type.String({ ...rest, ...keywords });
}

/** Text that must match `pattern` once `clean` has normalised it; anything else is unusable. */
export function Matching(
  pattern: string,
  options: Pick<StringOptions, "default" | "description"> & Pick<RepairKeywords, "clean"> = {},
) {
  return Type.String({ pattern, ...options });
}

const ID_MAX = 100;

/** An item's id: a sane stored one is kept, else one is made from the item's position. */
export function Id(prefix: string) {
  const keywords: RepairKeywords = { defaultAt: (path) => `${prefix}-${path.join("-")}` };
  return Type.String({ minLength: 1, maxLength: ID_MAX, ...keywords });
}

/** A list of items addressed by id; bad items are dropped and repeated ids made unique. */
export function ItemList<T extends TSchema>(
  item: T,
  options: { default?: unknown[]; maxItems?: number } = {},
) {
  const keywords: RepairKeywords = { uniqueIds: true };
  return Type.Array(item, { default: [], ...options, ...keywords });
}

/** One of a fixed set of strings. */
export function OneOf<const V extends readonly string[]>(
  values: V,
  options: { default?: V[number]; description?: string } = {},
) {
  return Type.Union(
    values.map((value) => Type.Literal(value)),
    options,
  ) as unknown as TUnion<TLiteral<V[number]>[]>;
}

/** An http(s) URL as the URL parser normalises it; javascript:, data:, file: and junk are unusable. */
export function HttpUrl(options: Pick<StringOptions, "default" | "description"> = {}) {
  const keywords: RepairKeywords = { clean: httpUrl };
  return Type.String({ ...options, ...keywords });
}

/** An IANA time zone the platform knows. */
export function TimeZone() {
  const keywords: RepairKeywords = { clean: (s) => (isTimeZone(s) ? s : undefined) };
  return Type.String({ description: "IANA time zone, e.g. Europe/Berlin", ...keywords });
}

/** A date-time string that parses to a real instant, kept as written. */
export function DateTime(options: Pick<StringOptions, "default" | "description"> = {}) {
  const keywords: RepairKeywords = { clean: (s) => (isInstant(s) ? s : undefined) };
  return Type.String({ ...options, ...keywords });
}

/** A date-time normalised to ISO 8601 UTC with milliseconds. */
export function Instant(options: Pick<StringOptions, "description"> = {}) {
  const keywords: RepairKeywords = {
    clean: (s) => (isInstant(s) ? new Date(Date.parse(s)).toISOString() : undefined),
  };
  return Type.String({ ...options, ...keywords });
}

/**
 * A web address as people type it: an http(s) URL, or one without its scheme ("example.com",
 * "jellyfin.home.lan:8096", "192.168.1.10:8989"). Stored as the URL parser normalises it.
 */
export function WebAddress(options: Pick<StringOptions, "default" | "description"> = {}) {
  const keywords: RepairKeywords = { clean: webAddress };
  return Type.String({ ...options, ...keywords });
}

const URL_MAX = 2048;

/** `host:port` at the start of what was typed (a port, not a URL scheme such as `mailto:`). */
const HOST_PORT = /^(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}(?:[/?#]|$)/i;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
/** Names that only resolve at home: addresses there are rarely served over https. */
const LOCAL_SUFFIX = /(?:^localhost|\.local|\.lan|\.home|\.internal|\.home\.arpa|\.localdomain)$/i;

/**
 * What a person typed as a web address, as a normalised http(s) URL, or undefined. Without a
 * scheme, a home-network address (an IP, localhost, a .lan/.local name, or a port other than
 * 443) gets http, anything else https. A scheme-less name without a dot and without a port is
 * almost always a typo and is refused.
 */
export function webAddress(input: string): string | undefined {
  const trimmed = input.trim();
  if (!trimmed) return undefined;
  if (SCHEME.test(trimmed) && !HOST_PORT.test(trimmed)) return httpUrl(trimmed);
  const probe = httpUrl(`http://${trimmed}`);
  if (!probe) return undefined;
  const { hostname: host, port } = new URL(probe);
  const bracketed = host.startsWith("[");
  if (!host.includes(".") && !bracketed && host !== "localhost" && !port) return undefined;
  const home = bracketed || IPV4.test(host) || LOCAL_SUFFIX.test(host) || !host.includes(".");
  const secure = port === "443" || port === "8443" || (!port && !home);
  return httpUrl(`${secure ? "https" : "http"}://${trimmed}`);
}

/** An http(s) URL normalised by the URL parser, or undefined for anything else. */
export function httpUrl(value: string): string | undefined {
  if (value.length > URL_MAX) return undefined;
  try {
    const url = new URL(value.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Zones found valid so far. Asking ICU means building a DateTimeFormat, a millisecond or more
 * each time, and a dashboard's first render asks once per widget. Bounded, because the names
 * come from users and ICU takes any mix of case.
 */
const knownZones = new Set<string>();
const KNOWN_ZONES_MAX = 1024;

export function isTimeZone(value: string): boolean {
  if (value.length === 0 || value.length > 64) return false;
  if (knownZones.has(value)) return true;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
  } catch {
    return false;
  }
  if (knownZones.size < KNOWN_ZONES_MAX) knownZones.add(value);
  return true;
}

export function isInstant(value: string): boolean {
  return value.length <= 40 && Number.isFinite(Date.parse(value));
}

/**
 * "https://www.example.com/a" → "example.com", "http://nas.lan:5000/" → "nas.lan:5000": how a
 * link without a title is named. The port stays: two services on one machine differ only there.
 */
export function hostname(url: string): string {
  try {
    return new URL(url).host.replace(/^www\./, "");
  } catch {
    return url;
  }
}
