import { t } from "../../../web/i18n/i18n";
import { ApiError, describeError } from "../../../web/lib/api";
import { appLocale, formatNumber } from "../../../web/widget-kit/data/format";
import type { KumaMonitor, KumaStatus } from "../contract";

/** The word next to a monitor's dot, in the reader's language. */
export function statusWord(status: KumaStatus): string {
  switch (status) {
    case "up":
      return t("widgets.uptimeKuma.status.up");
    case "down":
      return t("widgets.uptimeKuma.status.down");
    case "pending":
      return t("widgets.uptimeKuma.status.pending");
    case "maintenance":
      return t("widgets.uptimeKuma.status.maintenance");
    case "unknown":
      return t("widgets.uptimeKuma.status.unknown");
  }
}

/** "2 up", "1 in maintenance": the summary's words for a count of monitors. */
export function countWords(status: KumaStatus, count: number): string {
  switch (status) {
    case "up":
      return t("widgets.uptimeKuma.counts.up", { count });
    case "down":
      return t("widgets.uptimeKuma.counts.down", { count });
    case "pending":
      return t("widgets.uptimeKuma.counts.pending", { count });
    case "maintenance":
      return t("widgets.uptimeKuma.counts.maintenance", { count });
    case "unknown":
      return t("widgets.uptimeKuma.counts.unknown", { count });
  }
}

/** "42 ms", "1.2 s": a response time as the reader writes numbers. */
export function responseTime(ms: number | null, locale = appLocale()): string | null {
  if (ms === null) return null;
  if (ms < 1000) return t("widgets.uptimeKuma.ms", { value: formatNumber(Math.round(ms), locale) });
  return t("widgets.uptimeKuma.s", {
    value: formatNumber(ms / 1000, locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
  });
}

/** "99.87 %" of the last 24 hours; two decimals, since 99.9 and 99.99 differ by hours a year. */
export function uptimeShare(ratio: number | null, locale = appLocale()): string | null {
  if (ratio === null) return null;
  return t("widgets.uptimeKuma.uptime", {
    value: formatNumber(ratio, locale, {
      style: "percent",
      minimumFractionDigits: 0,
      maximumFractionDigits: 2,
    }),
  });
}

/** The monitors by group, in the status page's order (one unnamed group from the metrics). */
export function groupsOf(
  monitors: readonly KumaMonitor[],
): { name: string | null; monitors: KumaMonitor[] }[] {
  const groups: { name: string | null; monitors: KumaMonitor[] }[] = [];
  for (const monitor of monitors) {
    const last = groups.at(-1);
    if (last && last.name === monitor.group) last.monitors.push(monitor);
    else groups.push({ name: monitor.group, monitors: [monitor] });
  }
  return groups;
}

/**
 * Why the widget has no monitors, in the reader's language from the problem's code, with the
 * server's detail (which says whether a key is missing or refused, or the page unknown) as fine print.
 */
export function describeKumaError(error: unknown): { message: string; detail: string | null } {
  if (!(error instanceof ApiError)) return { message: describeError(error), detail: null };
  const detail = error.problem?.detail ?? null;
  switch (error.code) {
    case "not_found":
      return { message: t("widgets.uptimeKuma.errors.notFound"), detail };
    case "address_not_allowed":
      return { message: t("widgets.uptimeKuma.errors.private"), detail };
    case "upstream_timeout":
      return { message: t("widgets.uptimeKuma.errors.slow"), detail };
    case "upstream_failed":
      return { message: t("widgets.uptimeKuma.errors.failed"), detail };
    default:
      return { message: describeError(error), detail: null };
  }
}
