import { and, eq, ne, sql } from "drizzle-orm";
import type { Profile } from "../../contract/account.js";
import type { AppContext } from "../context.js";
import { user } from "../db/schema.js";
import { badRequest } from "../http/errors.js";
import { emailTaken } from "./problems.js";
import { assertPassword, loadProfile } from "./profile.js";

/** PostgreSQL's unique_violation, wherever the driver (pg, PGlite, drizzle's wrapper) puts the code. */
function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause)
    if ((e as { code?: unknown }).code === "23505") return true;
  return false;
}

/**
 * Moves the caller's account to another email address, once they proved it is them with the
 * password (better-auth's /change-email asks for none, and is not served). Addresses compare
 * without regard to case, as sign-in does (better-auth keeps them lower-case).
 *
 * The new address is unverified (`emailVerified` false) until something proves it again: single
 * sign-on links an account to a matching identity only when both sides proved the address
 * (auth/auth.ts), so taking over someone's address here must not let their identity-provider
 * login land in this account. A link already made (Settings › Sessions) stays: it is kept by the
 * provider's subject, not by email.
 */
export async function changeEmail(
  ctx: AppContext,
  userId: string,
  body: { newEmail: string; currentPassword: string },
): Promise<Profile> {
  const { db } = ctx.database;
  const email = body.newEmail.trim().toLowerCase();
  await assertPassword(db, ctx.auth, userId, body.currentPassword);
  try {
    await db.transaction(async (tx) => {
      const [me] = await tx.select({ email: user.email }).from(user).where(eq(user.id, userId)).limit(1);
      if (me && me.email.toLowerCase() === email)
        throw badRequest("That is already this account's email address", [
          { path: "/newEmail", message: "is the current address" },
        ]);
      const [taken] = await tx
        .select({ id: user.id })
        .from(user)
        .where(and(sql`lower(${user.email}) = ${email}`, ne(user.id, userId)))
        .limit(1);
      if (taken) throw emailTaken();
      await tx
        .update(user)
        .set({ email, emailVerified: false, updatedAt: new Date() })
        .where(eq(user.id, userId));
    });
  } catch (error) {
    // Two accounts asking for the same address at once: the unique index lets one through.
    throw isUniqueViolation(error) ? emailTaken() : error;
  }
  await ctx.sessions.forgetUser(userId);
  return loadProfile(db, userId);
}
