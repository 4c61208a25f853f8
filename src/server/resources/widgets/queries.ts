import { and, asc, eq, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import {
  type CreateWidgetInput,
  UpdateWidgetBody,
  type UpdateWidgetInput,
  type Widget,
} from "../../../contract/resources.js";
import type { Applied } from "../../db/changes.js";
import type { Database, Db } from "../../db/client.js";
import { changesFrom } from "../../db/json.js";
import { toWidget, widgetShape } from "../../db/records.js";
import { dashboards, widgets } from "../../db/schema.js";
import { conflict, forbidden } from "../../http/errors.js";
import type { Actor } from "../../policies/actor.js";
import { ownWidgets, provisionedRefusal, readableWidgets, writableWidgets } from "../../policies/records.js";

const shape = widgetShape;

const order = [asc(widgets.createdAt), asc(widgets.id)];

/** All of the user's own widgets, or those of one dashboard (empty when they may not read it). */
export async function listWidgets(db: Db, actor: Actor, dashboardId?: string) {
  const where = dashboardId
    ? and(readableWidgets(actor), eq(widgets.dashboardId, dashboardId))
    : ownWidgets(actor);
  const rows = await db
    .select()
    .from(widgets)
    .where(where)
    .orderBy(...order);
  return rows.map(toWidget);
}

// `user_id = $1` is the cache's key, not a permission: the answer may depend only on rows whose
// writes bump that user's data revision (db/revision-cache.ts). Who may read the dashboard is the
// route's question, asked of policies.
const DASHBOARD_WIDGETS_JSON = `
  SELECT coalesce(json_agg(${shape.sqlObject()} ORDER BY created_at, id), '[]')::text AS json
  FROM widgets WHERE user_id = $1 AND dashboard_id = $2`;

/**
 * The dashboard's widgets, of its owner `userId`, as the finished JSON array text, built by the
 * database in one prepared statement: the hot read of every dashboard view skips query building,
 * row decoding, Date objects and re-serialisation in the server. It yields exactly what
 * `listWidgets` + `toWidget` would (a test holds the two together).
 */
export async function listDashboardWidgetsJson(database: Database, userId: string, dashboardId: string) {
  const [row] = await database.ownedRead<{ json: string }>("dashboard_widgets_json", DASHBOARD_WIDGETS_JSON, [
    userId,
    dashboardId,
  ]);
  return row!.json;
}

export async function createWidget(
  db: Db,
  userId: string,
  input: CreateWidgetInput,
): Promise<Applied<Widget>> {
  const now = new Date();
  const [row] = await db
    .insert(widgets)
    .values({
      id: uuidv7(),
      userId,
      dashboardId: input.dashboardId,
      widgetType: input.widgetType,
      height: input.height,
      width: input.width,
      positionX: input.positionX,
      positionY: input.positionY,
      config: input.config ?? {},
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  const widget = toWidget(row!);
  return { result: widget, changes: [{ kind: "widget.created", widget }] };
}

/**
 * Only geometry and config change; owner, dashboard and type are not accepted fields (spec). With
 * `revision`, the write lands only on that revision, checked in the same statement, so of two
 * writes made on one revision exactly one does; the other finds the stored record newer and is
 * refused with it.
 */
export async function updateWidget(
  db: Db,
  actor: Actor,
  input: UpdateWidgetInput,
): Promise<Applied<Widget | null>> {
  const allowed = and(eq(widgets.id, input.id), writableWidgets(actor));
  const [row] = await db
    .update(widgets)
    .set({ ...changesFrom(UpdateWidgetBody, input), revision: sql`${widgets.revision} + 1` })
    .where(input.revision === undefined ? allowed : and(allowed, eq(widgets.revision, input.revision)))
    .returning();
  if (!row) {
    if (input.revision !== undefined) await refuseIfStale(db, allowed);
    await refuseIfReadable(db, actor, input.id);
    return { result: null, changes: [] };
  }
  const widget = toWidget(row);
  return {
    result: widget,
    changes: [{ kind: "widget.updated", widget, configChanged: input.config !== undefined }],
  };
}

/**
 * A write that found no widget the actor may change: 403 when they may read it (a viewer), so the
 * answer says why; else the caller answers 404, as for a widget that does not exist.
 */
export async function refuseIfReadable(db: Db, actor: Actor, id: string) {
  const [readable] = await db
    .select({ locked: dashboards.provisionLocked })
    .from(widgets)
    .innerJoin(dashboards, eq(dashboards.id, widgets.dashboardId))
    .where(and(eq(widgets.id, id), readableWidgets(actor)))
    .limit(1);
  if (readable?.locked) throw provisionedRefusal();
  if (readable)
    throw forbidden("Viewers cannot change this dashboard's widgets; ask its owner for editor access");
}

/** A conditional write that matched nothing: a 409 with the stored widget when the actor may change it. */
async function refuseIfStale(db: Db, allowed: ReturnType<typeof and>) {
  const [stored] = await db.select().from(widgets).where(allowed).limit(1);
  if (stored) throw conflict("The widget", toWidget(stored));
}

export async function deleteWidget(db: Db, actor: Actor, id: string): Promise<Applied<Widget | null>> {
  const [row] = await db
    .delete(widgets)
    .where(and(eq(widgets.id, id), writableWidgets(actor)))
    .returning();
  if (!row) {
    await refuseIfReadable(db, actor, id);
    return { result: null, changes: [] };
  }
  const widget = toWidget(row);
  return { result: widget, changes: [{ kind: "widget.deleted", widget }] };
}
