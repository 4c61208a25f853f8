import { isIP } from "node:net";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import ipaddr from "ipaddr.js";
import { uuidv7 } from "uuidv7";
import {
  AUTH_BYTES,
  type CreatePushSubscription,
  P256DH_BYTES,
  PUSH_SUBSCRIPTIONS_PER_USER,
  type PushSubscriptionView,
} from "../../contract/push.js";
import type { Db } from "../db/client.js";
import { pushSubscriptions } from "../db/schema.js";
import { addressNotAllowed, badRequest, unauthenticated } from "../http/errors.js";
import { isForeignKeyViolation } from "../http/validation.js";
import { isPublicAddress, type parseAllowList } from "../upstream/address-guard.js";

type Row = typeof pushSubscriptions.$inferSelect;
type AllowList = ReturnType<typeof parseAllowList>;

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, "").toLowerCase();

const isLoopback = (hostname: string) => {
  const host = bare(hostname);
  return host === "localhost" || (ipaddr.isValid(host) && ipaddr.parse(host).range() === "loopback");
};

/**
 * Whether the endpoint's host is one the delivery's address guard would refuse, judged as the
 * guard judges it (src/server/upstream/address-guard.ts): an address written in the URL must be
 * public or inside a FETCH_ALLOW_PRIVATE network; a name FETCH_ALLOW_PRIVATE lists passes. Names
 * are not looked up here (the guard checks what they resolve to at every send), except the
 * `localhost` names, which always mean this machine (RFC 6761).
 */
function refusedHost(hostname: string, allow: AllowList): boolean {
  const host = bare(hostname);
  if (allow.hosts.has(host)) return false;
  const allowed = (ip: string) => {
    if (isPublicAddress(ip)) return true;
    const address = ipaddr.parse(ip);
    return allow.networks.some(
      ([network, bits]) => network.kind() === address.kind() && address.match(network, bits),
    );
  };
  const name = host.replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return !["127.0.0.1", "::1"].some(allowed);
  return isIP(host) !== 0 && !allowed(host);
}

/**
 * Checks what the browser sent beyond its JSON shape: the endpoint is an https URL (browsers only
 * hand out those; http is accepted on loopback when `allowInsecure`, for local fake push services),
 * and the keys decode to the sizes RFC 8291 fixes. Every problem is reported, nothing is written.
 * An endpoint on a private, loopback or link-local address is refused (400 `address_not_allowed`)
 * unless FETCH_ALLOW_PRIVATE names it: every push to it would be refused anyway, and the server
 * would be sending requests of a client's choosing into its own network.
 */
export function checkSubscription(body: CreatePushSubscription, allowInsecure: boolean, allow: AllowList) {
  const errors: { path: string; message: string }[] = [];
  let url: URL | null = null;
  try {
    url = new URL(body.endpoint);
  } catch {
    errors.push({ path: "/endpoint", message: "must be an absolute URL" });
  }
  if (url) {
    const insecureOk = allowInsecure && url.protocol === "http:" && isLoopback(url.hostname);
    if (url.protocol !== "https:" && !insecureOk)
      errors.push({ path: "/endpoint", message: "must be an https URL" });
    if (url.username || url.password)
      errors.push({ path: "/endpoint", message: "must not carry credentials" });
  }
  const decoded = (value: string) => Buffer.from(value.replace(/=+$/, ""), "base64url");
  const p256dh = decoded(body.keys.p256dh);
  if (p256dh.length !== P256DH_BYTES || p256dh[0] !== 0x04)
    errors.push({
      path: "/keys/p256dh",
      message: `must be an uncompressed P-256 public key (${P256DH_BYTES} bytes)`,
    });
  if (decoded(body.keys.auth).length !== AUTH_BYTES)
    errors.push({ path: "/keys/auth", message: `must be ${AUTH_BYTES} bytes` });
  if (errors.length > 0) throw badRequest("The push subscription is not valid", errors);
  if (url && refusedHost(url.hostname, allow))
    throw addressNotAllowed(
      `${bare(url.hostname)} is a private, loopback or link-local address; push endpoints there are refused unless FETCH_ALLOW_PRIVATE names it`,
    );
}

/** Only the push service's origin: the rest of an endpoint is a capability, as good as a secret. */
export const endpointOrigin = (endpoint: string) => {
  try {
    return new URL(endpoint).origin;
  } catch {
    return "invalid";
  }
};

export const viewOf = (row: Row): PushSubscriptionView => ({
  id: row.id,
  service: endpointOrigin(row.endpoint),
  userAgent: row.userAgent,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/**
 * Saves the subscription for the user, bound to the session that sent it: new (created) or the
 * same endpoint again (its keys updated; taken over when another user or sign-in had it, as the
 * browser profile now belongs to this one). The session's end deletes it (the foreign key).
 * A user holding more than the limit loses the oldest, so a script cannot fill the table.
 */
export async function saveSubscription(
  db: Db,
  { userId, sessionId }: { userId: string; sessionId: string },
  body: CreatePushSubscription,
  userAgent: string | null,
): Promise<{ created: boolean; row: Row }> {
  const id = uuidv7();
  let row: Row | undefined;
  try {
    [row] = await db
      .insert(pushSubscriptions)
      .values({
        id,
        userId,
        sessionId,
        endpoint: body.endpoint,
        p256dh: body.keys.p256dh,
        auth: body.keys.auth,
        userAgent,
      })
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: {
          userId,
          sessionId,
          p256dh: body.keys.p256dh,
          auth: body.keys.auth,
          userAgent,
          updatedAt: sql`now()`,
        },
      })
      .returning();
  } catch (error) {
    // The session ended after it was resolved (signed out on another device, or from another
    // instance while this one's cache still held it): nothing may outlive it.
    if (isForeignKeyViolation(error)) throw unauthenticated();
    throw error;
  }
  const owned = await db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.updatedAt), asc(pushSubscriptions.id));
  const excess = owned.length - PUSH_SUBSCRIPTIONS_PER_USER;
  if (excess > 0)
    await db.delete(pushSubscriptions).where(
      inArray(
        pushSubscriptions.id,
        owned.slice(0, excess).map((o) => o.id),
      ),
    );
  return { created: row!.id === id, row: row! };
}

export async function listSubscriptions(db: Db, userId: string): Promise<Row[]> {
  return db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.createdAt), asc(pushSubscriptions.id));
}

/** Deletes the caller's own subscription with that endpoint; false when there is none. */
export async function deleteSubscription(db: Db, userId: string, endpoint: string): Promise<boolean> {
  const gone = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  return gone.length > 0;
}
