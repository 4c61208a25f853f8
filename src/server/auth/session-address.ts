import { inArray } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Db } from "../db/client.js";
import { session } from "../db/schema.js";
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
 * Records the client address a session was created from, as this server resolved it
 * (`request.ip`: the socket's address, or X-Forwarded-For's client when TRUST_PROXY is on), the
 * same address the rate limits count. better-auth would take it from a header only, and without
 * TRUST_PROXY it reads none, so sessions showed no address; behind a proxy chain it refuses a
 * forwarded list. A session is new when an answer sets a session cookie other than the one the
 * request came with: a sign-in, a sign-up, single sign-on's callback, a password change. A
 * refreshed cookie (same token) keeps the address it was created from.
 */
export const sessionAddresses = fp<{ db: Db }>(
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
      db.update(session)
        .set({ ipAddress: request.ip })
        .where(inArray(session.token, created.map(storedSessionToken)))
        .then(
          () => done(null, payload),
          (error: unknown) => {
            // The sign-in itself succeeded; a missing address is not worth failing it for.
            request.log.warn({ err: error }, "could not record the new session's address");
            done(null, payload);
          },
        );
    });
  },
  { name: "tessera-session-addresses" },
);
