import { and, eq, getTableColumns, ne, notInArray, or, type SQL, sql } from "drizzle-orm";
import { userChannel } from "../../contract/notifications.js";
import { type Access, MEMBER_ROLES, type MemberRole } from "../../contract/sharing.js";
import { PRIVATE_WIDGET_TYPES } from "../../widgets/index.js";
import type { Db } from "../db/client.js";
import { dashboards, widgets } from "../db/schema.js";
import { forbidden, notFound, provisioned } from "../http/errors.js";
import type { Actor, UserActor } from "./actor.js";

/**
 * Who may read or change which records: the one place that decides it. A decision on a loaded
 * dashboard is `can`; queries over many take the same rule as SQL (`dashboardsWhere`) instead of
 * spelling `user_id = $1` themselves, so sharing (and admins) can widen it here, in one place. A
 * record the actor may not see and a record that does not exist look the same: both answer 404.
 */

/**
 * What an actor does with a dashboard: `read` it and its widgets, `act` through its widgets (toggle
 * a light: the dashboard itself does not change), `edit` it (name, look, widgets, restoring a
 * version), or `manage` it (share, publish, delete). A provisioned dashboard that is not
 * `editable` is changed only by its file (DESIGN section 17): nobody may `edit` or `manage` it.
 */
export type DashboardAction = "read" | "act" | "edit" | "manage";

/** What a decision reads of a dashboard: a row, or the Dashboard answer. */
export interface DashboardFacts {
  userId: string;
  isPublic: boolean;
  /** A provisioned dashboard its file keeps read-only. */
  provisionLocked?: boolean;
  /** The actor's access as a member, when the row was loaded with `accessSql`; else ownership decides alone. */
  access?: Access | null;
}

const nothing = sql`false`;
const everything = sql`true`;

/**
 * Who may do what (DESIGN section 14): the owner everything; an `editor` member reads and edits;
 * a `viewer` member reads; an admin reads and manages (shares, publishes, deletes) any dashboard
 * but edits only as a member; a visitor reads a published one.
 */
export function can(actor: Actor, action: DashboardAction, dashboard: DashboardFacts): boolean {
  if (actor.kind !== "user") return action === "read" && dashboard.isPublic;
  if (dashboard.provisionLocked && (action === "edit" || action === "manage")) return false;
  if (dashboard.userId === actor.user.id) return true;
  const admin = actor.role === "admin";
  const access = dashboard.access ?? null;
  if (action === "manage") return admin;
  if (action === "read") return admin || access !== null;
  return access === "editor";
}

/**
 * Membership rows (alias `m`) that reach the user: shared with them, with a group of theirs, or
 * with everyone.
 */
function reaches(userId: string): SQL {
  return sql`(m.principal_type = 'everyone'
    OR (m.principal_type = 'user' AND m.principal_id = ${userId})
    OR (m.principal_type = 'group' AND m.principal_id IN (
      SELECT gm.group_id::text FROM group_members gm WHERE gm.user_id = ${userId})))`;
}

/** The dashboards shared with the user, in one of those roles. */
function sharedWith(userId: string, roles: readonly MemberRole[]): SQL {
  const roleList = sql.join(
    roles.map((role) => sql`${role}`),
    sql`, `,
  );
  return sql`${dashboards.id} IN (SELECT m.dashboard_id FROM dashboard_members m WHERE ${reaches(userId)} AND m.role IN (${roleList}))`;
}

/** `can` as a condition on the dashboards table: the dashboards the actor may do that with. */
export function dashboardsWhere(actor: Actor, action: DashboardAction): SQL {
  if (actor.kind !== "user") return action === "read" ? eq(dashboards.isPublic, true) : nothing;
  const admin = actor.role === "admin";
  const own = eq(dashboards.userId, actor.user.id);
  if (action === "read") return admin ? everything : or(own, sharedWith(actor.user.id, MEMBER_ROLES))!;
  const editors = or(own, sharedWith(actor.user.id, ["editor"]))!;
  if (action === "act") return editors;
  const unlocked = eq(dashboards.provisionLocked, false);
  if (action === "manage") return admin ? unlocked : and(own, unlocked)!;
  return and(editors, unlocked)!;
}

/**
 * The actor's access to the dashboard row in scope, as SQL: `owner`, the best role a membership
 * gives, else null (an admin who is no member, a visitor). Answers show that null as `viewer`
 * (`answeredAccessSql`): they read what they may read, and no more.
 */
export function accessSql(actor: Actor): SQL<Access | null> {
  if (actor.kind !== "user") return sql<null>`NULL::text`;
  const userId = actor.user.id;
  return sql<Access | null>`(CASE
    WHEN ${dashboards.userId} = ${userId} THEN 'owner'
    WHEN ${sharedWith(userId, ["editor"])} THEN 'editor'
    WHEN ${sharedWith(userId, ["viewer"])} THEN 'viewer' END)`;
}

export const answeredAccessSql = (actor: Actor): SQL<Access> =>
  sql<Access>`coalesce(${accessSql(actor)}, 'viewer')`;

/** The dashboards shared with the actor that are not their own: `?include=shared`. */
export function sharedDashboards(actor: Actor): SQL {
  if (actor.kind !== "user") return nothing;
  return and(ne(dashboards.userId, actor.user.id), sharedWith(actor.user.id, MEMBER_ROLES))!;
}

/**
 * A refused write's answer: 409 `provisioned` for a dashboard its file keeps read-only, 403 for
 * someone who may read the dashboard, 404 for anyone else.
 */
export async function refuseDashboard(db: Db, actor: Actor, dashboardId: string, what = "Dashboard") {
  const [row] = await db
    .select({ locked: dashboards.provisionLocked })
    .from(dashboards)
    .where(and(eq(dashboards.id, dashboardId), dashboardsWhere(actor, "read")))
    .limit(1);
  if (!row) return notFound(what);
  if (row.locked) return provisionedRefusal();
  return forbidden("Your access to this dashboard does not allow that; ask its owner");
}

export const provisionedRefusal = () =>
  provisioned(
    "This dashboard is provisioned from a file on the server; change it there (or mark it editable: true)",
  );

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
/** Widgets the actor may act through (an editor's, also on a provisioned dashboard). */
export const actionableWidgets = (actor: Actor) => widgetsWhere(actor, "act");

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
): Promise<(typeof dashboards.$inferSelect & { access: Access | null }) | null> {
  const [row] = await db
    .select({ ...getTableColumns(dashboards), access: accessSql(actor) })
    .from(dashboards)
    .where(and(eq(dashboards.id, dashboardId), dashboardsWhere(actor, "read")))
    .limit(1);
  return row && can(actor, action, row) ? row : null;
}

/**
 * The widget's type and stored config, when the actor may read it (on that dashboard, if given):
 * what a widget's data and own routes start from. Null when not, or when there is none.
 */
export async function readableWidget(db: Db, actor: Actor, widgetId: string, dashboardId?: string) {
  const [row] = await db
    .select({ widgetType: widgets.widgetType, config: widgets.config, userId: widgets.userId })
    .from(widgets)
    .where(
      and(
        eq(widgets.id, widgetId),
        dashboardId === undefined ? undefined : eq(widgets.dashboardId, dashboardId),
        readableWidgets(actor),
      ),
    )
    .limit(1);
  return row ?? null;
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
