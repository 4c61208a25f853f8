import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../config.js";
import { ProblemError, problemBody } from "../http/errors.js";
import type { RateLimiter } from "../ratelimit/limiter.js";
import type { Auth } from "./auth.js";
import type { SessionResolver } from "./sessions.js";

/** better-auth endpoints after which the caller's cached sessions must be forgotten everywhere. */
const SESSION_ENDING = new Set([
  "/sign-out",
  "/revoke-session",
  "/revoke-sessions",
  "/revoke-other-sessions",
  "/change-password",
  "/delete-user",
]);
const BRUTE_FORCE_TARGETS = new Set(["/sign-in/email", "/sign-up/email"]);
const HOP_HEADERS = new Set([
  "content-length",
  "transfer-encoding",
  "content-encoding",
  "connection",
  "set-cookie",
]);

export interface AuthRoutesOptions {
  config: Config;
  auth: Auth;
  sessions: SessionResolver;
  limiter: RateLimiter;
}

/**
 * Mounts better-auth under /api/auth/* through its fetch handler, adding what it leaves to us:
 * brute-force limits shared across instances, problem+json errors, and cache invalidation when a
 * session ends.
 */
export async function authRoutes(
  app: FastifyInstance,
  { config, auth, sessions, limiter }: AuthRoutesOptions,
) {
  const origin = new URL(config.baseUrl).origin;

  async function handle(request: FastifyRequest, reply: FastifyReply) {
    const url = new URL(request.url, origin);
    const action = url.pathname.slice("/api/auth".length);

    if (request.method === "POST" && BRUTE_FORCE_TARGETS.has(action) && config.rateLimitEnabled) {
      await limitAttempts(request, action);
    }
    const endingFor = SESSION_ENDING.has(action)
      ? await sessions.resolve({
          cookie: request.headers.cookie,
          authorization: request.headers.authorization,
        })
      : null;

    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined || name === "content-length") continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
    }
    const hasBody = request.method !== "GET" && request.method !== "HEAD" && request.body !== undefined;
    const response = await auth.handler(
      new Request(url, {
        method: request.method,
        headers,
        body: hasBody ? JSON.stringify(request.body) : undefined,
      }),
    );

    if (endingFor && response.ok) await sessions.revokeUser(endingFor.user.id);

    reply.code(response.status);
    response.headers.forEach((value, name) => {
      if (!HOP_HEADERS.has(name)) reply.header(name, value);
    });
    for (const cookie of response.headers.getSetCookie()) reply.header("set-cookie", cookie);

    const text = await response.text();
    if (response.status >= 400)
      return reply.type("application/problem+json").send(toProblem(response.status, text));
    return reply.send(text);
  }

  async function limitAttempts(request: FastifyRequest, action: string) {
    const { authPerIp, authPerEmail, authWindowMs } = config.rateLimits;
    const byIp = await limiter.hit(`auth:ip:${request.ip}`, authPerIp, authWindowMs);
    const email = (request.body as { email?: unknown } | undefined)?.email;
    const byEmail =
      action === "/sign-in/email" && typeof email === "string"
        ? await limiter.hit(`auth:email:${email.trim().toLowerCase()}`, authPerEmail, authWindowMs)
        : { allowed: true, retryAfterMs: 0 };
    if (!byIp.allowed || !byEmail.allowed) {
      throw new ProblemError(429, "rate_limited", "Too many attempts; wait before trying again", {
        retryAfterSeconds: Math.max(byIp.retryAfterMs, byEmail.retryAfterMs) / 1000,
      });
    }
  }

  app.route({ method: ["GET", "POST"], url: "/api/auth/*", schema: { hide: true }, handler: handle });
}

/** better-auth answers `{code, message}`; the API answers problem+json everywhere. */
function toProblem(status: number, text: string) {
  let code = "request_failed";
  let detail = text || "The authentication request failed";
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown };
    if (typeof body.code === "string") code = body.code.toLowerCase();
    if (typeof body.message === "string") detail = body.message;
  } catch {
    // Not JSON: keep the text as the detail.
  }
  return problemBody(status, `auth_${code}`, detail);
}
