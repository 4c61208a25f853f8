import { and, asc, eq, getTableColumns, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import {
  type Settings,
  SettingsSchema,
  UpdateSettingsBody,
  type UpdateSettingsInput,
} from "../../../contract/resources.js";
import type { Db } from "../../db/client.js";
import { changesFrom, jsonShape } from "../../db/json.js";
import { settings } from "../../db/schema.js";

type Row = typeof settings.$inferSelect;

const shape = jsonShape(SettingsSchema, getTableColumns(settings));
export const toSettings = (row: Row) => shape.fromRow(row) as Settings;

/** Creates the user's one settings row unless it exists; safe to call any number of times. */
export async function ensureSettings(db: Db, userId: string) {
  const now = new Date();
  await db
    .insert(settings)
    .values({ id: uuidv7(), userId, config: {}, onboardingCompleted: false, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: settings.userId });
}

/** The user's settings rows as stored, none when missing (the server's warm-up reads it so). */
export const storedSettingsRows = (db: Db, userId: string) =>
  db.select().from(settings).where(eq(settings.userId, userId)).orderBy(asc(settings.createdAt));

async function settingsRows(db: Db, userId: string) {
  let rows = await storedSettingsRows(db, userId);
  if (rows.length === 0) {
    // Sign-up creates the row; this heals a user whose row went missing rather than failing.
    await ensureSettings(db, userId);
    rows = await storedSettingsRows(db, userId);
  }
  return rows;
}

export async function listSettings(db: Db, userId: string): Promise<Settings[]> {
  return (await settingsRows(db, userId)).map(toSettings);
}

/**
 * The user's settings and their notifications read mark (a column of the same row, outside the
 * Settings resource) in one read, for bootstrap.
 */
export async function settingsAndReadMark(
  db: Db,
  userId: string,
): Promise<{ settings: Settings[]; readUpTo: string | null }> {
  const rows = await settingsRows(db, userId);
  return { settings: rows.map(toSettings), readUpTo: rows[0]?.notificationsReadId ?? null };
}

export async function updateSettings(db: Db, userId: string, input: UpdateSettingsInput) {
  const changes = changesFrom(UpdateSettingsBody, input);
  // JSON null is a value to store (the spec allows any JSON); Drizzle would write SQL NULL for it.
  if (input.config === null) Object.assign(changes, { config: sql`'null'::jsonb` });
  const [row] = await db
    .update(settings)
    .set(changes)
    .where(and(eq(settings.id, input.id), eq(settings.userId, userId)))
    .returning();
  return row ? toSettings(row) : null;
}
