import { ProblemError } from "../../http/errors.js";
import type { UpstreamRequest } from "../../upstream/fetch.js";
import type { Upstream } from "../../upstream/upstream.js";

/**
 * One HTTP check of an address, shared by the widget types that show whether something answers
 * (the Status widget's watch pass, a bookmark's status dot): moved here from the Status widget's
 * folder so neither reaches into the other's.
 */

/**
 * A status check waits this long at most, its GET fallback included: a target that slow is down
 * for anyone using it. A pass shorter than this shortens it (the Status widget's server/checks.ts).
 */
export const STATUS_TIMEOUT_MS = 10_000;

/** What one check of one address found. */
export interface Probe {
  up: boolean;
  httpStatus: number | null;
  latencyMs: number | null;
  error?: { code: "address_not_allowed" | "timeout" | "unreachable"; message: string };
}

/**
 * Serving means answering: 2xx and 3xx, and 401/403 too, since a homelab app behind a login
 * answers its root that way while it is perfectly up. 404, 5xx and the rest mean it is not.
 */
export const isServing = (status: number) => status < 400 || status === 401 || status === 403;

const NOT_ALLOWED =
  "The server does not check private, loopback or link-local addresses unless an admin allows them (Administration, private networks, or FETCH_ALLOW_PRIVATE)";

/**
 * One check: HEAD through the upstream layer as a user-given URL (the address guard, every
 * redirect checked), GET when the site refuses HEAD (405, 501), the body never read. Both
 * together within `timeoutMs` of the start: a site that refuses HEAD slowly gets no second wait.
 */
export async function probe(
  upstream: Upstream,
  url: string,
  now: () => number,
  timeoutMs = STATUS_TIMEOUT_MS,
): Promise<Probe> {
  const host = new URL(url).host;
  const deadline = now() + timeoutMs;
  const request = (method: "HEAD" | "GET", left: number): UpstreamRequest => ({
    url,
    method,
    service: host,
    what: "the status check",
    headers: { accept: "*/*" },
    discardBody: true,
    timeoutMs: left,
  });
  let started = now();
  try {
    let response = await upstream.fetch(request("HEAD", timeoutMs));
    if (response.status === 405 || response.status === 501) {
      // The latency is the answering request's own, not the refused HEAD's plus it.
      started = now();
      const left = Math.floor(deadline - started);
      if (left <= 0) return timedOut(url, timeoutMs);
      response = await upstream.fetch(request("GET", left));
    }
    return {
      up: isServing(response.status),
      httpStatus: response.status,
      latencyMs: Math.max(0, Math.round(now() - started)),
    };
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    if (error.code === "address_not_allowed")
      return {
        up: false,
        httpStatus: null,
        latencyMs: null,
        error: { code: error.code, message: NOT_ALLOWED },
      };
    const code = error.code === "upstream_timeout" ? "timeout" : "unreachable";
    return { up: false, httpStatus: null, latencyMs: null, error: { code, message: error.detail } };
  }
}

function timedOut(url: string, timeoutMs: number): Probe {
  const message = `${new URL(url).host} did not answer within ${timeoutMs / 1000} s for the status check`;
  return { up: false, httpStatus: null, latencyMs: null, error: { code: "timeout", message } };
}
