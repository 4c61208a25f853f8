import { formattingLocale, t } from "../../i18n/i18n";
import type { HourFormat } from "../../lib/app-settings";

/** Formatting shared by the data widgets; pure, so it is unit tested with fixed instants and zones. */

export interface TimeOptions {
  timezone: string;
  hourFormat: HourFormat;
}

/** The app's language, for callers outside React that were given no locale (never the browser default). */
export const appLocale = (): string => formattingLocale();

/** "just now", "5 min ago", "3 h ago", "2 days ago": how old the data on screen is, in the app's language. */
export function relativeTime(then: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 45) return t("time.justNow");
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return t("widgets.data.ago.minutes", { count: minutes });
  const hours = Math.round(minutes / 60);
  if (hours < 24) return t("widgets.data.ago.hours", { count: hours });
  const days = Math.round(hours / 24);
  return t("widgets.data.ago.days", { count: days });
}

export function formatTime(
  instant: string | number | Date,
  options: TimeOptions,
  locale = appLocale(),
): string {
  return new Intl.DateTimeFormat(locale, {
    timeZone: options.timezone,
    hour: options.hourFormat === "12" ? "numeric" : "2-digit",
    minute: "2-digit",
    hourCycle: options.hourFormat === "12" ? "h12" : "h23",
  }).format(new Date(instant));
}

/** Just the hour for narrow strips: "14" or "2 PM". */
export function formatHour(
  instant: string | number | Date,
  options: TimeOptions,
  locale = appLocale(),
): string {
  if (options.hourFormat === "24") return formatTime(instant, options, locale);
  return new Intl.DateTimeFormat(locale, {
    timeZone: options.timezone,
    hour: "numeric",
    hourCycle: "h12",
  }).format(new Date(instant));
}

/** The calendar day an instant falls on in a zone, as YYYY-MM-DD. */
export function dayKey(instant: string | number | Date, timezone: string): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: timezone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).formatToParts(new Date(instant));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "00";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

/** Adds days to a YYYY-MM-DD key (calendar arithmetic, no zones involved). */
export function addDays(key: string, days: number): string {
  const [y, m, d] = key.split("-").map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + days)).toISOString().slice(0, 10);
}

/** "Today", "Tomorrow", else "Wednesday, 4 March" (a date key names a calendar day, not an instant). */
export function dayLabel(key: string, todayKey: string, locale = appLocale(), short = false): string {
  if (key === todayKey) return t("widgets.data.day.today");
  if (key === addDays(todayKey, 1)) return t("widgets.data.day.tomorrow");
  return new Intl.DateTimeFormat(locale, {
    timeZone: "UTC",
    weekday: short ? "short" : "long",
    day: "numeric",
    month: short ? "short" : "long",
  }).format(new Date(`${key}T12:00:00Z`));
}

export function weekdayShort(key: string, locale = appLocale()): string {
  return new Intl.DateTimeFormat(locale, { timeZone: "UTC", weekday: "short" }).format(
    new Date(`${key}T12:00:00Z`),
  );
}

/** What a zone's wall clock shows at an instant, read part by part ("year", "month", … "second"). */
function wallClockParts(
  instant: number | Date,
  timezone: string,
): (type: Intl.DateTimeFormatPartTypes) => string {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: timezone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(instant));
  return (type) => parts.find((p) => p.type === type)?.value ?? "00";
}

/** How far a zone's wall clock is ahead of UTC at an instant, in ms. */
function zoneOffset(instant: number, timezone: string): number {
  const part = wallClockParts(instant, timezone);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(part(type));
  const wall = Date.UTC(
    get("year"),
    get("month") - 1,
    get("day"),
    get("hour") % 24,
    get("minute"),
    get("second"),
  );
  return wall - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant at which a zone's wall clock shows `date` `time` (the create-event form is filled
 * in the user's zone, not the browser's). A time in a DST gap moves forward by the gap, as calendars do.
 */
export function zonedTimeToUtc(date: string, time: string, timezone: string): Date {
  const [y, mo, d] = date.split("-").map(Number);
  const [h, mi] = time.split(":").map(Number);
  const wall = Date.UTC(y ?? 1970, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0);
  const first = wall - zoneOffset(wall, timezone);
  const second = wall - zoneOffset(first, timezone);
  return new Date(second);
}

/** A price in its quote currency; codes Intl does not know (USDT, say) are written after the number. */
export function formatPrice(value: number, quote: string, locale = appLocale()): string {
  const abs = Math.abs(value);
  const digits =
    abs >= 1000
      ? { minimumFractionDigits: 0, maximumFractionDigits: 0 }
      : abs >= 1
        ? { minimumFractionDigits: 2, maximumFractionDigits: 2 }
        : { maximumSignificantDigits: 4 };
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency: quote, ...digits }).format(value);
  } catch {
    return `${new Intl.NumberFormat(locale, digits).format(value)} ${quote}`;
  }
}

/** A change with its sign: "+1.23%", "−0.50%" ("+1,23 %" in German). */
export function formatPercent(value: number | null, locale = appLocale()): string {
  if (value === null || !Number.isFinite(value)) return "–";
  const sign = value > 0 ? "+" : value < 0 ? "−" : "";
  const abs = new Intl.NumberFormat(locale, {
    style: "percent",
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(Math.abs(value) / 100);
  return `${sign}${abs}`;
}

/** A plain number in the app's language ("1,234.5"; "1.234,5" in German). */
export function formatNumber(
  value: number,
  locale = appLocale(),
  options?: Intl.NumberFormatOptions,
): string {
  return new Intl.NumberFormat(locale, options).format(value);
}

/** Black or white text, whichever reads better on a hex background (GitHub label colours). */
export function readableOn(hex: string): "#000" | "#fff" {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex);
  if (!m) return "#000";
  const n = Number.parseInt(m[1]!, 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#000" : "#fff";
}

/** What a zone's wall clock shows at an instant: date "YYYY-MM-DD" and time "HH:MM". */
export function zonedWallClock(instant: number | Date, timezone: string): { date: string; time: string } {
  const get = wallClockParts(instant, timezone);
  return { date: `${get("year")}-${get("month")}-${get("day")}`, time: `${get("hour")}:${get("minute")}` };
}
