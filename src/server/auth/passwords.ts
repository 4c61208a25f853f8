import { availableParallelism } from "node:os";
import { verifyPassword as verifyScrypt } from "better-auth/crypto";
import { and, eq } from "drizzle-orm";
import pLimit from "p-limit";
import type { Db } from "../db/client.js";
import { account } from "../db/schema.js";

/**
 * Argon2id at OWASP's first recommendation (Password Storage Cheat Sheet: 19 MiB, 2 passes, one
 * lane). better-auth's own scrypt (N=16384, r=16: 16 MiB) took 57 ms of CPU per hash on the
 * project's machine, this 9 ms, and is the stronger of the two by OWASP's measure (its scrypt
 * minimum is 128 MiB). Stated in the README; changing it here rehashes on each next sign-in.
 */
export const PASSWORD_HASH_COST = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
const CURRENT_PREFIX = `$argon2id$v=19$m=${PASSWORD_HASH_COST.memoryCost},t=${PASSWORD_HASH_COST.timeCost},p=${PASSWORD_HASH_COST.parallelism}$`;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(data: { hash: string; password: string }): Promise<boolean>;
  /** A stored hash made with an older scheme or cost: replaced after the next good sign-in. */
  outdated(stored: string): boolean;
}

/**
 * Hashes on libuv's thread pool (the native argon2 binding), at most `concurrency` at a time: a
 * burst of sign-ups queues here instead of taking every core from the event loop and the
 * database thread, so other requests keep their latency (bench:lean measures both).
 * Hashes from before (better-auth's `salt:key` scrypt) keep verifying.
 */
export function createPasswordHasher({
  concurrency = Math.max(1, availableParallelism() - 1),
}: {
  concurrency?: number;
} = {}): PasswordHasher {
  const limit = pLimit(concurrency);
  // Loaded with the first password, not with every restart.
  const argon2 = () => import("@node-rs/argon2");
  // NFKC as better-auth's scrypt did: the same password typed on another keyboard verifies.
  const normal = (password: string) => password.normalize("NFKC");
  return {
    hash: (password) =>
      limit(async () => {
        const { hash } = await argon2();
        // The binding's default algorithm is Argon2id (its enum is const, unusable here); the
        // prefix check in `outdated` would catch another.
        return hash(normal(password), PASSWORD_HASH_COST);
      }),
    verify: ({ hash: stored, password }) =>
      limit(async () => {
        if (!stored.startsWith("$argon2")) return verifyScrypt({ hash: stored, password });
        const { verify } = await argon2();
        // A stored value that is not a valid hash verifies nothing, as a wrong password.
        return verify(stored, normal(password)).catch(() => false);
      }),
    outdated: (stored) => !stored.startsWith(CURRENT_PREFIX),
  };
}

/**
 * After a good password sign-in: a hash from an older scheme or cost is replaced by a current one,
 * so accounts move to the current cost without a reset. Only the row still holding the old hash
 * is written (a password change racing this one wins).
 */
export async function upgradeStoredHash(db: Db, hasher: PasswordHasher, userId: string, password: string) {
  const owned = and(eq(account.userId, userId), eq(account.providerId, "credential"));
  const [row] = await db.select({ id: account.id, password: account.password }).from(account).where(owned);
  if (!row?.password || !hasher.outdated(row.password)) return;
  await db
    .update(account)
    .set({ password: await hasher.hash(password), updatedAt: new Date() })
    .where(and(eq(account.id, row.id), eq(account.password, row.password)));
}
