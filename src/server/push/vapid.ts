import { eq } from "drizzle-orm";
import type { TokenCipher } from "../auth/token-cipher.js";
import type { PushConfig } from "../config.js";
import type { Db } from "../db/client.js";
import { vapidKeys } from "../db/schema.js";

/** The VAPID identity this deployment signs pushes with (RFC 8292). */
export interface VapidIdentity {
  /** base64url, 65 bytes: what browsers pass to pushManager.subscribe as applicationServerKey. */
  publicKey: string;
  /** base64url, 32 bytes. Never leaves the server. */
  privateKey: string;
  subject: string;
}

const ROW_ID = 1;

/**
 * The operator's keys when configured; otherwise a pair generated once and kept in the database.
 *
 * Why the database and not a file under DATA_DIR (as DESIGN section 11 first said): instances on
 * one PostgreSQL do not share a disk. Each would generate its own pair, and a browser subscribed
 * with one instance's public key would be refused (401/403) by its push service when another
 * instance signs. One row, inserted by whoever comes first (ON CONFLICT DO NOTHING) and then read
 * by all, gives every instance the same pair; the embedded database lives under DATA_DIR anyway.
 * The private key is stored encrypted with the token key, like OAuth tokens.
 */
export async function loadVapidIdentity(
  db: Db,
  config: PushConfig,
  cipher: TokenCipher,
): Promise<VapidIdentity> {
  const subject = config.vapidSubject;
  if (config.vapidPublicKey && config.vapidPrivateKey)
    return { publicKey: config.vapidPublicKey, privateKey: config.vapidPrivateKey, subject };
  const [row] = await db.select().from(vapidKeys).where(eq(vapidKeys.id, ROW_ID));
  if (row) return { publicKey: row.publicKey, privateKey: cipher.decrypt(row.privateKey), subject };
  // Loaded only here and when sending: an instance nobody subscribes on never loads it (idle memory).
  const { default: webpush } = await import("web-push");
  const generated = webpush.generateVAPIDKeys();
  await db
    .insert(vapidKeys)
    .values({ id: ROW_ID, publicKey: generated.publicKey, privateKey: cipher.encrypt(generated.privateKey) })
    .onConflictDoNothing();
  const [kept] = await db.select().from(vapidKeys).where(eq(vapidKeys.id, ROW_ID));
  if (!kept) throw new Error("the VAPID key row is missing right after it was written");
  return { publicKey: kept.publicKey, privateKey: cipher.decrypt(kept.privateKey), subject };
}

/** Loads the identity once per app instance, on first use; a failed load is tried again next time. */
export function vapidIdentity(load: () => Promise<VapidIdentity>): () => Promise<VapidIdentity> {
  let loading: Promise<VapidIdentity> | null = null;
  return () => {
    if (!loading) {
      const attempt = load();
      loading = attempt;
      attempt.catch(() => {
        if (loading === attempt) loading = null;
      });
    }
    return loading;
  };
}
