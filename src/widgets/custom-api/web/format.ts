import type { CustomApiFormat, CustomApiValue } from "../contract";

/**
 * How a picked value is shown, by its field's format. Pure (locale and now are given), so it is
 * unit tested; the words that are ours (status names) come from the caller's translations.
 */

export type StatusTone = "good" | "warning" | "bad" | "unknown";

const GOOD = new Set(
  "up ok okay healthy running online active enabled pass passed passing success successful succeeded true yes green connected available ready started operational alive normal complete completed done synced idle printing operational".split(
    " ",
  ),
);
const WARNING = new Set(
  "warning warn degraded pending starting paused maintenance partial yellow restarting busy updating syncing stale queued waiting grace".split(
    " ",
  ),
);
const BAD = new Set(
  "down error errored failed fail failing failure critical crit unhealthy offline stopped exited dead disabled inactive false no red disconnected unavailable unreachable missing timeout".split(
    " ",
  ),
);

/**
 * The `status` format's mapping (documented in the widget's settings hint):
 * - true, HTTP 200–299 and any other number but 0 (1 as in Prometheus' `up`) → good; false and 0 → bad;
 *   HTTP 300–399 → warning, 400–599 → bad;
 * - texts, case and spaces ignored: "up", "ok", "healthy", "running", "online", "active",
 *   "success"… → good; "warning", "degraded", "pending", "paused", "maintenance"… → warning;
 *   "down", "error", "failed", "critical", "offline", "stopped", "exited"… → bad; a text of
 *   digits is read as a number;
 * - anything else (null, an unknown word, JSON text) → unknown.
 */
export function statusTone(value: CustomApiValue): StatusTone {
  if (value === null) return "unknown";
  if (typeof value === "boolean") return value ? "good" : "bad";
  if (typeof value === "number") {
    if (value >= 200 && value <= 299) return "good";
    if (value >= 300 && value <= 399) return "warning";
    if (value >= 400 && value <= 599) return "bad";
    return value === 0 ? "bad" : "good";
  }
  const word = value.trim().toLowerCase();
  if (/^-?\d+(\.\d+)?$/.test(word)) return statusTone(Number(word));
  if (GOOD.has(word)) return "good";
  if (WARNING.has(word)) return "warning";
  if (BAD.has(word)) return "bad";
  return "unknown";
}

/** A number in the value, also when the service sent it as text ("42", "3.5"). */
export function numberOf(value: CustomApiValue): number | null {
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)))
    return Number(value);
  return null;
}

const BYTE_UNITS = ["byte", "kilobyte", "megabyte", "gigabyte", "terabyte", "petabyte"] as const;
const BINARY_SUFFIX = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"] as const;

/** 1536 → "1.5 KiB": binary units, as disks and memory are counted. */
export function formatBytes(bytes: number, locale: string): string {
  let unit = 0;
  let size = Math.abs(bytes);
  while (size >= 1024 && unit < BYTE_UNITS.length - 1) {
    size /= 1024;
    unit++;
  }
  const digits = unit === 0 ? 0 : size < 10 ? 2 : size < 100 ? 1 : 0;
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(
    Math.sign(bytes) * size,
  );
  return `${number} ${BINARY_SUFFIX[unit]}`;
}

const DURATION_UNITS = [
  ["day", 86_400],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1],
] as const;

/** Seconds as the two largest units: 93784 → "1d 2h" (in German "1 T 2 Std."). */
export function formatDuration(seconds: number, locale: string): string {
  let left = Math.round(Math.abs(seconds));
  const parts: string[] = [];
  for (const [unit, size] of DURATION_UNITS) {
    const count = Math.floor(left / size);
    left -= count * size;
    if (count > 0 || (unit === "second" && parts.length === 0))
      parts.push(new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "narrow" }).format(count));
    if (parts.length === 2) break;
    if (parts.length === 1 && count === 0) break;
  }
  return `${seconds < 0 ? "-" : ""}${parts.join(" ")}`;
}

/**
 * An instant in the value: a number is Unix time (seconds below 10^11, else milliseconds), a
 * text is parsed as ISO 8601 (or what Date reads). null when it is none.
 */
export function instantOf(value: CustomApiValue): number | null {
  const n = numberOf(value);
  if (n !== null) return Math.abs(n) < 1e11 ? n * 1000 : n;
  if (typeof value !== "string") return null;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? null : parsed;
}

const RELATIVE_STEPS = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 7],
] as const;

/** "3 minutes ago", "in 2 days" within a week of now; else the date and time. */
export function formatInstant(at: number, now: number, locale: string): string {
  let amount = (at - now) / 1000;
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(amount) < size)
      return new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(Math.round(amount), unit);
    amount /= size;
  }
  return exactInstant(at, locale);
}

export const exactInstant = (at: number, locale: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(at);

/** What a value reads as in its format; a value the format cannot read is shown as text. */
export function formatValue(
  value: CustomApiValue,
  format: CustomApiFormat | string,
  options: { locale: string; now: number; unit?: string | null },
): string {
  const { locale, now, unit } = options;
  if (value === null) return "—";
  const n = numberOf(value);
  const withUnit = (text: string) => (unit ? `${text} ${unit}` : text);
  switch (format) {
    case "number":
      return n === null
        ? withUnit(String(value))
        : withUnit(new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(n));
    case "bytes":
      return n === null ? String(value) : formatBytes(n, locale);
    case "percent":
      // The number is a percentage as sent (37.5 → 37.5 %); a fraction is multiplied in the query.
      return n === null
        ? String(value)
        : new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }).format(n / 100);
    case "duration":
      return n === null ? String(value) : formatDuration(n, locale);
    case "date": {
      const at = instantOf(value);
      return at === null ? String(value) : formatInstant(at, now, locale);
    }
    default:
      return withUnit(
        typeof value === "number"
          ? new Intl.NumberFormat(locale, { maximumFractionDigits: 20 }).format(value)
          : String(value),
      );
  }
}
