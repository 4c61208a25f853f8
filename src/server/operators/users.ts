import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { AdminUser, Role } from "../../contract/operators.js";
import type { Db } from "../db/client.js";
import { apikey, session, user } from "../db/schema.js";
import { lastAdmin, notFound } from "../http/errors.js";

/**
 * The instance's users as admins manage them (DESIGN section 8). Every change that could leave
 * the instance without an admin runs under one lock, so two admins demoting each other at once
 * cannot both succeed.
 */

/**
 * A user's last activity: their most recently refreshed session, or what was kept of it when
 * their sessions ended (disabling ends them all).
 */
// Spelled out: drizzle drops table names from columns in a one-table select, which would turn
// the correlation into session.user_id = session.id.
const lastActive = sql<Date | null>`greatest(
    (SELECT max(s.updated_at) FROM session s WHERE s.user_id = "user".id), "user".last_active_at)`.mapWith(
  session.updatedAt,
);

function present(row: {
  id: string;
  name: string;
  email: string;
  role: string;
  createdAt: Date;
  banned: boolean;
  lastActiveAt: Date | string | null;
}): AdminUser {
  const last = row.lastActiveAt === null ? null : new Date(row.lastActiveAt);
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role === "admin" ? "admin" : "member",
    createdAt: row.createdAt.toISOString(),
    disabled: row.banned,
    lastActiveAt: last?.toISOString() ?? null,
  };
}

const columns = {
  id: user.id,
  name: user.name,
  email: user.email,
  role: user.role,
  createdAt: user.createdAt,
  banned: user.banned,
  lastActiveAt: lastActive,
};

export async function listUsers(db: Db): Promise<AdminUser[]> {
  const rows = await db.select(columns).from(user).orderBy(asc(user.createdAt), asc(user.id));
  return rows.map(present);
}

export async function getUser(db: Db, id: string): Promise<AdminUser | null> {
  const rows = await db.select(columns).from(user).where(eq(user.id, id)).limit(1);
  return rows[0] ? present(rows[0]) : null;
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

async function lockAdmins(tx: Tx) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended('tessera:admins', 0))`);
}

/** Throws 409 last_admin when `userId` is the only enabled admin. */
async function assertNotLastAdmin(tx: Tx, userId: string, action: string) {
  const others = await tx.$count(
    user,
    and(eq(user.role, "admin"), eq(user.banned, false), ne(user.id, userId)),
  );
  if (others === 0)
    throw lastAdmin(`This is the instance's last admin; make someone else admin before you ${action} them`);
}

/** Ends every session of the user, keeping when they were last active. */
async function endSessions(tx: Tx, userId: string) {
  await tx.execute(sql`UPDATE "user" SET last_active_at = greatest(last_active_at,
    (SELECT max(s.updated_at) FROM session s WHERE s.user_id = ${userId})) WHERE id = ${userId}`);
  await tx.delete(session).where(eq(session.userId, userId));
}

/** Changes a user's role or disabled state; disabling also ends their sessions and API keys. */
export async function updateUser(
  db: Db,
  input: { id: string; role?: Role; disabled?: boolean },
): Promise<AdminUser> {
  return db.transaction(async (tx) => {
    await lockAdmins(tx);
    const [current] = await tx
      .select({ role: user.role, banned: user.banned })
      .from(user)
      .where(eq(user.id, input.id))
      .limit(1)
      .for("update");
    if (!current) throw notFound("User");
    const losesAdmin =
      current.role === "admin" &&
      !current.banned &&
      ((input.role !== undefined && input.role !== "admin") || input.disabled === true);
    if (losesAdmin) await assertNotLastAdmin(tx, input.id, input.disabled ? "disable" : "demote");
    const changes: Partial<typeof user.$inferInsert> = { updatedAt: new Date() };
    if (input.role !== undefined) changes.role = input.role;
    if (input.disabled !== undefined) changes.banned = input.disabled;
    await tx.update(user).set(changes).where(eq(user.id, input.id));
    if (input.disabled) {
      await endSessions(tx, input.id);
      await tx.delete(apikey).where(eq(apikey.referenceId, input.id));
    }
    const [row] = await tx.select(columns).from(user).where(eq(user.id, input.id));
    return present(row!);
  });
}

/**
 * Deletes the user and, through the foreign keys, everything they own: one transaction.
 * `alsoDelete` removes what lives outside the database (the Redis notification list) once the
 * user is known to be deletable, before the commit: when it fails, nothing is deleted.
 */
export async function deleteUser(db: Db, id: string, alsoDelete?: () => Promise<void>): Promise<void> {
  await db.transaction(async (tx) => {
    await lockAdmins(tx);
    const [current] = await tx
      .select({ role: user.role, banned: user.banned })
      .from(user)
      .where(eq(user.id, id))
      .limit(1)
      .for("update");
    if (!current) throw notFound("User");
    if (current.role === "admin" && !current.banned) await assertNotLastAdmin(tx, id, "delete");
    await tx.delete(user).where(eq(user.id, id));
    await alsoDelete?.();
  });
}
