import { APIError } from "better-auth/api";
import { and, eq, gt, ne } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { PasswordChanged } from "../../contract/account.js";
import type { AppContext } from "../context.js";
import { session } from "../db/schema.js";
import { badRequest, unauthenticated } from "../http/errors.js";
import type { SessionActor } from "../policies/actor.js";
import { noPassword, wrongPassword } from "./problems.js";
import { hasPassword } from "./profile.js";

/** The request's headers as better-auth reads them (its session cookie or bearer token, the user agent). */
function headersOf(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === "content-length") continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

/** better-auth's refusals in the API's words; anything else is not the caller's fault and goes on. */
function refusal(error: unknown): unknown {
  if (!(error instanceof APIError)) return error;
  const code = (error.body as { code?: unknown } | undefined)?.code;
  if (code === "INVALID_PASSWORD") return wrongPassword();
  if (code === "CREDENTIAL_ACCOUNT_NOT_FOUND") return noPassword();
  if (code === "PASSWORD_TOO_SHORT" || code === "PASSWORD_TOO_LONG")
    return badRequest("The new password's length is outside the rules", [
      { path: "/newPassword", message: code === "PASSWORD_TOO_SHORT" ? "is too short" : "is too long" },
    ]);
  if (error.statusCode === 401) return unauthenticated();
  return error;
}

/**
 * Changes the caller's password with better-auth's /change-password, which checks the current
 * one with its hasher and the new one against its length rules. Every session of the user ends in
 * the same transaction, and this device gets a new one (its cookie comes back in `cookies`): a
 * session someone else may have copied does not outlive the change either. Cached sessions are
 * then dropped on every instance, so the ended ones get 401 at once everywhere.
 */
export async function changePassword(
  ctx: AppContext,
  request: FastifyRequest,
  body: { currentPassword: string; newPassword: string },
): Promise<PasswordChanged & { cookies: string[] }> {
  const userId = request.user.id;
  // Before better-auth, which would judge the new password's length first and answer that instead.
  if (!(await hasPassword(ctx.database.db, userId))) throw noPassword();
  const current = (request.actor as SessionActor).session.id;
  const others = await ctx.database.db.$count(
    session,
    and(eq(session.userId, userId), ne(session.id, current), gt(session.expiresAt, new Date())),
  );
  let headers: Headers;
  try {
    ({ headers } = await ctx.auth.api.changePassword({
      body: { ...body, revokeOtherSessions: true },
      headers: headersOf(request),
      returnHeaders: true,
    }));
  } catch (error) {
    throw refusal(error);
  }
  await ctx.sessions.revokeUser(userId);
  return { signedOut: others, cookies: headers.getSetCookie() };
}
