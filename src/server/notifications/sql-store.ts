import { and, asc, count, desc, eq, gt, notInArray } from "drizzle-orm";
import { NOTIFICATIONS_RETAINED } from "../../contract/notifications.js";
import type { Notification } from "../../contract/resources.js";
import type { Db } from "../db/client.js";
import { notifications } from "../db/schema.js";
import type { NotificationStore } from "./store.js";

type Row = typeof notifications.$inferSelect;

const toNotification = (row: Row): Notification => ({
  id: row.id,
  userId: row.userId,
  type: row.type as Notification["type"],
  message: row.message,
  createdAt: row.createdAt.toISOString(),
});

export function createSqlNotificationStore(db: Db): NotificationStore {
  return {
    async add(n) {
      await db.transaction(async (tx) => {
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
      });
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
