import { t } from "../../../web/i18n/i18n";
import { appLocale, formatNumber, relativeTime } from "../../../web/widget-kit/data/format";
import type { LinkState, LinkStatusResult } from "../contract";

/** What a dot says in words, for screen readers and beside it in the tooltip. */
export function stateWord(state: LinkState): string {
  switch (state) {
    case "up":
      return t("widgets.bookmark.status.up");
    case "down":
      return t("widgets.bookmark.status.down");
    case "unknown":
      return t("widgets.bookmark.status.unknown");
  }
}

function reasonWords(status: LinkStatusResult): string | null {
  switch (status.reason) {
    case "http":
      return status.httpStatus === null ? null : `HTTP ${status.httpStatus}`;
    case "timeout":
      return t("widgets.bookmark.status.reason.timeout");
    case "unreachable":
      return t("widgets.bookmark.status.reason.unreachable");
    case "not-allowed":
      return t("widgets.bookmark.status.reason.notAllowed");
    case "not-checked":
      return t("widgets.bookmark.status.reason.notChecked");
    case "no-check":
      return t("widgets.bookmark.status.reason.noCheck");
    case null:
      return null;
  }
}

/** The dot's tooltip: "Up · 42 ms · checked 1 min ago", "Down · HTTP 502". */
export function statusDetail(status: LinkStatusResult, now: number, locale = appLocale()): string {
  const latency =
    status.state === "up" && status.latencyMs !== null
      ? t("widgets.bookmark.status.latency", { value: formatNumber(status.latencyMs, locale) })
      : null;
  const checked = status.checkedAt
    ? t("widgets.bookmark.status.checked", { ago: relativeTime(Date.parse(status.checkedAt), now) })
    : null;
  return [stateWord(status.state), reasonWords(status), latency, checked].filter(Boolean).join(" · ");
}
