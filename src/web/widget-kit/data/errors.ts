import { PROVIDER_LABELS, type Provider } from "../../../contract/providers";
import { t } from "../../i18n/i18n";
import { ApiError, describeError, retryHint } from "../../lib/api";

/**
 * The outside service a data widget's answers come from; `{service}` names one the widget knows
 * by name ("Open-Meteo"), so its errors say who failed instead of "the service behind this".
 */
export type Upstream = "exchange" | "weather" | "feed" | "status" | Provider | { service: string };

/** The problem codes that name the outside service rather than the server. */
type UpstreamCode = "upstream_failed" | "upstream_timeout" | "service_unavailable";

/** The words for each code, in the app's language (keys stay literal for the catalog checker). */
function phrases(upstream: Upstream): Record<UpstreamCode, string> {
  if (upstream === "exchange")
    return {
      upstream_failed: t("widgets.data.errors.exchange.upstream_failed"),
      upstream_timeout: t("widgets.data.errors.exchange.upstream_timeout"),
      service_unavailable: t("widgets.data.errors.exchange.service_unavailable"),
    };
  if (upstream === "weather")
    return {
      upstream_failed: t("widgets.data.errors.weather.upstream_failed"),
      upstream_timeout: t("widgets.data.errors.weather.upstream_timeout"),
      service_unavailable: t("widgets.data.errors.weather.service_unavailable"),
    };
  if (upstream === "feed")
    return {
      upstream_failed: t("widgets.data.errors.feed.upstream_failed"),
      upstream_timeout: t("widgets.data.errors.feed.upstream_timeout"),
      service_unavailable: t("widgets.data.errors.feed.service_unavailable"),
    };
  if (upstream === "status")
    return {
      upstream_failed: t("widgets.data.errors.status.upstream_failed"),
      upstream_timeout: t("widgets.data.errors.status.upstream_timeout"),
      service_unavailable: t("widgets.data.errors.status.service_unavailable"),
    };
  const label = typeof upstream === "object" ? upstream.service : PROVIDER_LABELS[upstream];
  return {
    upstream_failed: t("widgets.data.errors.provider.upstream_failed", { label }),
    upstream_timeout: t("widgets.data.errors.provider.upstream_timeout", { label }),
    service_unavailable: t("widgets.data.errors.provider.service_unavailable", { label }),
  };
}

/**
 * Why a data widget has nothing new, named from the API's problem `code` (never the server's
 * English detail): the outside service failed or timed out, the server is queueing requests to
 * it, or too many were asked; with the wait the server gave (Retry-After) when it gave one.
 */
export function describeDataError(error: unknown, upstream: Upstream): string {
  if (!(error instanceof ApiError)) return describeError(error);
  switch (error.code) {
    case "upstream_failed":
    case "upstream_timeout":
    case "service_unavailable":
      return t("widgets.data.errors.withWait", {
        message: phrases(upstream)[error.code],
        wait: retryHint(error),
      });
    default:
      return describeError(error);
  }
}
