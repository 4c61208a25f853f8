import { eq } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { toWidget } from "../db/records.js";
import { dashboards, user, widgets } from "../db/schema.js";
import { toDashboard } from "../resources/dashboards/queries.js";
import type { RecordLoader } from "./dashboard-events.js";

/**
 * Records as stored, for events whose payload the bus dropped. No policy here: the stream that
 * receives the event was allowed to watch the dashboard, and replaces `access` and `owner` with
 * its own watcher's before sending.
 */
export function storedRecords(db: Db): RecordLoader {
  return {
    async widget(id) {
      const [row] = await db.select().from(widgets).where(eq(widgets.id, id)).limit(1);
      return row ? toWidget(row) : null;
    },
    async dashboard(id) {
      const [row] = await db.select().from(dashboards).where(eq(dashboards.id, id)).limit(1);
      return row ? toDashboard({ ...row, access: "owner" }) : null;
    },
    async author(userId) {
      const [row] = await db
        .select({ id: user.id, name: user.name })
        .from(user)
        .where(eq(user.id, userId))
        .limit(1);
      return row ?? null;
    },
  };
}
