import type { Notification } from "../../contract/resources.js";
import type { Db } from "../db/client.js";
import { alertFirings } from "../db/schema.js";
import type { NotificationService } from "../notifications/service.js";
import type { JobQueue } from "./queue.js";

/** One occurrence of an alert: `key` names it for good (the same key never fires twice). */
export interface AlertOccurrence {
  userId: string;
  widgetId: string;
  key: string;
  message: string;
}

/**
 * The one way a server-side alert reaches its user, inside the transaction that decided it: the
 * once-only mark, then the notification (and what else must go with it, such as push jobs, on
 * `queue` in the same commit). Null when the mark was already there. The caller publishes the
 * notification on the realtime bus after the commit.
 */
export async function recordAlert(
  tx: Db,
  _queue: JobQueue,
  notifications: NotificationService,
  occurrence: AlertOccurrence,
): Promise<Notification | null> {
  const marked = await tx
    .insert(alertFirings)
    .values({ key: occurrence.key, widgetId: occurrence.widgetId })
    .onConflictDoNothing()
    .returning({ key: alertFirings.key });
  if (marked.length === 0) return null;
  return notifications.record(occurrence.userId, { type: "reminder", message: occurrence.message }, tx);
}
