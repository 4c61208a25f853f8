import type { FastifyReply, FastifyRequest } from "fastify";
import type { SessionResolver, SessionUser } from "../auth/sessions.js";
import { ProblemError, unauthenticated } from "./errors.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in user; set by the `authenticate` guard, so handlers behind it can rely on it. */
    user: SessionUser;
  }
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The one guard every protected route runs: it resolves the session (401 without one) and, for
 * state-changing requests that ride on the cookie, rejects other origins (403), so a third-party
 * page cannot act for a signed-in user.
 */
export function createAuthenticate(sessions: SessionResolver, allowedOrigin: string) {
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply) {
    const headers = request.headers;
    if (!SAFE_METHODS.has(request.method) && !headers.authorization && headers.cookie) {
      assertSameOrigin(request, allowedOrigin);
    }
    const resolved = await sessions.resolve({
      cookie: headers.cookie,
      authorization: headers.authorization,
    });
    if (!resolved) throw unauthenticated();
    request.user = resolved.user;
  };
}

export function assertSameOrigin(request: FastifyRequest, allowedOrigin: string) {
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== allowedOrigin) {
    throw new ProblemError(403, "cross_site_request", `Requests from ${origin} are not accepted`);
  }
  const fetchSite = request.headers["sec-fetch-site"];
  if (origin === undefined && fetchSite === "cross-site") {
    throw new ProblemError(403, "cross_site_request", "Cross-site requests are not accepted");
  }
}
