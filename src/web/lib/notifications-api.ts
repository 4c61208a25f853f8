import { type QueryClient, useQuery } from "@tanstack/react-query";
import type { ReadMark } from "../../contract/notification-read";
import type {
  NOTIFICATION_DISMISSED as NotificationDismissed,
  NOTIFICATIONS_CLEARED as NotificationsCleared,
  NOTIFICATIONS_READ as NotificationsRead,
} from "../../contract/notifications";
import type { Notification } from "../../contract/resources";
import { request } from "./api";
import { isRecord } from "./parse";
import { keys } from "./queries";

// The contract's event names, checked by type (a value import would bring its module in whole).
const notificationsRead: typeof NotificationsRead = "notifications.read";
const notificationDismissed: typeof NotificationDismissed = "notification.dismissed";
const notificationsCleared: typeof NotificationsCleared = "notifications.cleared";

export const notificationsApi = {
  readMark: () => request<ReadMark>("GET", "/api/notifications/read"),
  markRead: (upTo: string) => request<ReadMark>("PUT", "/api/notifications/read", { upTo }),
  dismiss: (id: string) => request<Notification>("DELETE", `/api/notifications/${encodeURIComponent(id)}`),
};

/**
 * The newest notification id the user has read, on any device (null: none yet). The bootstrap
 * answer seeds it; the stream keeps it current.
 */
export function useReadMark() {
  return useQuery({
    queryKey: keys.notificationsRead,
    queryFn: async () => (await notificationsApi.readMark()).readUpTo,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Ids are UUIDv7 in lower case: text order is time order. */
export const isUnread = (n: Notification, mark: string | null | undefined) => !mark || n.id > mark;

/** Moves the cached mark forward to `id`, never back (answers and events may arrive out of order). */
export function raiseReadMark(client: QueryClient, id: string | null) {
  if (!id) return;
  const current = client.getQueryData<string | null>(keys.notificationsRead);
  if (!current || id > current) client.setQueryData(keys.notificationsRead, id);
}

export function dropNotification(client: QueryClient, id: string) {
  const list = client.getQueryData<Notification[]>(keys.notifications);
  if (list?.some((n) => n.id === id))
    client.setQueryData(
      keys.notifications,
      list.filter((n) => n.id !== id),
    );
}

function payload(event: Event): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse((event as MessageEvent<string>).data);
    return isRecord(value) ? value : null;
  } catch {
    // A malformed event changes nothing; the next reconnect reads the truth again.
    return null;
  }
}

/** What the user's other devices did to their notifications, applied to this tab's caches. */
export function listenToNotificationState(source: EventSource, client: QueryClient) {
  source.addEventListener(notificationsRead, (event) => {
    const readUpTo = payload(event)?.readUpTo;
    if (typeof readUpTo === "string") raiseReadMark(client, readUpTo.toLowerCase());
  });
  source.addEventListener(notificationDismissed, (event) => {
    const id = payload(event)?.id;
    if (typeof id === "string") dropNotification(client, id);
  });
  source.addEventListener(notificationsCleared, () => client.setQueryData(keys.notifications, []));
}
