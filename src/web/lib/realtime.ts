import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useLocation, useNavigate } from "react-router";
import { DASHBOARD_RESTORED, NOTIFICATION_CREATED, NOTIFICATION_TYPES } from "../../contract/notifications";
import type { Dashboard, Notification } from "../../contract/resources";
import { t } from "../i18n/i18n";
import { useToasts } from "../ui/Toasts";
import { type LiveContext, listenToDashboards, resyncDashboard } from "./live-dashboard";
import { liveState } from "./live-state";
import { listenToNotificationState } from "./notifications-api";
import { isRecord } from "./parse";
import { addNotificationToCache, keys, sortDashboards, useDashboards, useSession } from "./queries";
import { useWidgetStore } from "./widget-store";

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

/** The dashboard in the address (/d/<id>), if any. */
const DASHBOARD_PATH = /^\/d\/([0-9a-fA-F-]{36})(?:\/|$)/;

/**
 * A dashboard's widgets cached this long before its stream opened are read again once it is
 * open: the tab heard nothing of it meanwhile (a board visited earlier and opened again).
 */
const CACHED_BEFORE_MS = 5000;

/**
 * Follows the user's realtime channel. The browser's EventSource reconnects by itself after a
 * network blip and sends Last-Event-ID, so the server replays what was missed. When the stream
 * is closed for good (server restart answering an error, endpoint missing), a new one is opened
 * with back-off and the list is refetched to catch up.
 *
 * The same stream watches the dashboard on screen (`?dashboard=`, DESIGN section 14), so others'
 * changes and presence arrive live (live-dashboard.ts); opening another dashboard opens a new
 * stream that carries on from the last notification seen. Dashboard events are not replayed:
 * after a reconnect the watched dashboard's widgets are read again.
 */
export function useNotificationStream(enabled: boolean, onNew: (notification: Notification) => void) {
  const client = useQueryClient();
  const onNewRef = useRef(onNew);
  onNewRef.current = onNew;
  const lastEventId = useRef<string | null>(null);
  /** A stream was open before this one (another dashboard's): the new one carries on from it. */
  const streamedBefore = useRef(false);

  // Only a dashboard the user may read is watched (the server answers 404 for any other).
  const { pathname } = useLocation();
  const { data: dashboards } = useDashboards(enabled);
  const openId = DASHBOARD_PATH.exec(pathname)?.[1]?.toLowerCase() ?? null;
  const watched = openId && dashboards?.some((d) => d.id === openId) ? openId : null;

  const store = useWidgetStore();
  const navigate = useNavigate();
  const toasts = useToasts();
  const me = useSession().data?.user.id ?? null;
  useEffect(() => liveState.setMe(me), [me]);

  const live = useRef<LiveContext | null>(null);
  live.current = {
    client,
    store,
    openDashboard: () => DASHBOARD_PATH.exec(window.location.pathname)?.[1]?.toLowerCase() ?? null,
    onAccessLost: (_dashboardId, name) => {
      const first = sortDashboards(client.getQueryData<Dashboard[]>(keys.dashboards))[0];
      navigate(first ? `/d/${first.id}` : "/", { replace: true });
      toasts.show({ key: "access-lost", tone: "info", message: t("live.accessLost", { name }) });
    },
  };

  useEffect(() => {
    if (!enabled || typeof EventSource === "undefined") return;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let failures = 0;
    let stopped = false;
    const ctx: LiveContext = {
      client,
      get store() {
        return live.current!.store;
      },
      openDashboard: () => live.current!.openDashboard(),
      onAccessLost: (id, name) => live.current!.onAccessLost(id, name),
    };

    const connect = (catchUp: boolean) => {
      const query = new URLSearchParams();
      if (watched) query.append("dashboard", watched);
      // A new stream for another dashboard goes on from the last notification this tab saw.
      const since =
        lastEventId.current ?? client.getQueryData<Notification[]>(keys.notifications)?.[0]?.id ?? null;
      if (!catchUp && streamedBefore.current && since) query.set("lastEventId", since);
      streamedBefore.current = true;
      const search = query.toString();
      const startedAt = Date.now();
      let opened = false;
      source = new EventSource(search ? `/api/realtime?${search}` : "/api/realtime");
      source.addEventListener("open", () => {
        failures = 0;
        // Read marks and dismissals are not replayed: after any reconnect, read them (and the list) again.
        if (catchUp || opened) void client.invalidateQueries({ queryKey: keys.notifications });
        if (watched) {
          const loadedAt = client.getQueryState(keys.widgets(watched))?.dataUpdatedAt ?? startedAt;
          if (catchUp || opened || loadedAt < startedAt - CACHED_BEFORE_MS) {
            void resyncDashboard(ctx, watched);
            if (catchUp || opened) void client.invalidateQueries({ queryKey: keys.dashboards });
          }
        }
        opened = true;
      });
      source.addEventListener(NOTIFICATION_CREATED, (event) => {
        const message = event as MessageEvent<string>;
        if (message.lastEventId) lastEventId.current = message.lastEventId;
        const notification = asNotification(message.data);
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
      listenToDashboards(source, ctx);
      listenToNotificationState(source, client);
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
      if (watched) liveState.clearPresence(watched);
    };
  }, [enabled, client, watched]);
}
