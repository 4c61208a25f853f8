import { and, asc, count, desc, eq, getTableColumns, gt, notInArray, sql } from "drizzle-orm";
import { NOTIFICATIONS_RETAINED } from "../../../contract/notifications.js";
import { type Notification, NotificationSchema } from "../../../contract/resources.js";
import type { Db } from "../../db/client.js";
import { jsonShape } from "../../db/json.js";
import { notifications } from "../../db/schema.js";
import type { NotificationStore } from "./store.js";

type Row = typeof notifications.$inferSelect;

/** Class id of the per-user advisory locks (the two-key form: a keyspace apart from the migration lock's). */
const NOTIFICATION_LOCK_CLASS = 0x6e6f74;

const shape = jsonShape(NotificationSchema, getTableColumns(notifications));
/** Types were checked when they were written. */
const toNotification = (row: Row) => shape.fromRow(row) as Notification;

export function createSqlNotificationStore(db: Db): NotificationStore {
  return {
    async add(n, outer) {
      const write = async (tx: Db) => {
        // One writer per user at a time: at READ COMMITTED, concurrent insert-then-trim transactions
        // each trim against a snapshot without the others' rows and leave more than the cap.
        await tx.execute(
          sql`SELECT pg_advisory_xact_lock(${NOTIFICATION_LOCK_CLASS}, hashtext(${n.userId}))`,
        );
        await tx.insert(notifications).values({
          id: n.id,
          userId: n.userId,
          type: n.type,
          message: n.message,
          createdAt: new Date(n.createdAt),
        });
        // Retention: everything but the newest NOTIFICATIONS_RETAINED goes, in the same transaction.
        const keep = tx
          .select({ id: notifications.id })
          .from(notifications)
          .where(eq(notifications.userId, n.userId))
          .orderBy(desc(notifications.id))
          .limit(NOTIFICATIONS_RETAINED);
        await tx
          .delete(notifications)
          .where(and(eq(notifications.userId, n.userId), notInArray(notifications.id, keep)));
      };
      // Inside the caller's transaction when given one (its lock lasts until that one ends).
      if (outer) await write(outer);
      else await db.transaction(async (tx) => write(tx as unknown as Db));
    },
    async latest(userId, limit) {
      const rows = await db
        .select()
        .from(notifications)
        .where(eq(notifications.userId, userId))
        .orderBy(desc(notifications.id))
        .limit(limit);
      return rows.map(toNotification);
    },
    async after(userId, afterId) {
      const rows = await db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, userId), gt(notifications.id, afterId)))
        .orderBy(asc(notifications.id));
      return rows.map(toNotification);
    },
    async remove(userId, id) {
      const [row] = await db
        .delete(notifications)
        .where(and(eq(notifications.userId, userId), eq(notifications.id, id)))
        .returning();
      return row ? toNotification(row) : null;
    },
    async clear(userId) {
      await db.delete(notifications).where(eq(notifications.userId, userId));
    },
    async count(userId) {
      const [row] = await db
        .select({ n: count() })
        .from(notifications)
        .where(eq(notifications.userId, userId));
      return Number(row?.n ?? 0);
    },
  };
}
