import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../config.js";
import { problemBody } from "../http/errors.js";
import type { RateLimitRule } from "../http/rate-limit.js";
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
}

/**
 * Mounts better-auth under /api/auth/* through its fetch handler, adding what it leaves to us:
 * brute-force limits shared across instances, problem+json errors, and cache invalidation when a
 * session ends.
 */
export async function authRoutes(app: FastifyInstance, { config, auth, sessions }: AuthRoutesOptions) {
  const origin = new URL(config.baseUrl).origin;
  const actionOf = (request: FastifyRequest) =>
    new URL(request.url, origin).pathname.slice("/api/auth".length);
  const attempt = (request: FastifyRequest) =>
    request.method === "POST" && BRUTE_FORCE_TARGETS.has(actionOf(request));
  const { authPerIp, authPerEmail, authWindowMs } = config.rateLimits;
  const detail = "Too many attempts; wait before trying again";
  const bruteForceLimits: RateLimitRule[] = [
    {
      name: "auth:ip",
      key: (request) => (attempt(request) ? request.ip : null),
      limit: authPerIp,
      windowMs: authWindowMs,
      detail,
    },
    {
      name: "auth:email",
      key: (request) => {
        const email = (request.body as { email?: unknown } | undefined)?.email;
        return actionOf(request) === "/sign-in/email" && attempt(request) && typeof email === "string"
          ? email.trim().toLowerCase()
          : null;
      },
      limit: authPerEmail,
      windowMs: authWindowMs,
      detail,
    },
  ];

  async function handle(request: FastifyRequest, reply: FastifyReply) {
    const url = new URL(request.url, origin);
    const action = url.pathname.slice("/api/auth".length);
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

  app.route({
    method: ["GET", "POST"],
    url: "/api/auth/*",
    schema: { hide: true },
    // better-auth judges its own requests; our part is the brute-force budget.
    config: { access: "public", rateLimit: bruteForceLimits },
    handler: handle,
  });
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
