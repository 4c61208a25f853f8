import type { FastifyBaseLogger } from "fastify";
import { DASHBOARD_RESTORED } from "../../contract/notifications.js";
import type { Dashboard, Widget } from "../../contract/resources.js";
import {
  type Author,
  DASHBOARD_UPDATED,
  type DashboardEvent,
  dashboardChannel,
  WIDGET_CREATED,
  WIDGET_DELETED,
  WIDGET_UPDATED,
} from "../../contract/sharing.js";
import type { DashboardChange, DashboardChanges, WriteOrigin } from "../db/changes.js";
import type { BusMessage, EventBus } from "./bus.js";

/**
 * Between instances only, never sent as such: the dashboard is gone, so every stream watching it
 * tells its client `access.changed` with access null and stops watching.
 */
export const DASHBOARD_DELETED = "dashboard.deleted";

/**
 * What a bus message keeps when its transport drops `data` (PostgreSQL NOTIFY over 8000 bytes):
 * the record, who wrote and from which tab, as `<record id> <author id> <client id>`. A client id
 * has no spaces (http/write-origin.ts) and a record id is a uuid, so the author id is what lies
 * between the first and the last space, whatever it holds.
 */
export interface EventRef {
  recordId: string;
  byId: string | null;
  clientId: string | null;
}

export const encodeRef = (recordId: string, origin: WriteOrigin) =>
  `${recordId} ${origin.by?.id ?? ""} ${origin.clientId ?? ""}`;

export function decodeRef(id: string): EventRef | null {
  const first = id.indexOf(" ");
  const last = id.lastIndexOf(" ");
  if (first < 0 || last === first) return null;
  return {
    recordId: id.slice(0, first),
    byId: id.slice(first + 1, last) || null,
    clientId: id.slice(last + 1) || null,
  };
}

export interface ChannelMessage {
  channel: string;
  message: BusMessage;
}

/**
 * The bus messages of one committed write, in the order it made its changes. A dashboard created
 * by the write has no watchers yet (an import's hundreds of widgets go nowhere). A restore is one
 * `dashboard.updated` (its revision moved on) and one `dashboard.restored` (reload the widgets),
 * instead of an event per widget put back or taken away.
 */
export function dashboardMessages(
  changes: readonly DashboardChange[],
  origin: WriteOrigin,
): ChannelMessage[] {
  const fresh = new Set<string>();
  const folded = new Set<string>();
  for (const change of changes) {
    if (change.kind === "dashboard.created") fresh.add(change.dashboard.id);
    else if (change.kind === "dashboard.deleted") folded.add(change.dashboard.id);
    else if (change.kind === "dashboard.updated" && change.restoredFrom !== undefined)
      folded.add(change.dashboard.id);
  }
  const out: ChannelMessage[] = [];
  const envelope = <T>(dashboardId: string, data: T): DashboardEvent<T> => ({
    dashboardId,
    data,
    by: origin.by,
    clientId: origin.clientId,
  });
  const add = (dashboardId: string, event: string, recordId: string, data: unknown) =>
    out.push({
      channel: dashboardChannel(dashboardId),
      message: { event, id: encodeRef(recordId, origin), data: envelope(dashboardId, data) },
    });

  for (const change of changes) {
    if (change.kind === "dashboard.created") continue;
    if (change.kind === "dashboard.deleted") {
      const dashboardId = change.dashboard.id;
      out.push({
        channel: dashboardChannel(dashboardId),
        message: { event: DASHBOARD_DELETED, id: encodeRef(dashboardId, origin), data: { dashboardId } },
      });
      continue;
    }
    if (change.kind === "dashboard.updated") {
      const { dashboard } = change;
      add(dashboard.id, DASHBOARD_UPDATED, dashboard.id, dashboard);
      if (change.restoredFrom !== undefined)
        add(dashboard.id, DASHBOARD_RESTORED, dashboard.id, { dashboardId: dashboard.id });
      continue;
    }
    const { widget } = change;
    if (fresh.has(widget.dashboardId) || folded.has(widget.dashboardId)) continue;
    if (change.kind === "widget.deleted")
      add(widget.dashboardId, WIDGET_DELETED, widget.id, { id: widget.id, dashboardId: widget.dashboardId });
    else
      add(
        widget.dashboardId,
        change.kind === "widget.created" ? WIDGET_CREATED : WIDGET_UPDATED,
        widget.id,
        widget,
      );
  }
  return out;
}

/**
 * Publishes every committed dashboard and widget write to the dashboards' channels, on every
 * instance. Runs after the commit: a bus that fails is logged, never the write's failure.
 */
export function publishDashboardEvents(changes: DashboardChanges, bus: EventBus, log: FastifyBaseLogger) {
  return changes.onCommitted((committed, origin) => {
    try {
      for (const { channel, message } of dashboardMessages(committed, origin))
        bus.publish(channel, message).catch((error: unknown) => {
          log.warn({ err: error, event: message.event }, "could not publish a dashboard event");
        });
    } catch (error) {
      log.warn({ err: error }, "could not publish a write's dashboard events");
    }
  });
}

/** Loads what a message that lost its `data` on the bus refers to; null when it is gone. */
export interface RecordLoader {
  widget(id: string): Promise<Widget | null>;
  dashboard(id: string): Promise<Dashboard | null>;
  author(userId: string): Promise<Author | null>;
}

/**
 * Puts back the `data` of a dashboard event that arrived without it: the record as it is stored
 * now (a later write's state is as good: revisions order them), with its author and tab from the
 * message id. Null when the record is gone, and for messages this module did not make.
 */
export async function restoreData(
  dashboardId: string,
  message: BusMessage,
  load: RecordLoader,
): Promise<DashboardEvent | { dashboardId: string } | null> {
  const ref = message.id ? decodeRef(message.id) : null;
  if (!ref) return null;
  let data: unknown;
  switch (message.event) {
    case WIDGET_CREATED:
    case WIDGET_UPDATED:
      data = await load.widget(ref.recordId);
      break;
    case DASHBOARD_UPDATED:
      data = await load.dashboard(ref.recordId);
      break;
    case WIDGET_DELETED:
      data = { id: ref.recordId, dashboardId };
      break;
    case DASHBOARD_RESTORED:
      data = { dashboardId };
      break;
    case DASHBOARD_DELETED:
      return { dashboardId };
    default:
      return null;
  }
  if (data === null) return null;
  const by = ref.byId ? await load.author(ref.byId) : null;
  return { dashboardId, data, by, clientId: ref.clientId };
}
