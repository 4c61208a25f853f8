import { and, eq, notInArray, type SQL, sql } from "drizzle-orm";
import { userChannel } from "../../contract/notifications.js";
import { PRIVATE_WIDGET_TYPES } from "../../widgets/index.js";
import type { Db } from "../db/client.js";
import { dashboards, widgets } from "../db/schema.js";
import { forbidden } from "../http/errors.js";
import type { Actor, UserActor } from "./actor.js";

/**
 * Who may read or change which records. Queries take these conditions instead of spelling
 * `user_id = $1` themselves, so sharing (and admins) can widen them here, in one place. A record
 * the actor may not see and a record that does not exist look the same: both answer 404.
 */

const nothing = sql`false`;

/** Dashboards the actor may read: their own; a visitor only published ones. */
export function readableDashboards(actor: Actor): SQL {
  return actor.kind === "user" ? eq(dashboards.userId, actor.user.id) : eq(dashboards.isPublic, true);
}

/** Dashboards the actor may change: only their own. */
export function writableDashboards(actor: Actor): SQL {
  return actor.kind === "user" ? eq(dashboards.userId, actor.user.id) : nothing;
}

/** Widgets the actor may read (on dashboards they may read): a visitor never sees private types. */
export function readableWidgets(actor: Actor): SQL {
  return actor.kind === "user"
    ? eq(widgets.userId, actor.user.id)
    : and(notInArray(widgets.widgetType, [...PRIVATE_WIDGET_TYPES]), eq(dashboards.isPublic, true))!;
}

/** Widgets the actor may change: only their own. */
export function writableWidgets(actor: Actor): SQL {
  return actor.kind === "user" ? eq(widgets.userId, actor.user.id) : nothing;
}

async function dashboardWhere(db: Db, dashboardId: string, allowed: SQL): Promise<boolean> {
  const [row] = await db
    .select({ id: dashboards.id })
    .from(dashboards)
    .where(and(eq(dashboards.id, dashboardId), allowed))
    .limit(1);
  return row !== undefined;
}

/** Whether the actor may see that dashboard (and so learn it exists). */
export const mayReadDashboard = (db: Db, actor: Actor, dashboardId: string) =>
  dashboardWhere(db, dashboardId, readableDashboards(actor));

/** Whether the actor may put things on (or point settings at) that dashboard. */
export const mayChangeDashboard = (db: Db, actor: Actor, dashboardId: string) =>
  dashboardWhere(db, dashboardId, writableDashboards(actor));

/** Realtime channels: a user listens to their own, nobody else's. */
export function assertMayListen(actor: UserActor, channel: string) {
  if (channel !== userChannel(actor.user.id)) throw forbidden("You can only subscribe to your own channel");
}
