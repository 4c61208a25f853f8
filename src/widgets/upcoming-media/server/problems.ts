import { notFoundBecause, ProblemError, upstreamFailed } from "../../../server/http/errors.js";
import type { UsableIntegration } from "../../../server/integrations/types.js";
import type { UpstreamResponse } from "../../../server/upstream/fetch.js";
import type { UpcomingErrorReason, UpcomingKind } from "../contract.js";

/** A failure of one integration, with the reason the widget names it by (in the reader's language). */
export class UpcomingProblem extends ProblemError {
  constructor(
    readonly reason: UpcomingErrorReason,
    problem: ProblemError,
  ) {
    super(problem.status, problem.code, problem.detail, problem.extra);
  }
}

export const LABELS: Record<UpcomingKind, string> = { sonarr: "Sonarr", radarr: "Radarr" };

/** Why an integration failed, from what the upstream layer or the service said. */
export function reasonOf(error: ProblemError): UpcomingErrorReason {
  if (error instanceof UpcomingProblem) return error.reason;
  if (error.code === "address_not_allowed") return "blocked";
  if (error.status === 504) return "timeout";
  return "failed";
}

/**
 * The answer when it is a success; otherwise a problem that says what its status means here: a
 * refused key (where to find it), a wrong address (the URL base), a redirect to save instead.
 */
export function judged(response: UpstreamResponse, integration: UsableIntegration): UpstreamResponse {
  const { status, what } = response;
  if (status >= 200 && status <= 299) return response;
  const label = LABELS[integration.kind as UpcomingKind] ?? integration.kind;
  if (status === 401 || status === 403)
    throw new UpcomingProblem(
      "refused",
      upstreamFailed(
        `${integration.name} refused the API key (${status}): copy it again from ${label}, Settings > General > Security, into the integration`,
      ),
    );
  if (status === 404)
    throw new UpcomingProblem(
      "not_found",
      notFoundBecause(
        `${integration.name} has no ${what} at this address (404): if ${label} has a URL Base, add it to the integration's address`,
      ),
    );
  const location = response.headers.get("location");
  if (status >= 300 && status <= 399 && location)
    throw new UpcomingProblem(
      "failed",
      upstreamFailed(
        `${integration.name} redirects to ${location}: save that address in the integration instead`,
      ),
    );
  throw new UpcomingProblem("failed", upstreamFailed(`${integration.name} answered ${status} for ${what}`));
}
