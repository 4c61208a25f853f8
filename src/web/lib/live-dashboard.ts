import type { QueryClient } from "@tanstack/react-query";
import type { Dashboard, Widget } from "../../contract/resources";
import type {
  Access,
  ACCESS_CHANGED as AccessChanged,
  DashboardEvent,
  DASHBOARD_UPDATED as DashboardUpdated,
  Presence,
  PRESENCE as PresenceEvent,
  WIDGET_CREATED as WidgetCreated,
  WIDGET_DELETED as WidgetDeleted,
  WIDGET_UPDATED as WidgetUpdated,
} from "../../contract/sharing";
import { api } from "./api";
import { CLIENT_ID } from "./client-id";
import { liveState } from "./live-state";
import { applyWidgetEvent, isOwnEcho, isWidget, parseEnvelope, sameSettings } from "./live-sync";
import { isRecord } from "./parse";
import { keys } from "./queries";
import type { WidgetStore } from "./widget-store";

/**
 * The watched dashboard's live events (DESIGN section 14), applied to the caches the app reads:
 * a widget someone else added, changed or removed; the dashboard renamed or restyled; who is
 * watching and editing; the user's own access taken away or changed. The tab's own echoes
 * (its `X-Client-Id`) are skipped: it shows those changes already.
 */

// The contract's event names, checked by type (its module would bring the schema library in).
const widgetCreated: typeof WidgetCreated = "widget.created";
const widgetUpdated: typeof WidgetUpdated = "widget.updated";
const widgetDeleted: typeof WidgetDeleted = "widget.deleted";
const dashboardUpdated: typeof DashboardUpdated = "dashboard.updated";
const presence: typeof PresenceEvent = "presence";
const accessChanged: typeof AccessChanged = "access.changed";

export interface LiveContext {
  client: QueryClient;
  store: WidgetStore;
  /** The dashboard on screen, if any. */
  openDashboard(): string | null;
  /** The user lost access to a dashboard (null: it is gone); `name` as the list knew it. */
  onAccessLost(dashboardId: string, name: string | null): void;
}

const ACCESS: readonly (Access | null)[] = ["owner", "editor", "viewer", null];

function parse(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
}

const isPresence = (value: unknown): value is Presence =>
  isRecord(value) &&
  typeof value.userId === "string" &&
  typeof value.name === "string" &&
  (value.image === null || typeof value.image === "string" || value.image === undefined) &&
  (value.editing === null || typeof value.editing === "string" || value.editing === undefined);

/** A presence list (an event's data, or the answer of POST /api/dashboards/presence) into the live state. */
export function applyPresence(value: unknown): void {
  if (!isRecord(value) || typeof value.dashboardId !== "string" || !Array.isArray(value.present)) return;
  liveState.setPresence(
    value.dashboardId,
    value.present.filter(isPresence).map((p) => ({
      userId: p.userId,
      name: p.name,
      image: p.image ?? null,
      editing: p.editing ?? null,
    })),
  );
}

/** A widget someone else added or changed: into the cache, their change on top of nothing of ours. */
export function receiveWidget(ctx: LiveContext, widget: Widget, by: { id: string; name: string } | null) {
  const { client, store } = ctx;
  // News of a widget removed meanwhile (here, or by someone else) does not bring it back.
  if (store.sync.isGone(widget.id)) return;
  const list = client.getQueryData<Widget[]>(keys.widgets(widget.dashboardId));
  const shown = list?.find((w) => w.id === widget.id);
  liveState.remoteChange({ widget, by, configChanged: !shown || !sameSettings(shown.config, widget.config) });
  if (!list) return;
  if (shown) store.sync.receive(widget);
  else
    client.setQueryData<Widget[]>(keys.widgets(widget.dashboardId), (l) =>
      applyWidgetEvent(l, { kind: "created", widget }),
    );
}

/** A widget removed elsewhere: gone here too, with anything this tab still meant to save of it. */
export function removeWidget(ctx: LiveContext, dashboardId: string, id: string) {
  ctx.store.saver.forget(id);
  ctx.store.sync.forget(id);
  liveState.forgetWidget(id);
  ctx.client.setQueryData<Widget[]>(keys.widgets(dashboardId), (list) =>
    applyWidgetEvent(list, { kind: "deleted", id, dashboardId }),
  );
}

/**
 * Brings a dashboard's cached widgets up to date after events may have been missed (the stream
 * reconnected: dashboard events are not replayed). Each widget is taken as someone else's change
 * would be, so edits this tab has still to save stay; widgets gone from the server leave.
 */
export async function resyncDashboard(ctx: LiveContext, dashboardId: string): Promise<void> {
  const key = keys.widgets(dashboardId);
  const before = ctx.client.getQueryData<Widget[]>(key);
  if (!before) return;
  let fresh: Widget[];
  try {
    fresh = await api.widgets.list(dashboardId);
  } catch {
    return;
  }
  const known = new Set(before.map((w) => w.id));
  const present = new Set(fresh.map((w) => w.id));
  for (const widget of fresh) {
    if (ctx.store.sync.isGone(widget.id)) continue;
    const list = ctx.client.getQueryData<Widget[]>(key);
    if (list?.some((w) => w.id === widget.id)) ctx.store.sync.receive(widget);
    else ctx.client.setQueryData<Widget[]>(key, (l) => applyWidgetEvent(l, { kind: "created", widget }));
  }
  // Only what was here before the request went out: a widget this tab added meanwhile stays.
  for (const id of known) if (!present.has(id)) removeWidget(ctx, dashboardId, id);
}

function changeAccess(ctx: LiveContext, dashboardId: string, access: Access | null) {
  const { client } = ctx;
  const list = client.getQueryData<Dashboard[]>(keys.dashboards);
  const known = list?.find((d) => d.id === dashboardId);
  if (access === null) {
    if (!known) return;
    client.setQueryData<Dashboard[]>(keys.dashboards, (l) => l?.filter((d) => d.id !== dashboardId));
    liveState.clearPresence(dashboardId);
    if (ctx.openDashboard() === dashboardId) ctx.onAccessLost(dashboardId, known.name);
    return;
  }
  if (!known) {
    // Shared with the user just now: the list learns it with its owner's name.
    void client.invalidateQueries({ queryKey: keys.dashboards });
    return;
  }
  if (known.access !== access)
    client.setQueryData<Dashboard[]>(keys.dashboards, (l) =>
      l?.map((d) => (d.id === dashboardId ? { ...d, access } : d)),
    );
}

/** Listens to the dashboard events and the user's access changes on `source`. */
export function listenToDashboards(source: EventSource, ctx: LiveContext): void {
  const envelopes = (type: string, handle: (envelope: DashboardEvent) => void) =>
    source.addEventListener(type, (event) => {
      const envelope = parseEnvelope((event as MessageEvent<string>).data);
      if (envelope && !isOwnEcho(envelope, CLIENT_ID)) handle(envelope);
    });

  const changed = ({ data, by }: DashboardEvent) => {
    if (isWidget(data)) receiveWidget(ctx, data, by);
  };
  envelopes(widgetCreated, changed);
  envelopes(widgetUpdated, changed);
  envelopes(widgetDeleted, ({ dashboardId, data }) => {
    if (isRecord(data) && typeof data.id === "string") removeWidget(ctx, dashboardId, data.id);
  });
  envelopes(dashboardUpdated, ({ dashboardId, data }) => {
    if (!isRecord(data) || data.id !== dashboardId || typeof data.name !== "string") return;
    const dashboard = data as unknown as Dashboard;
    ctx.client.setQueryData<Dashboard[]>(keys.dashboards, (list) =>
      list?.map((d) =>
        d.id === dashboardId && (d.revision ?? 0) <= (dashboard.revision ?? 0)
          ? { ...d, ...dashboard, access: dashboard.access ?? d.access, owner: dashboard.owner ?? d.owner }
          : d,
      ),
    );
  });
  source.addEventListener(presence, (event) => {
    applyPresence(parse((event as MessageEvent<string>).data));
  });
  source.addEventListener(accessChanged, (event) => {
    const value = parse((event as MessageEvent<string>).data);
    if (!isRecord(value) || typeof value.dashboardId !== "string") return;
    const access = value.access as Access | null;
    if (!ACCESS.includes(access)) return;
    changeAccess(ctx, value.dashboardId, access);
  });
}
