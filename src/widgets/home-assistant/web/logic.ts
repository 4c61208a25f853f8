import { t } from "../../../web/i18n/i18n";
import { ApiError, describeError } from "../../../web/lib/api";
import { appLocale, formatNumber } from "../../../web/widget-kit/data/format";
import type { HomeAssistantEntityConfig, HomeAssistantEntityState } from "../contract";

/** Binary sensors whose "on" means open, as Home Assistant's own frontend words them. */
const OPENINGS = new Set(["door", "garage_door", "opening", "window"]);
const PRESENCE = new Set(["motion", "occupancy", "presence", "moving", "sound", "vibration"]);

/** What a row is called: the widget's label, HA's friendly name, or the entity id. */
export function entityName(config: HomeAssistantEntityConfig | undefined, state: HomeAssistantEntityState) {
  return config?.label || state.friendlyName || state.entityId;
}

/**
 * A state in the reader's words: the common ones translated (on, off, open, home, unavailable…),
 * a number formatted in their language with its unit, anything else as Home Assistant says it.
 */
export function stateWords(entity: HomeAssistantEntityState, locale = appLocale()): string {
  const { state, domain, deviceClass, unit } = entity;
  if (!entity.found || state === null) return t("widgets.homeAssistant.states.notFound");
  if (state === "unavailable") return t("widgets.homeAssistant.states.unavailable");
  if (state === "unknown") return t("widgets.homeAssistant.states.unknown");
  if (domain === "binary_sensor" && deviceClass && (state === "on" || state === "off")) {
    if (OPENINGS.has(deviceClass))
      return state === "on"
        ? t("widgets.homeAssistant.states.open")
        : t("widgets.homeAssistant.states.closed");
    if (PRESENCE.has(deviceClass))
      return state === "on"
        ? t("widgets.homeAssistant.states.detected")
        : t("widgets.homeAssistant.states.clear");
  }
  switch (state) {
    case "on":
      return t("widgets.homeAssistant.states.on");
    case "off":
      return t("widgets.homeAssistant.states.off");
    case "open":
      return t("widgets.homeAssistant.states.open");
    case "closed":
      return t("widgets.homeAssistant.states.closed");
    case "opening":
      return t("widgets.homeAssistant.states.opening");
    case "closing":
      return t("widgets.homeAssistant.states.closing");
    case "locked":
      return t("widgets.homeAssistant.states.locked");
    case "unlocked":
      return t("widgets.homeAssistant.states.unlocked");
    case "home":
      return t("widgets.homeAssistant.states.home");
    case "not_home":
      return t("widgets.homeAssistant.states.away");
  }
  // HA writes numbers with a dot whatever the language; shown as the reader writes them.
  if (/^-?\d+(\.\d+)?$/.test(state)) {
    const decimals = state.split(".")[1]?.length ?? 0;
    const number = formatNumber(Number(state), locale, {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    return unit ? `${number} ${unit}` : number;
  }
  return unit ? `${state} ${unit}` : state;
}

/** Whether a row's switch can be used now: on or off; unavailable or unknown devices cannot. */
export const switchable = (entity: HomeAssistantEntityState) =>
  entity.togglable && (entity.state === "on" || entity.state === "off");

/**
 * Why the widget has no states, in the reader's language from the problem's code, with the
 * server's detail (which names the integration and what Home Assistant answered) as fine print.
 */
export function describeHomeAssistantError(error: unknown): { message: string; detail: string | null } {
  if (!(error instanceof ApiError)) return { message: describeError(error), detail: null };
  const detail = error.problem?.detail ?? null;
  switch (error.code) {
    case "not_found":
      return { message: t("widgets.homeAssistant.errors.gone"), detail: null };
    case "address_not_allowed":
      return { message: t("widgets.homeAssistant.errors.private"), detail };
    case "upstream_timeout":
      return { message: t("widgets.homeAssistant.errors.slow"), detail };
    case "upstream_failed":
      return { message: t("widgets.homeAssistant.errors.failed"), detail };
    default:
      return { message: describeError(error), detail: null };
  }
}
