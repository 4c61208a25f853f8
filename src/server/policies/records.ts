import { and, eq, notInArray, type SQL, sql } from "drizzle-orm";
import { userChannel } from "../../contract/notifications.js";
import { PRIVATE_WIDGET_TYPES } from "../../widgets/index.js";
import type { Db } from "../db/client.js";
import { dashboards, widgets } from "../db/schema.js";
import { forbidden } from "../http/errors.js";
import type { Actor, UserActor } from "./actor.js";

/**
 * Who may read or change which records: the one place that decides it. A decision on a loaded
 * dashboard is `can`; queries over many take the same rule as SQL (`dashboardsWhere`) instead of
 * spelling `user_id = $1` themselves, so sharing (and admins) can widen it here, in one place. A
 * record the actor may not see and a record that does not exist look the same: both answer 404.
 */

/**
 * What an actor does with a dashboard: `read` it and its widgets, `edit` it (name, look, widgets,
 * restoring a version), or `manage` it (share, publish, delete).
 */
export type DashboardAction = "read" | "edit" | "manage";

/** What a decision reads of a dashboard: a row, or the Dashboard answer. */
export interface DashboardFacts {
  userId: string;
  isPublic: boolean;
}

const nothing = sql`false`;

/** The owner may do everything with their dashboard; a visitor may read a published one. */
export function can(actor: Actor, action: DashboardAction, dashboard: DashboardFacts): boolean {
  if (actor.kind === "user") return dashboard.userId === actor.user.id;
  return action === "read" && dashboard.isPublic;
}

/** `can` as a condition on the dashboards table: the dashboards the actor may do that with. */
export function dashboardsWhere(actor: Actor, action: DashboardAction): SQL {
  if (actor.kind === "user") return eq(dashboards.userId, actor.user.id);
  return action === "read" ? eq(dashboards.isPublic, true) : nothing;
}

/**
 * Widgets the actor may do that with: those on such dashboards. A visitor never sees private
 * types (they show the owner's connected accounts). A subquery, so callers need no join; when
 * they join dashboards, its own `dashboards` shadows theirs and reads the widget's dashboard.
 */
export function widgetsWhere(actor: Actor, action: DashboardAction): SQL {
  const onAllowed = sql`${widgets.dashboardId} IN (SELECT ${dashboards.id} FROM ${dashboards} WHERE ${dashboardsWhere(actor, action)})`;
  return actor.kind === "user"
    ? onAllowed
    : and(onAllowed, notInArray(widgets.widgetType, [...PRIVATE_WIDGET_TYPES]))!;
}

// The questions most queries ask, by name.
export const readableDashboards = (actor: Actor) => dashboardsWhere(actor, "read");
export const readableWidgets = (actor: Actor) => widgetsWhere(actor, "read");
export const writableWidgets = (actor: Actor) => widgetsWhere(actor, "edit");

/**
 * The actor's own widgets: the spec's `GET /api/widgets` without a dashboard, which stays the
 * caller's own even once others' dashboards can be read. A scope, not a permission.
 */
export function ownWidgets(actor: Actor): SQL {
  return actor.kind === "user" ? eq(widgets.userId, actor.user.id) : nothing;
}

/** The dashboard, when the actor may do that with it; null when not (or when there is none). */
export async function dashboardFor(
  db: Db,
  actor: Actor,
  action: DashboardAction,
  dashboardId: string,
): Promise<typeof dashboards.$inferSelect | null> {
  const [row] = await db.select().from(dashboards).where(eq(dashboards.id, dashboardId)).limit(1);
  return row && can(actor, action, row) ? row : null;
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
  dashboardWhere(db, dashboardId, dashboardsWhere(actor, "read"));

/** Whether the actor may put things on (or point settings at) that dashboard. */
export const mayChangeDashboard = (db: Db, actor: Actor, dashboardId: string) =>
  dashboardWhere(db, dashboardId, dashboardsWhere(actor, "edit"));

/** Realtime channels: a user listens to their own, nobody else's. */
export function assertMayListen(actor: UserActor, channel: string) {
  if (channel !== userChannel(actor.user.id)) throw forbidden("You can only subscribe to your own channel");
}
