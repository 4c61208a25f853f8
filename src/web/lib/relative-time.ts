import { t } from "../i18n/i18n";

/**
 * "just now", "5 minutes ago", "in 3 days", "yesterday"; past a month, the date itself.
 * Works both ways, so expiry dates read as naturally as last-active ones.
 */
export function relativeTime(iso: string, now = Date.now(), locale?: string): string {
  const then = Date.parse(iso);
  if (!Number.isFinite(then)) return "";
  const seconds = Math.round((then - now) / 1000);
  const distance = Math.abs(seconds);
  if (distance < 45) return seconds <= 0 ? t("time.justNow") : t("time.inAMoment");
  const format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  if (distance < 3600) return format.format(Math.round(seconds / 60), "minute");
  if (distance < 86_400) return format.format(Math.round(seconds / 3600), "hour");
  if (distance < 31 * 86_400) return format.format(Math.round(seconds / 86_400), "day");
  return formatDate(iso, locale);
}

/** "26 Nov 2026" in the reader's own format. */
export function formatDate(iso: string, locale?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return date.toLocaleDateString(locale, { year: "numeric", month: "short", day: "numeric" });
}

/** "Never", "Expired", or "in 3 days" for an optional expiry. */
export function expiresText(iso: string | null, now = Date.now(), locale?: string): string {
  if (!iso) return t("time.never");
  if (Date.parse(iso) <= now) return t("time.expired");
  return relativeTime(iso, now, locale);
}

/** The exact moment, for a title attribute under a relative time. */
export function exactTime(iso: string, locale?: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ""
    : date.toLocaleString(locale, { dateStyle: "medium", timeStyle: "short" });
}
