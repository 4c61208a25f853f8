import { t } from "../../../web/i18n/i18n";
import { ApiError, describeError } from "../../../web/lib/api";
import { appLocale, formatNumber, formatTime, type TimeOptions } from "../../../web/widget-kit/data/format";
import type { AdBlockingKind, Blocking } from "../contract";

/** The services by their own names, the same in every language. */
export const KIND_LABELS: Record<AdBlockingKind, string> = { pihole: "Pi-hole", adguard: "AdGuard Home" };

/** The blocking state in the reader's words: "Paused until 14:35" in their zone and clock. */
export function stateWords(blocking: Blocking, time: TimeOptions, locale = appLocale()): string {
  switch (blocking.state) {
    case "enabled":
      return t("widgets.adBlocking.state.enabled");
    case "disabled":
      return t("widgets.adBlocking.state.disabled");
    case "paused":
      return blocking.pausedUntil
        ? t("widgets.adBlocking.state.paused", { time: formatTime(blocking.pausedUntil, time, locale) })
        : t("widgets.adBlocking.state.disabled");
    case "failed":
      return t("widgets.adBlocking.state.failed");
    default:
      return t("widgets.adBlocking.state.unknown");
  }
}

/** A share of 0 to 1 as the reader writes percentages, one decimal ("14.3%", "14,3 %"). */
export const shareWords = (share: number, locale = appLocale()) =>
  formatNumber(share, locale, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** Whether blocking can be paused now (it is on), or resumed (it is off or paused). */
export const canResume = (blocking: Blocking) => blocking.state === "paused" || blocking.state === "disabled";

/**
 * Why the widget has no numbers, in the reader's language from the problem's code, with the
 * server's detail (which names the integration and what the service answered) as fine print.
 */
export function describeAdBlockingError(error: unknown): { message: string; detail: string | null } {
  if (!(error instanceof ApiError)) return { message: describeError(error), detail: null };
  const detail = error.problem?.detail ?? null;
  switch (error.code) {
    case "not_found":
      return { message: t("widgets.adBlocking.errors.gone"), detail: null };
    case "forbidden":
      return { message: t("widgets.adBlocking.errors.forbidden"), detail };
    case "address_not_allowed":
      return { message: t("widgets.adBlocking.errors.private"), detail };
    case "upstream_timeout":
      return { message: t("widgets.adBlocking.errors.slow"), detail };
    case "upstream_failed":
      return { message: t("widgets.adBlocking.errors.failed"), detail };
    default:
      return { message: describeError(error), detail: null };
  }
}
