import { t } from "../../../web/i18n/i18n";
import { ApiError, describeError } from "../../../web/lib/api";

/** The server's words for an integration the widget's owner may not (or no longer) use. */
const GONE = "This integration is gone or not yours";

/**
 * A 404 other than a gone integration: the server has not stored what the widget now asks for
 * (a save on its way). The next revision asks again; meanwhile the widget is loading, not failing.
 */
export function isSaveInFlight(error: unknown): boolean {
  return error instanceof ApiError && error.code === "not_found" && error.problem?.detail !== GONE;
}

/**
 * Why the widget has no values, in the reader's language from the problem's code, with the
 * server's detail (which names the service and what it answered) kept for the fine print.
 */
export function describeCustomApiError(error: unknown): { message: string; detail: string | null } {
  if (!(error instanceof ApiError)) return { message: describeError(error), detail: null };
  const detail = error.problem?.detail ?? null;
  switch (error.code) {
    case "not_found":
      return { message: t("widgets.customAPI.errors.gone"), detail: null };
    case "address_not_allowed":
      return { message: t("widgets.customAPI.errors.private"), detail };
    case "upstream_timeout":
      return { message: t("widgets.customAPI.errors.slow"), detail };
    case "upstream_failed":
      return { message: t("widgets.customAPI.errors.failed"), detail };
    default:
      return { message: describeError(error), detail: null };
  }
}
