import { t } from "../../../web/i18n/i18n";
import { ApiError, describeError } from "../../../web/lib/api";
import { appLocale } from "../../../web/widget-kit/data/format";
import type { QbStateGroup } from "../contract";

const SUFFIXES = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"] as const;

/** 1536 → "1.5 KiB": binary units, as qBittorrent itself counts. */
export function formatBytes(bytes: number, locale = appLocale()): string {
  let unit = 0;
  let size = Math.max(bytes, 0);
  while (size >= 1024 && unit < SUFFIXES.length - 1) {
    size /= 1024;
    unit++;
  }
  const digits = unit === 0 ? 0 : size < 10 ? 1 : 0;
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(size);
  return `${number} ${SUFFIXES[unit]}`;
}

/** Bytes per second as qBittorrent shows them ("4.2 MiB/s"). */
export function formatSpeed(bytesPerSecond: number, locale = appLocale()): string {
  return t("widgets.qBittorrent.speed", { value: formatBytes(bytesPerSecond, locale) });
}

/** Seconds as the two largest units: "1 h 45 min", "3 min", "40 s". */
export function formatEta(seconds: number, locale = appLocale()): string {
  const units = [
    ["day", 86_400],
    ["hour", 3600],
    ["minute", 60],
    ["second", 1],
  ] as const;
  let left = Math.max(Math.round(seconds), 0);
  const parts: string[] = [];
  for (const [unit, size] of units) {
    const count = Math.floor(left / size);
    left -= count * size;
    if (count > 0 || (unit === "second" && parts.length === 0))
      parts.push(new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "short" }).format(count));
    if (parts.length === 2 || (parts.length === 1 && count === 0)) break;
  }
  return parts.join(" ");
}

/** "42 %" as the reader writes it, rounded down: a torrent one piece short is not "100 %". */
export function formatProgress(progress: number, locale = appLocale()): string {
  const percent = progress >= 1 ? 100 : Math.floor(Math.max(progress, 0) * 100);
  return new Intl.NumberFormat(locale, { style: "percent" }).format(percent / 100);
}

/** The word for what a torrent is doing. */
export function stateWord(group: QbStateGroup): string {
  switch (group) {
    case "downloading":
      return t("widgets.qBittorrent.states.downloading");
    case "seeding":
      return t("widgets.qBittorrent.states.seeding");
    case "stalled":
      return t("widgets.qBittorrent.states.stalled");
    case "queued":
      return t("widgets.qBittorrent.states.queued");
    case "checking":
      return t("widgets.qBittorrent.states.checking");
    case "metadata":
      return t("widgets.qBittorrent.states.metadata");
    case "moving":
      return t("widgets.qBittorrent.states.moving");
    case "stopped":
      return t("widgets.qBittorrent.states.stopped");
    case "error":
      return t("widgets.qBittorrent.states.error");
    case "unknown":
      return t("widgets.qBittorrent.states.unknown");
  }
}

/**
 * Why the widget has nothing to show, in the reader's language from the problem's code, with the
 * server's detail (a refused password, a ban) as fine print.
 */
export function describeQbittorrentError(error: unknown): { message: string; detail: string | null } {
  if (!(error instanceof ApiError)) return { message: describeError(error), detail: null };
  const detail = error.problem?.detail ?? null;
  switch (error.code) {
    case "not_found":
      return { message: t("widgets.qBittorrent.errors.notFound"), detail };
    case "address_not_allowed":
      return { message: t("widgets.qBittorrent.errors.private"), detail };
    case "upstream_timeout":
      return { message: t("widgets.qBittorrent.errors.slow"), detail };
    case "upstream_failed":
      return { message: t("widgets.qBittorrent.errors.failed"), detail };
    default:
      return { message: describeError(error), detail: null };
  }
}
