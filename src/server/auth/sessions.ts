import {
  createHash,
  createHmac,
  createSecretKey,
  type KeyObject,
  randomBytes,
  timingSafeEqual,
} from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import type { Role } from "../../contract/operators.js";
import type { SessionUser } from "../../contract/session.js";
import type { Db } from "../db/client.js";
import { session, user } from "../db/schema.js";
import type { EventBus } from "../realtime/bus.js";
import { SESSION_COOKIE } from "./auth.js";
import { storedSessionToken } from "./hashed-sessions.js";

export interface ResolvedSession {
  sessionId: string;
  user: SessionUser;
  role: Role;
  expiresAt: number;
}

interface CacheEntry extends ResolvedSession {
  cachedAt: number;
}

/** Internal bus channel on which instances tell each other to forget a user's cached sessions. */
const REVOKE_CHANNEL = "internal:sessions-revoked";
const MAX_ENTRIES = 50_000;

/**
 * Resolves the session behind a request without a database round trip on every call: the
 * cookie signature is checked locally, and sessions found are cached for a short while. When a
 * session ends (sign-out, revocation), every instance is told through the bus to drop it, so the
 * cache is a speed-up, not a way around sign-out.
 */
export class SessionResolver {
  private readonly cache = new Map<string, CacheEntry>();
  private unsubscribe: (() => void) | null = null;
  private stopped = false;
  private readonly revokedListeners = new Set<(userId: string) => void>();
  private readonly key: KeyObject;

  constructor(
    private readonly db: Db,
    secret: string,
    private readonly bus: EventBus,
    private readonly ttlMs: number,
  ) {
    this.key = createSecretKey(Buffer.from(secret, "utf8"));
  }

  /**
   * Listens for revocations from other instances. Not awaited by start-up: a bus whose backend is
   * down (Redis restarting) must not keep the app from serving; the subscription goes live when it
   * comes back, and until then the cache TTL bounds how stale a revoked session can be.
   */
  start() {
    this.bus
      .subscribe(REVOKE_CHANNEL, (message) => {
        const { userId, changed } = (message.data ?? {}) as { userId?: unknown; changed?: unknown };
        if (typeof userId === "string") this.revoked(userId, changed !== true);
      })
      .then(
        (unsubscribe) => {
          if (this.stopped) unsubscribe();
          else this.unsubscribe = unsubscribe;
        },
        () => {},
      );
  }

  stop() {
    this.stopped = true;
    this.unsubscribe?.();
    this.cache.clear();
    this.revokedListeners.clear();
  }

  /**
   * A cached session is found by what the request presents (a hash of it), before any signature
   * check: the entry was made only after that exact value's signature and session were verified,
   * so a hit costs one hash, not an HMAC as well (the HMAC was 5% of the main thread under load).
   */
  async resolve(headers: { cookie?: string; authorization?: string }): Promise<ResolvedSession | null> {
    const presented = presentedCredential(headers);
    if (!presented || presented.length > MAX_CREDENTIAL_LENGTH) return null;
    const key = hashToken(presented);
    const now = Date.now();
    const hit = this.cache.get(key);
    if (hit && now - hit.cachedAt < this.ttlMs && hit.expiresAt > now) return hit;
    if (hit) this.cache.delete(key);

    const token = this.tokenOf(presented);
    if (!token || token.length > 256) return null;
    const row = await this.lookup(token, now);
    if (!row) return null;
    const entry: CacheEntry = {
      sessionId: row.sessionId,
      expiresAt: row.expiresAt.getTime(),
      user: { id: row.id, name: row.name, email: row.email, image: row.image },
      role: row.role === "admin" ? "admin" : "member",
      cachedAt: now,
    };
    if (this.ttlMs > 0) {
      if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(key, entry);
    }
    return entry;
  }

  /**
   * The session lookup once with a token no session has, right after listening: the database's
   * first run of it (its tables' and indexes' catalog entries) is then not a user's to wait for.
   */
  async warm() {
    await this.lookup(randomBytes(24).toString("base64url"), Date.now());
  }

  private async lookup(token: string, now: number) {
    const [row] = await this.db
      .select({
        sessionId: session.id,
        expiresAt: session.expiresAt,
        id: user.id,
        name: user.name,
        email: user.email,
        image: user.image,
        role: user.role,
      })
      .from(session)
      .innerJoin(user, eq(user.id, session.userId))
      // Disabling a user deletes their sessions; the banned check holds even if one were missed.
      .where(
        and(
          eq(session.token, storedSessionToken(token)),
          gt(session.expiresAt, new Date(now)),
          eq(user.banned, false),
        ),
      )
      .limit(1);
    return row;
  }

  /**
   * Calls `listener` with a user id whenever some of that user's sessions ended, on this instance
   * or another (open realtime streams use it to re-check their session).
   */
  onRevoked(listener: (userId: string) => void): () => void {
    this.revokedListeners.add(listener);
    return () => this.revokedListeners.delete(listener);
  }

  /** Forget the user's cached sessions here and on every other instance. */
  async revokeUser(userId: string) {
    this.revoked(userId, true);
    await this.bus.publish(REVOKE_CHANNEL, { event: "sessions.revoked", data: { userId } });
  }

  /**
   * The user's name, email or picture changed: cached copies are dropped everywhere, so /api/me
   * says the new ones at once. Their sessions stay; open streams are not asked to re-check.
   */
  async forgetUser(userId: string) {
    this.revoked(userId, false);
    await this.bus.publish(REVOKE_CHANNEL, { event: "sessions.revoked", data: { userId, changed: true } });
  }

  /**
   * A user signed out: the moment is kept as when they were last active, since the session that
   * said so is gone (the admin's users table would otherwise show "Never" for them).
   */
  async signedOut(userId: string) {
    await this.db
      .update(user)
      .set({ lastActiveAt: sql`greatest(${user.lastActiveAt}, ${new Date().toISOString()}::timestamptz)` })
      .where(eq(user.id, userId));
  }

  private revoked(userId: string, ended: boolean) {
    for (const [key, entry] of this.cache) if (entry.user.id === userId) this.cache.delete(key);
    if (ended) for (const listener of this.revokedListeners) listener(userId);
  }

  /** The raw session token: a signed value (every cookie, some bearers) only if its signature holds. */
  private tokenOf(presented: string): string | null {
    if (presented.startsWith("bearer:")) {
      const value = presented.slice(7);
      return value.includes(".") ? this.verifySigned(value) : value;
    }
    return this.verifySigned(presented.slice(7));
  }

  /** better-auth signs cookies as `token.base64(HMAC-SHA256(secret, token))`. */
  private verifySigned(value: string): string | null {
    const dot = value.lastIndexOf(".");
    if (dot < 1) return null;
    const token = value.slice(0, dot);
    const signature = Buffer.from(value.slice(dot + 1), "base64");
    const expected = createHmac("sha256", this.key).update(token).digest();
    if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) return null;
    return token;
  }
}

/** A signed token is at most 256 characters, its signature 44, and the kind's prefix 7. */
const MAX_CREDENTIAL_LENGTH = 256 + 1 + 44 + 7;

/**
 * What the request presents, unverified, prefixed by where it came from (a bearer header may
 * carry an unsigned token, a cookie may not): `bearer:<value>` or `cookie:<decoded value>`.
 */
function presentedCredential(headers: { cookie?: string; authorization?: string }): string | null {
  const auth = headers.authorization;
  if (auth?.startsWith("Bearer ")) {
    const value = auth.slice(7).trim();
    return value ? `bearer:${value}` : null;
  }
  const cookie = headers.cookie;
  if (!cookie) return null;
  const raw = readCookie(cookie, SESSION_COOKIE);
  if (!raw) return null;
  try {
    return `cookie:${decodeURIComponent(raw)}`;
  } catch {
    return null;
  }
}

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

export function readCookie(header: string, name: string): string | null {
  for (const part of header.split(";")) {
    const eqAt = part.indexOf("=");
    if (eqAt < 0) continue;
    if (part.slice(0, eqAt).trim() === name) return part.slice(eqAt + 1).trim();
  }
  return null;
}
