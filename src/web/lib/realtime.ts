import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { DASHBOARD_RESTORED, NOTIFICATION_CREATED, NOTIFICATION_TYPES } from "../../contract/notifications";
import type { Notification } from "../../contract/resources";
import { isRecord } from "./parse";
import { addNotificationToCache, keys } from "./queries";

function asNotification(data: string): Notification | null {
  try {
    const value: unknown = JSON.parse(data);
    if (
      isRecord(value) &&
      typeof value.id === "string" &&
      typeof value.message === "string" &&
      typeof value.createdAt === "string" &&
      (NOTIFICATION_TYPES as readonly unknown[]).includes(value.type)
    ) {
      return value as unknown as Notification;
    }
  } catch {
    // A malformed event is skipped; the list refetch after a reconnect covers anything missed.
  }
  return null;
}

/**
 * Follows the user's realtime channel. The browser's EventSource reconnects by itself after a
 * network blip and sends Last-Event-ID, so the server replays what was missed. When the stream
 * is closed for good (server restart answering an error, endpoint missing), a new one is opened
 * with back-off and the list is refetched to catch up.
 */
export function useNotificationStream(enabled: boolean, onNew: (notification: Notification) => void) {
  const client = useQueryClient();
  const onNewRef = useRef(onNew);
  onNewRef.current = onNew;

  useEffect(() => {
    if (!enabled || typeof EventSource === "undefined") return;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let failures = 0;
    let stopped = false;

    const connect = (catchUp: boolean) => {
      source = new EventSource("/api/realtime");
      source.addEventListener("open", () => {
        failures = 0;
        if (catchUp) void client.invalidateQueries({ queryKey: keys.notifications });
      });
      source.addEventListener(NOTIFICATION_CREATED, (event) => {
        const notification = asNotification((event as MessageEvent<string>).data);
        if (notification && addNotificationToCache(client, notification)) onNewRef.current(notification);
      });
      // Another tab or device restored a version: this one reloads that dashboard's widgets.
      source.addEventListener(DASHBOARD_RESTORED, (event) => {
        try {
          const { dashboardId } = JSON.parse((event as MessageEvent<string>).data) as {
            dashboardId?: unknown;
          };
          if (typeof dashboardId === "string")
            void client.invalidateQueries({ queryKey: keys.widgets(dashboardId) });
        } catch {
          // A malformed hint changes nothing; the next visit reloads anyway.
        }
      });
      source.addEventListener("error", () => {
        if (stopped || source?.readyState !== EventSource.CLOSED) return;
        failures++;
        const delay = Math.min(30_000, 1000 * 2 ** Math.min(failures, 5)) * (0.75 + Math.random() * 0.5);
        timer = setTimeout(() => connect(true), delay);
      });
    };
    connect(false);

    const onOnline = () => {
      if (source?.readyState === EventSource.CLOSED) {
        if (timer) clearTimeout(timer);
        connect(true);
      }
    };
    window.addEventListener("online", onOnline);
    return () => {
      stopped = true;
      window.removeEventListener("online", onOnline);
      if (timer) clearTimeout(timer);
      source?.close();
    };
  }, [enabled, client]);
}
