import { eq, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Db } from "../db/client.js";
import { settings } from "../db/schema.js";

/**
 * How far ahead of this instance's clock a notification id may be: ids are made by whichever
 * instance stored the notification, and instances' clocks differ a little.
 */
const CLOCK_SKEW_MS = 60_000;

/**
 * Whether `id` can name a notification made by now: a UUIDv7 whose time is not in the future.
 * A mark beyond now would silently mark notifications read before they exist, for good (the
 * mark never moves back), so such an id is refused rather than stored.
 */
export function isPastNotificationId(id: string, now: number): boolean {
  const hex = id.toLowerCase();
  if (hex[14] !== "7") return false;
  const ms = Number.parseInt(hex.slice(0, 8) + hex.slice(9, 13), 16);
  return ms <= now + CLOCK_SKEW_MS;
}

/** The user's read mark, on every device the same; null until they read anything. */
export async function readMark(db: Db, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ readUpTo: settings.notificationsReadId })
    .from(settings)
    .where(eq(settings.userId, userId));
  return row?.readUpTo ?? null;
}

/**
 * Moves the user's read mark forward to `upTo`, never back, in one statement: two devices
 * marking at once end with the newer mark whatever the order. The settings row is made when the
 * user has none yet. `moved` says whether the mark changed (the other devices need telling).
 */
export async function markRead(
  db: Db,
  userId: string,
  upTo: string,
): Promise<{ readUpTo: string; moved: boolean }> {
  const now = new Date();
  const [row] = await db
    .insert(settings)
    .values({
      id: uuidv7(),
      userId,
      config: {},
      onboardingCompleted: false,
      notificationsReadId: upTo,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: settings.userId,
      // Not `updatedAt`: the mark is not part of the Settings resource, which stays as it was.
      set: { notificationsReadId: sql`excluded.notifications_read_id` },
      setWhere: sql`${settings.notificationsReadId} IS NULL OR ${settings.notificationsReadId} < excluded.notifications_read_id`,
    })
    .returning({ readUpTo: settings.notificationsReadId });
  if (row?.readUpTo) return { readUpTo: row.readUpTo, moved: true };
  // Not moved: the stored mark is at or past `upTo`.
  return { readUpTo: (await readMark(db, userId)) ?? upTo, moved: false };
}
