import {
  notifyManager,
  QueryCache,
  QueryClient,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import type { Bootstrap } from "../../contract/bootstrap";
import type { Dashboard, Notification, Settings } from "../../contract/resources";
import { t } from "../i18n/i18n";
import { useToasts } from "../ui/Toasts";
import { ApiError, api, describeError, type SessionInfo } from "./api";
import { type AppSettings, mergeAppSettings, parseAppSettings } from "./app-settings";
import { sharingApi } from "./sharing-api";

export const keys = {
  session: ["session"] as const,
  /** The signed-in user with their role (GET /api/me), seeded by the bootstrap answer. */
  me: ["me"] as const,
  dashboards: ["dashboards"] as const,
  widgets: (dashboardId: string) => ["widgets", dashboardId] as const,
  settings: ["settings"] as const,
  notifications: ["notifications"] as const,
  /**
   * The notifications read mark (notifications-api.ts). Under the list's key on purpose: the
   * stream's catch-up after a reconnect invalidates the list's key, which reads both again (the
   * state events it missed are not replayed).
   */
  notificationsRead: ["notifications", "read"] as const,
  providers: ["providers"] as const,
  accounts: ["accounts"] as const,
};

export function createQueryClient(): QueryClient {
  // Observers hear about cache writes at once rather than a tick later, so a change made in an
  // event handler re-renders before React restores controlled inputs: no checkbox flicker, no
  // caret jumping to the end while typing in a widget.
  notifyManager.setScheduler((callback) => callback());
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError(error) {
        // A session that ended elsewhere (sign-out in another tab, expiry) sends the user to sign in.
        if (error instanceof ApiError && error.status === 401) client.setQueryData(keys.session, null);
      },
    }),
    defaultOptions: {
      queries: {
        retry: (count, error) =>
          error instanceof ApiError && error.status >= 400 && error.status < 500 ? false : count < 2,
        // Local edits live in the cache until saved; a focus refetch must not overwrite them.
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
      mutations: { retry: false },
    },
  });
  return client;
}

/**
 * The session, answered by `/api/bootstrap` together with the dashboards, settings and the open
 * dashboard's widgets, which go straight into the cache: one request after the bundle draws the
 * first screen. Signed out (401) is a null session.
 */
async function loadSession(client: QueryClient): Promise<SessionInfo | null> {
  const dashboardId = /^\/d\/([0-9a-fA-F-]{36})(?:\/|$)/.exec(window.location.pathname)?.[1];
  let data: Bootstrap;
  try {
    data = await api.bootstrap(dashboardId);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
  client.setQueryData(keys.me, data.me);
  client.setQueryData(keys.dashboards, data.dashboards);
  client.setQueryData(keys.settings, data.settings);
  client.setQueryData(keys.notificationsRead, data.notificationsReadUpTo);
  if (data.dashboardId) client.setQueryData(keys.widgets(data.dashboardId), data.widgets);
  return data.session;
}

const sessionQuery = (client: QueryClient) => ({
  queryKey: keys.session,
  queryFn: () => loadSession(client),
  staleTime: 5 * 60_000,
});

export function useSession() {
  const client = useQueryClient();
  return useQuery(sessionQuery(client));
}

/**
 * Asks for the session (the bootstrap answer) before the first render. Never rejects: a failure
 * stays in the cache for the Workspace to show, as when the first render asks.
 */
export function prefetchSession(client: QueryClient): Promise<void> {
  return client.prefetchQuery(sessionQuery(client));
}

export function useDashboards(enabled = true) {
  // The user's own dashboards, then those shared with them (as the bootstrap answer lists them).
  return useQuery({ queryKey: keys.dashboards, queryFn: sharingApi.dashboards, enabled });
}

export function useSettings(enabled = true) {
  return useQuery({ queryKey: keys.settings, queryFn: api.settings.get, enabled, staleTime: 5 * 60_000 });
}

export function useAppSettings(): AppSettings {
  const { data } = useSettings();
  return useMemo(() => parseAppSettings(data?.config), [data?.config]);
}

type SettingsBody = Parameters<typeof api.settings.update>[0];

/**
 * Changes settings optimistically: the cache (and so the UI) changes in the event handler itself,
 * requests run one after another (scope), and a failure refetches the truth and says so.
 * `config` patches merge into whatever the stored object holds.
 */
export function useUpdateSettings() {
  const client = useQueryClient();
  const toasts = useToasts();
  const mutation = useMutation({
    scope: { id: "settings" },
    mutationFn: (body: SettingsBody) => api.settings.update(body),
    onError: (error) => {
      void client.invalidateQueries({ queryKey: keys.settings });
      toasts.show({ tone: "error", message: t("lib.settingsNotSaved", { reason: describeError(error) }) });
    },
    onSuccess: (saved) => {
      // A later change still on its way must not be overwritten by this older answer.
      if (client.isMutating({ predicate: (m) => m.options.scope?.id === "settings" }) <= 1)
        client.setQueryData(keys.settings, saved);
    },
  });
  const { mutate } = mutation;

  const apply = useCallback(
    (body: Omit<SettingsBody, "id">) => {
      const current = client.getQueryData<Settings>(keys.settings);
      if (!current) return;
      client.setQueryData<Settings>(keys.settings, { ...current, ...body } as Settings);
      mutate({ ...body, id: current.id });
    },
    [client, mutate],
  );

  const updateConfig = useCallback(
    (patch: Partial<AppSettings>) => {
      const current = client.getQueryData<Settings>(keys.settings);
      if (current) apply({ config: mergeAppSettings(current.config, patch) });
    },
    [client, apply],
  );
  return { isPending: mutation.isPending, apply, updateConfig };
}

export function useNotifications(enabled = true) {
  return useQuery({
    queryKey: keys.notifications,
    queryFn: api.notifications.list,
    enabled,
    staleTime: 60_000,
  });
}

/** Adds a notification to the cached list unless it is there already; true when it was new. */
export function addNotificationToCache(client: QueryClient, notification: Notification): boolean {
  const list = client.getQueryData<Notification[]>(keys.notifications);
  if (list?.some((n) => n.id === notification.id)) return false;
  const next = [notification, ...(list ?? [])].sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  client.setQueryData(keys.notifications, next.slice(0, 50));
  return true;
}

/** The user's own dashboards, oldest first, then those shared with them (which name an `owner`). */
export function sortDashboards(list: Dashboard[] | undefined): Dashboard[] {
  const shared = (d: Dashboard) => (d.owner ? 1 : 0);
  return [...(list ?? [])].sort((a, b) => shared(a) - shared(b) || a.createdAt.localeCompare(b.createdAt));
}
