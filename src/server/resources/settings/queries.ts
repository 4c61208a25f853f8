import { and, asc, eq } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Settings, UpdateSettingsInput } from "../../../contract/resources.js";
import type { Db } from "../../db/client.js";
import { settings } from "../../db/schema.js";
import { iso } from "../../http/schemas.js";

type Row = typeof settings.$inferSelect;

export const toSettings = (row: Row): Settings => ({
  id: row.id,
  userId: row.userId,
  lastDashboardId: row.lastDashboardId,
  config: row.config,
  onboardingCompleted: row.onboardingCompleted,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

/** Creates the user's one settings row unless it exists; safe to call any number of times. */
export async function ensureSettings(db: Db, userId: string) {
  const now = new Date();
  await db
    .insert(settings)
    .values({ id: uuidv7(), userId, config: {}, onboardingCompleted: false, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: settings.userId });
}

export async function listSettings(db: Db, userId: string): Promise<Settings[]> {
  const read = () =>
    db.select().from(settings).where(eq(settings.userId, userId)).orderBy(asc(settings.createdAt));
  let rows = await read();
  if (rows.length === 0) {
    // Sign-up creates the row; this heals a user whose row went missing rather than failing.
    await ensureSettings(db, userId);
    rows = await read();
  }
  return rows.map(toSettings);
}

export async function updateSettings(db: Db, userId: string, input: UpdateSettingsInput) {
  const patch: Partial<typeof settings.$inferInsert> = { updatedAt: new Date() };
  if (input.lastDashboardId !== undefined) patch.lastDashboardId = input.lastDashboardId;
  if (input.config !== undefined) patch.config = input.config;
  if (input.onboardingCompleted !== undefined) patch.onboardingCompleted = input.onboardingCompleted;
  const [row] = await db
    .update(settings)
    .set(patch)
    .where(and(eq(settings.id, input.id), eq(settings.userId, userId)))
    .returning();
  return row ? toSettings(row) : null;
}
