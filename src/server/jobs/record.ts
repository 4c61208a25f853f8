import { eq } from "drizzle-orm";
import type { Notification } from "../../contract/resources.js";
import type { ServerText } from "../../contract/server-text.js";
import type { Db } from "../db/client.js";
import { alertFirings, widgets } from "../db/schema.js";
import { inRecipientLanguage } from "../i18n/recipients.js";
import type { NotificationService } from "../notifications/service.js";
import { enqueuePushes } from "../push/deliver.js";
import type { JobQueue } from "./queue.js";

/** One occurrence of an alert: `key` names it for good (the same key never fires twice). */
export interface AlertOccurrence {
  userId: string;
  widgetId: string;
  key: string;
  /** What it says; written in the user's language as it is recorded. */
  text: ServerText;
}

/**
 * The one way a server-side alert reaches its user, inside the transaction that decided it: the
 * once-only mark, then the notification, and one push job per browser the user subscribed, all on
 * `queue` in the same commit (a push is sent if and only if the alert committed, once per
 * subscription). Null when the mark was already there. The caller publishes the notification on
 * the realtime bus after the commit.
 */
export async function recordAlert(
  tx: Db,
  queue: JobQueue,
  notifications: NotificationService,
  occurrence: AlertOccurrence,
): Promise<Notification | null> {
  const marked = await tx
    .insert(alertFirings)
    .values({ key: occurrence.key, widgetId: occurrence.widgetId })
    .onConflictDoNothing()
    .returning({ key: alertFirings.key });
  if (marked.length === 0) return null;
  const message = await inRecipientLanguage(tx, occurrence.userId, occurrence.text);
  const notification = await notifications.record(occurrence.userId, { type: "reminder", message }, tx);
  const [widget] = await tx
    .select({ dashboardId: widgets.dashboardId })
    .from(widgets)
    .where(eq(widgets.id, occurrence.widgetId));
  await enqueuePushes(tx, queue, occurrence.userId, {
    title: "Tessera",
    body: message,
    // Relative: the service worker opens it on its own origin, the dashboard holding the widget.
    url: widget ? `/d/${widget.dashboardId}` : "/",
    tag: occurrence.key,
  });
  return notification;
}
