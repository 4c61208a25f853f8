import { and, eq, sql } from "drizzle-orm";
import type { Profile } from "../../contract/account.js";
import type { Auth } from "../auth/auth.js";
import type { Db } from "../db/client.js";
import { account, user } from "../db/schema.js";
import { notFound } from "../http/errors.js";
import { noPassword, wrongPassword } from "./problems.js";

/** better-auth's provider id of the email-and-password account. */
const CREDENTIAL = "credential";

/** The caller's own account as Settings › Profile shows it; the password's hash never leaves the query. */
export async function loadProfile(db: Db, userId: string): Promise<Profile> {
  const [row] = await db
    .select({
      id: user.id,
      name: user.name,
      email: user.email,
      emailVerified: user.emailVerified,
      image: user.image,
      hasPassword: sql<boolean>`${account.password} IS NOT NULL`.mapWith(Boolean),
    })
    .from(user)
    .leftJoin(account, and(eq(account.userId, user.id), eq(account.providerId, CREDENTIAL)))
    .where(eq(user.id, userId))
    .limit(1);
  if (!row) throw notFound("User");
  return { ...row, hasPassword: row.hasPassword === true };
}

/**
 * Throws unless `password` is the user's: 409 for an account without one (single sign-on only),
 * 400 for a wrong one. Checked with better-auth's own hasher, as sign-in checks it.
 */
export async function assertPassword(db: Db, auth: Auth, userId: string, password: string) {
  const [row] = await db
    .select({ hash: account.password })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, CREDENTIAL)))
    .limit(1);
  if (!row?.hash) throw noPassword();
  const { password: hasher } = await auth.$context;
  if (!(await hasher.verify({ hash: row.hash, password }))) throw wrongPassword();
}

/** Whether the user has a password to change (false: single sign-on only). */
export async function hasPassword(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ present: sql<boolean>`${account.password} IS NOT NULL`.mapWith(Boolean) })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, CREDENTIAL)))
    .limit(1);
  return row?.present === true;
}
