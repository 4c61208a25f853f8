import { and, asc, eq } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Dashboard } from "../../../contract/resources.js";
import type { Db } from "../../db/client.js";
import { dashboards } from "../../db/schema.js";
import { iso } from "../../http/schemas.js";

type Row = typeof dashboards.$inferSelect;

export const toDashboard = (row: Row): Dashboard => ({
  id: row.id,
  userId: row.userId,
  name: row.name,
  isPublic: row.isPublic,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

const owned = (userId: string, id: string) => and(eq(dashboards.id, id), eq(dashboards.userId, userId));

export async function listDashboards(db: Db, userId: string, id?: string) {
  const rows = await db
    .select()
    .from(dashboards)
    .where(id ? owned(userId, id) : eq(dashboards.userId, userId))
    .orderBy(asc(dashboards.createdAt), asc(dashboards.id));
  return rows.map(toDashboard);
}

export async function createDashboard(db: Db, userId: string, name: string) {
  const now = new Date();
  const [row] = await db
    .insert(dashboards)
    .values({ id: uuidv7(), userId, name, isPublic: false, createdAt: now, updatedAt: now })
    .returning();
  return toDashboard(row!);
}

export async function updateDashboard(
  db: Db,
  userId: string,
  id: string,
  patch: { name: string; isPublic?: boolean },
) {
  const [row] = await db
    .update(dashboards)
    .set({ ...patch, updatedAt: new Date() })
    .where(owned(userId, id))
    .returning();
  return row ? toDashboard(row) : null;
}

/**
 * Widgets go with their dashboard through the foreign key's cascade, and a settings row that
 * pointed at it falls back to null through ON DELETE SET NULL: one statement, one transaction.
 */
export async function deleteDashboard(db: Db, userId: string, id: string) {
  const [row] = await db.delete(dashboards).where(owned(userId, id)).returning();
  return row ? toDashboard(row) : null;
}

export async function dashboardIsOwned(db: Db, userId: string, id: string) {
  const [row] = await db.select({ id: dashboards.id }).from(dashboards).where(owned(userId, id)).limit(1);
  return row !== undefined;
}
