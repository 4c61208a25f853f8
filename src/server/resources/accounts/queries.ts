import { and, asc, eq, inArray } from "drizzle-orm";
import { PROVIDERS, type Provider } from "../../../contract/providers.js";
import type { Account } from "../../../contract/resources.js";
import type { TokenCipher } from "../../auth/token-cipher.js";
import type { Db } from "../../db/client.js";
import { iso, isoOrNull } from "../../db/json.js";
import { account } from "../../db/schema.js";

type Row = typeof account.$inferSelect;

/** Every field of the spec's Account, with the tokens always null: they never leave the server. */
export const toAccount = (row: Row): Account => ({
  id: row.id,
  accountId: row.accountId,
  providerId: row.providerId as Provider,
  userId: row.userId,
  accessToken: null,
  refreshToken: null,
  idToken: null,
  accessTokenExpiresAt: isoOrNull(row.accessTokenExpiresAt),
  refreshTokenExpiresAt: isoOrNull(row.refreshTokenExpiresAt),
  scope: row.scope,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

const ofProvider = (userId: string, provider: Provider) =>
  and(eq(account.userId, userId), eq(account.providerId, provider));

/** The user's connected OAuth accounts; the password credential is never listed. */
export async function listAccounts(db: Db, userId: string) {
  const rows = await db
    .select()
    .from(account)
    .where(and(eq(account.userId, userId), inArray(account.providerId, [...PROVIDERS])))
    .orderBy(asc(account.createdAt));
  return rows.map(toAccount);
}

export async function storeRefreshToken(
  db: Db,
  cipher: TokenCipher,
  userId: string,
  provider: Provider,
  refreshToken: string,
) {
  const [row] = await db
    .update(account)
    .set({ refreshToken: cipher.encrypt(refreshToken), updatedAt: new Date() })
    .where(ofProvider(userId, provider))
    .returning();
  return row ? toAccount(row) : null;
}

export async function unlinkAccount(db: Db, userId: string, provider: Provider) {
  const [row] = await db.delete(account).where(ofProvider(userId, provider)).returning();
  return row ? toAccount(row) : null;
}
