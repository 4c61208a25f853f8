import { and, inArray, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Db } from "../db/client.js";
import { session, user } from "../db/schema.js";
import { browserLanguages } from "../i18n/browser-languages.js";
import { SESSION_COOKIE } from "./auth.js";
import { storedSessionToken } from "./hashed-sessions.js";
import { readCookie } from "./sessions.js";

/** The raw token a `session=<token>.<signature>` cookie value carries, or null for none or a cleared one. */
export function cookieToken(value: string | undefined): string | null {
  if (!value) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return null;
  }
  const dot = decoded.lastIndexOf(".");
  return dot > 0 ? decoded.slice(0, dot) : null;
}

/** The session token a Set-Cookie header sets, if it sets ours to a value. */
function setToken(header: string): string | null {
  const prefix = `${SESSION_COOKIE}=`;
  if (!header.startsWith(prefix)) return null;
  return cookieToken(header.slice(prefix.length).split(";")[0]);
}

/**
 * Records where a new session comes from:
 * - the client address, as this server resolved it (`request.ip`: the socket's address, or
 *   X-Forwarded-For's client when TRUST_PROXY is on), the same address the rate limits count.
 *   better-auth would take it from a header only, and without TRUST_PROXY it reads none, so
 *   sessions showed no address; behind a proxy chain it refuses a forwarded list;
 * - the browser's languages (Accept-Language) on the person, so the texts the server writes to
 *   them later (reminders, alerts) are in their language when they chose none in settings.
 * A session is new when an answer sets a session cookie other than the one the request came with:
 * a sign-in, a sign-up, single sign-on's callback, a password change. A refreshed cookie (same
 * token) keeps what it was created with.
 */
export const sessionOrigins = fp<{ db: Db }>(
  async (app: FastifyInstance, { db }) => {
    // Callback style: the answers that set no cookie (nearly all) pass without a promise.
    app.addHook("onSend", (request, reply, payload, done) => {
      const header = reply.getHeader("set-cookie");
      if (header === undefined) return done(null, payload);
      const sent = request.headers.cookie;
      const presented = sent ? cookieToken(readCookie(sent, SESSION_COOKIE) ?? undefined) : null;
      const created = (Array.isArray(header) ? header : [String(header)])
        .map(setToken)
        .filter((token): token is string => token !== null && token !== presented);
      if (created.length === 0) return done(null, payload);
      const tokens = created.map(storedSessionToken);
      const languages = browserLanguages(request.headers["accept-language"]);
      db.update(session)
        .set({ ipAddress: request.ip })
        .where(inArray(session.token, tokens))
        .then(async () => {
          if (languages === null) return;
          await db
            .update(user)
            .set({ languages })
            .where(
              and(
                inArray(
                  user.id,
                  db.select({ id: session.userId }).from(session).where(inArray(session.token, tokens)),
                ),
                sql`${user.languages} IS DISTINCT FROM ${languages}`,
              ),
            );
        })
        .then(
          () => done(null, payload),
          (error: unknown) => {
            // The sign-in itself succeeded; a missing address or language is not worth failing it for.
            request.log.warn({ err: error }, "could not record where the new session comes from");
            done(null, payload);
          },
        );
    });
  },
  { name: "tessera-session-origins" },
);
