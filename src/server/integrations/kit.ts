import { upstreamFailed } from "../http/errors.js";
import type { UpstreamResponse } from "../upstream/fetch.js";
import { maybeJson } from "../upstream/source.js";
import type { IntegrationRequest } from "./types.js";

/** One call to the integration's service (its address, secrets and reach already applied). */
export type IntegrationCall = (request: IntegrationRequest) => Promise<UpstreamResponse>;

/** What signing in to a service gave: the headers every later call carries (a cookie, a session id). */
export interface IntegrationSession {
  headers: Record<string, string>;
  /** How long the service keeps it; until it answers 401 or 403 when absent. */
  expiresInMs?: number;
}

/**
 * A kind's server half (src/integrations/<kind>/server.ts): how its secrets travel with each call
 * and how a connection is tested.
 */
export interface IntegrationKindServer {
  /** The headers that carry the secrets on every call. */
  headers(secrets: Readonly<Record<string, string>>): Record<string, string>;
  /**
   * For services that sign in before they answer (qBittorrent's cookie, Pi-hole v6's session id):
   * one sign-in through `call` (which carries `headers()` only). The service keeps the session
   * per saved integration, adds its headers to every call, and when a call is answered 401 or 403
   * signs in once more and retries that call once. Throws a ProblemError saying why it failed.
   */
  signIn?(call: IntegrationCall, secrets: Readonly<Record<string, string>>): Promise<IntegrationSession>;
  /**
   * Ends a session nothing will use again (the sign-in of a connection test before saving), for
   * services whose sessions are few (Pi-hole's 16 seats): left alone it holds a seat until the
   * service times it out. `call` carries the session's headers. Failures are ignored.
   */
  signOut?(call: IntegrationCall): Promise<void>;
  /**
   * Calls the service once and says, in words, what was reached ("Home Assistant 2026.11").
   * Throws a ProblemError whose detail says what went wrong.
   */
  test(call: IntegrationCall): Promise<string>;
}

export function defineIntegrationServer(half: IntegrationKindServer): IntegrationKindServer {
  return half;
}

/**
 * The answer when it is a success; otherwise a 502 that says what its status means for a saved
 * connection (refused credentials, a wrong address, a redirect to follow by hand).
 */
export function answered(response: UpstreamResponse, label: string): UpstreamResponse {
  const { status } = response;
  if (status >= 200 && status <= 299) return response;
  const location = response.headers.get("location");
  if (status >= 300 && status <= 399 && location)
    throw upstreamFailed(`${label} redirects to ${location}: save that address instead`);
  if (status === 401 || status === 403)
    throw upstreamFailed(`${label} answered ${status}: the credentials were refused`);
  if (status === 404)
    throw upstreamFailed(`${label} answered 404: nothing is at this address (check the path)`);
  throw upstreamFailed(`${label} answered ${status}`);
}

/** The answer's JSON; a body that is not JSON (a sign-in page, a proxy's error page) is a 502 that says so. */
export function answeredJson(response: UpstreamResponse, label: string): unknown {
  const json = maybeJson(answered(response, label).text);
  if (json === undefined) {
    const type = response.headers.get("content-type")?.split(";")[0] ?? "no content type";
    throw upstreamFailed(`${label} answered ${response.status} but not with JSON (${type})`);
  }
  return json;
}
