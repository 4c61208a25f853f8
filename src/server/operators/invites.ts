import { createHash, randomBytes } from "node:crypto";
import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { INVITE_HOURS_DEFAULT, type Invite, type Role } from "../../contract/operators.js";
import type { Db } from "../db/client.js";
import { invites } from "../db/schema.js";

/** Only this is stored: a leaked database does not hand out sign-ups. */
export const hashInviteToken = (token: string) => createHash("sha256").update(token).digest("base64url");

/** Why an invite does not admit someone, in words for the sign-up page. */
export type InviteRefusal = "unknown" | "used" | "expired" | "other_email";

const INVITE_REFUSALS: Record<Exclude<InviteRefusal, "other_email">, string> = {
  unknown: "This invite link is not valid; ask for a new one",
  used: "This invite has already been used; ask for a new one",
  expired: "This invite has expired; ask for a new one",
};

/**
 * The refusal's words. A wrong address is told the right one in full: whoever holds the link can
 * read it from the invite lookup anyway (the sign-up page fills it in), so hiding it here would
 * only leave the person guessing which of their addresses the admin used.
 */
export function inviteRefusalText(why: InviteRefusal, boundEmail: string | null): string {
  if (why === "other_email") return `This invite is for another email address: ${boundEmail}`;
  return INVITE_REFUSALS[why];
}

const emailMatches = (bound: string | null, email: string) =>
  bound === null || bound.toLowerCase() === email.toLowerCase();

export async function createInvite(
  db: Db,
  input: { email?: string; role?: Role; expiresInHours?: number; createdBy: string; now: number },
) {
  const token = randomBytes(24).toString("base64url");
  const [row] = await db
    .insert(invites)
    .values({
      id: uuidv7(),
      tokenHash: hashInviteToken(token),
      email: input.email?.toLowerCase() ?? null,
      role: input.role ?? "member",
      createdBy: input.createdBy,
      expiresAt: new Date(input.now + (input.expiresInHours ?? INVITE_HOURS_DEFAULT) * 3_600_000),
    })
    .returning();
  return { token, invite: presentInvite(row!) };
}

/** Invites that can still be used, oldest first. */
export async function openInvites(db: Db, now: number): Promise<Invite[]> {
  const rows = await db
    .select()
    .from(invites)
    .where(and(isNull(invites.usedAt), gt(invites.expiresAt, new Date(now))))
    .orderBy(asc(invites.createdAt));
  return rows.map(presentInvite);
}

/** Whether the invite was there to revoke (a used one is history and stays). */
export async function revokeInvite(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .delete(invites)
    .where(and(eq(invites.id, id), isNull(invites.usedAt)))
    .returning({ id: invites.id });
  return rows.length > 0;
}

async function inviteByToken(db: Db, token: string) {
  const [row] = await db
    .select()
    .from(invites)
    .where(eq(invites.tokenHash, hashInviteToken(token)))
    .limit(1);
  return row;
}

/** Why the invite would not admit `email` now (in words), or null when it would. Reads only. */
export async function inviteRefusal(db: Db, token: string, email: string, now: number) {
  const row = await inviteByToken(db, token);
  const why: InviteRefusal | null = !row
    ? "unknown"
    : row.usedAt
      ? "used"
      : row.expiresAt.getTime() <= now
        ? "expired"
        : !emailMatches(row.email, email)
          ? "other_email"
          : null;
  return why ? inviteRefusalText(why, row?.email ?? null) : null;
}

export type InviteStatus = "open" | "used" | "expired" | "unknown";

/**
 * What the sign-up page needs of an invite before anyone types: whether it can still be used, and
 * the address it is bound to (only while it can be, so a spent link says nothing of whom it let in).
 */
export async function lookUpInvite(
  db: Db,
  token: string,
  now: number,
): Promise<{ status: InviteStatus; email: string | null }> {
  const row = await inviteByToken(db, token);
  if (!row) return { status: "unknown", email: null };
  if (row.usedAt) return { status: "used", email: null };
  if (row.expiresAt.getTime() <= now) return { status: "expired", email: null };
  return { status: "open", email: row.email };
}

/**
 * Spends the invite for `email`: one conditional UPDATE, so of two sign-ups racing with one
 * invite exactly one gets it. Returns the role it grants and whether it was bound to that email
 * (the admin who made it vouched for the address), or null when it admits nobody now.
 */
export async function spendInvite(
  db: Db,
  token: string,
  email: string,
  now: number,
): Promise<{ role: Role; forEmail: boolean } | null> {
  const [row] = await db
    .update(invites)
    .set({ usedAt: new Date(now) })
    .where(
      and(
        eq(invites.tokenHash, hashInviteToken(token)),
        isNull(invites.usedAt),
        gt(invites.expiresAt, new Date(now)),
        sql`(${invites.email} IS NULL OR ${invites.email} = lower(${email}))`,
      ),
    )
    .returning({ role: invites.role, email: invites.email });
  return row ? { role: row.role as Role, forEmail: row.email !== null } : null;
}

/** Records who an invite admitted, once their account exists. */
export async function markInviteUsedBy(db: Db, token: string, userId: string) {
  await db
    .update(invites)
    .set({ usedBy: userId })
    .where(eq(invites.tokenHash, hashInviteToken(token)));
}

function presentInvite(row: typeof invites.$inferSelect): Invite {
  return {
    id: row.id,
    email: row.email,
    role: row.role as Role,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}
