import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ErrorCode } from "../../contract/errors.js";
import type { Config } from "../config.js";
import { badRequest, notFoundBecause, problemBody } from "../http/errors.js";
import type { RateLimitRule } from "../http/rate-limit.js";
import type { Auth } from "./auth.js";
import { assertSameOrigin } from "./plugin.js";
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
/** better-auth endpoints after which the user has no session left on the device that asked. */
const SIGNING_OUT = new Set(["/sign-out", "/revoke-sessions"]);
/** better-auth endpoints after which cached copies of the user (name, picture) are stale. */
const USER_CHANGING = new Set(["/update-user"]);
/**
 * better-auth endpoints the API serves elsewhere, with the checks these lack: the current password
 * for an email change, a per-user guessing budget, the picture's type and size.
 */
const SERVED_ELSEWHERE = new Map([
  ["/change-password", "POST /api/account/password"],
  ["/change-email", "POST /api/account/email"],
]);
/** Where better-auth would take a picture as given: only PUT /api/account/avatar checks one. */
const NO_IMAGE = new Set(["/update-user", "/sign-up/email"]);
const BRUTE_FORCE_TARGETS = new Set(["/sign-in/email", "/sign-up/email"]);
/**
 * Endpoints that start a round trip through a provider's page. better-auth checks the origin of
 * these only when a cookie comes along; a page on another site must not start one either (it
 * could sign a visitor in as someone of its choosing, or run the flow in their browser).
 */
const FLOW_STARTS = new Set(["/sign-in/social", "/link-social"]);
/** Answers that would hand page scripts the raw session token (the cookie is HttpOnly for that). */
const TOKEN_BEARING = new Set(["/get-session", "/list-sessions"]);
/** RFC 5321's limit on a forward path; nothing longer is an address anyone signs in with. */
const EMAIL_MAX = 254;
/** A limiter key stays small and says nothing of the address it counts. */
const keyOf = (...parts: string[]) => createHash("sha256").update(parts.join("\n")).digest("base64url");

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
  const { authPerIp, authPerEmail, authWindowMs, signupsPerHour } = config.rateLimits;
  const detail = "Too many attempts; wait before trying again";
  const emailOf = (request: FastifyRequest) => {
    const email = (request.body as { email?: unknown } | undefined)?.email;
    return typeof email === "string" ? email.trim().toLowerCase() : null;
  };
  const signIn = (request: FastifyRequest) => attempt(request) && actionOf(request) === "/sign-in/email";
  // Rules are spent in order and counting stops at the first refusal, so an address that is
  // already refused adds nothing to the per-email counters.
  const bruteForceLimits: RateLimitRule[] = [
    {
      name: "auth:ip",
      key: (request) => (attempt(request) ? keyOf(request.ip) : null),
      limit: authPerIp,
      windowMs: authWindowMs,
      detail,
    },
    {
      name: "auth:signup",
      key: (request) =>
        attempt(request) && actionOf(request) === "/sign-up/email" ? keyOf(request.ip) : null,
      // Tight, so the honest "already exists" answer cannot be used to list accounts (docs/api.md).
      limit: signupsPerHour,
      windowMs: 3_600_000,
      detail: "Too many sign-ups from this address; wait before trying again",
    },
    {
      // Per address and email: someone guessing from elsewhere cannot lock the owner out.
      name: "auth:email",
      key: (request) => {
        const email = emailOf(request);
        return signIn(request) && email ? keyOf(request.ip, email) : null;
      },
      limit: authPerEmail,
      windowMs: authWindowMs,
      detail,
    },
    {
      // Per email across all addresses, ten times looser: bounds guessing spread over many
      // addresses without letting a few of them lock the owner out.
      name: "auth:email-all",
      key: (request) => {
        const email = emailOf(request);
        return signIn(request) && email ? keyOf(email) : null;
      },
      limit: authPerEmail * 10,
      windowMs: authWindowMs,
      detail,
    },
  ];

  /** Before any limiter counts it: an oversized address is refused as it is, not stored as a key. */
  const boundEmail = async (request: FastifyRequest) => {
    if (!attempt(request)) return;
    const email = (request.body as { email?: unknown } | undefined)?.email;
    if (typeof email === "string" && email.length > EMAIL_MAX)
      throw badRequest(`email must be at most ${EMAIL_MAX} characters`, [
        { path: "/email", message: `must be at most ${EMAIL_MAX} characters` },
      ]);
  };

  async function handle(request: FastifyRequest, reply: FastifyReply) {
    const url = new URL(request.url, origin);
    const action = url.pathname.slice("/api/auth".length);
    const endingFor =
      SESSION_ENDING.has(action) || USER_CHANGING.has(action)
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

    if (endingFor && response.ok) {
      const userId = endingFor.user.id;
      if (SIGNING_OUT.has(action)) await sessions.signedOut(userId);
      if (USER_CHANGING.has(action)) await sessions.forgetUser(userId);
      else await sessions.revokeUser(userId);
    }

    reply.code(response.status);
    response.headers.forEach((value, name) => {
      if (!HOP_HEADERS.has(name)) reply.header(name, value);
    });
    for (const cookie of response.headers.getSetCookie()) reply.header("set-cookie", cookie);

    let text = await response.text();
    if (response.ok && TOKEN_BEARING.has(action)) text = withoutTokens(text);
    if (response.status >= 400)
      return reply.type("application/problem+json").send(toProblem(response.status, text));
    return reply.send(text);
  }

  app.route({
    method: ["GET", "POST"],
    url: "/api/auth/*",
    schema: { hide: true },
    // better-auth judges its own requests; ours are the brute-force budget and who may start a flow.
    config: { access: "public", rateLimit: bruteForceLimits },
    preValidation: async (request) => {
      const action = actionOf(request);
      const elsewhere = SERVED_ELSEWHERE.get(action);
      if (elsewhere) throw notFoundBecause(`Not served here: use ${elsewhere}`);
      if (NO_IMAGE.has(action) && (request.body as { image?: unknown } | undefined)?.image !== undefined)
        throw badRequest("The picture is set with PUT /api/account/avatar, which checks it", [
          { path: "/image", message: "is not accepted here" },
        ]);
      if (request.method === "POST" && FLOW_STARTS.has(action)) assertSameOrigin(request, origin);
      await boundEmail(request);
    },
    handler: handle,
  });
}

/** The session answers without their `token` fields: page scripts never see a usable credential. */
function withoutTokens(text: string): string {
  try {
    const body = JSON.parse(text) as unknown;
    const strip = (value: unknown) => {
      if (value && typeof value === "object" && "token" in value) delete (value as { token?: unknown }).token;
    };
    if (Array.isArray(body)) body.forEach(strip);
    else if (body && typeof body === "object") strip((body as { session?: unknown }).session);
    return JSON.stringify(body);
  } catch {
    return text;
  }
}

/** Codes our own hooks raise inside better-auth (sign-up control): passed through as they are. */
const OWN_CODES = new Set(["signup_disabled", "invite_required", "password_login_disabled"]);

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
  return problemBody(status, OWN_CODES.has(code) ? (code as ErrorCode) : `auth_${code}`, detail);
}
