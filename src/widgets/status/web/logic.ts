import { t } from "../../../web/i18n/i18n";
import type { StatusState, StatusTargetResult } from "../../../web/lib/data-api";
import { appLocale } from "../../../web/widget-kit/data/format";

/** What a target's row says: the server's last check, or that it has not checked yet. */
export type Health = "up" | "down" | "unknown" | "not-allowed";

export function healthOf(state: StatusState | null): Health {
  if (!state) return "unknown";
  if (state.error?.code === "address_not_allowed") return "not-allowed";
  return state.up ? "up" : "down";
}

/** The word next to a row's icon, in the app's language. */
export function healthLabel(health: Health): string {
  switch (health) {
    case "up":
      return t("widgets.status.health.up");
    case "down":
      return t("widgets.status.health.down");
    case "unknown":
      return t("widgets.status.health.unknown");
    case "not-allowed":
      return t("widgets.status.health.notAllowed");
  }
}

/** Why a target is down, in a few words: "HTTP 503", "No answer", "Unreachable". */
export function downReason(state: StatusState): string | null {
  if (state.up) return null;
  if (state.httpStatus !== null) return `HTTP ${state.httpStatus}`;
  if (state.error?.code === "timeout") return t("widgets.status.reason.timeout");
  if (state.error?.code === "unreachable") return t("widgets.status.reason.unreachable");
  return null;
}

export function formatLatency(ms: number | null, locale = appLocale()): string | null {
  if (ms === null) return null;
  if (ms < 1000) return t("widgets.status.latency.ms", { value: new Intl.NumberFormat(locale).format(ms) });
  const seconds = new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return t("widgets.status.latency.s", { value: seconds.format(ms / 1000) });
}

/**
 * The rows to show: the config's checks, in its order and with its names, each with the state
 * the server answered for it. The answer may predate a save that is still on its way (a target
 * just added): such a target is simply not checked yet.
 */
export function rowsOf(
  checks: readonly { id: string; name: string; url: string }[],
  answer: readonly StatusTargetResult[],
): StatusTargetResult[] {
  const byId = new Map(answer.map((a) => [a.id, a]));
  return checks.map((target) => {
    const found = byId.get(target.id);
    return { ...target, state: found && found.url === target.url ? found.state : null };
  });
}
