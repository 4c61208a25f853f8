import { and, asc, eq } from "drizzle-orm";
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
import { widgets } from "../../db/schema.js";
import type { Actor } from "../../policies/actor.js";
import { readableWidgets, writableWidgets } from "../../policies/records.js";

const shape = widgetShape;

const order = [asc(widgets.createdAt), asc(widgets.id)];

/** All of the user's widgets, or those of one dashboard (empty when the dashboard is not theirs). */
export async function listWidgets(db: Db, actor: Actor, dashboardId?: string) {
  const where = dashboardId
    ? and(readableWidgets(actor), eq(widgets.dashboardId, dashboardId))
    : readableWidgets(actor);
  const rows = await db
    .select()
    .from(widgets)
    .where(where)
    .orderBy(...order);
  return rows.map(toWidget);
}

const DASHBOARD_WIDGETS_JSON = `
  SELECT coalesce(json_agg(${shape.sqlObject()} ORDER BY created_at, id), '[]')::text AS json
  FROM widgets WHERE user_id = $1 AND dashboard_id = $2`;

/**
 * The dashboard's widgets as the finished JSON array text, built by the database in one prepared
 * statement: the hot read of every dashboard view skips query building, row decoding, Date objects
 * and re-serialisation in the server. It yields exactly what `listWidgets` + `toWidget` would (a
 * test holds the two together).
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

/** Only geometry and config change; owner, dashboard and type are not accepted fields (spec). */
export async function updateWidget(
  db: Db,
  actor: Actor,
  input: UpdateWidgetInput,
): Promise<Applied<Widget | null>> {
  const [row] = await db
    .update(widgets)
    .set(changesFrom(UpdateWidgetBody, input))
    .where(and(eq(widgets.id, input.id), writableWidgets(actor)))
    .returning();
  if (!row) return { result: null, changes: [] };
  const widget = toWidget(row);
  return {
    result: widget,
    changes: [{ kind: "widget.updated", widget, configChanged: input.config !== undefined }],
  };
}

export async function deleteWidget(db: Db, actor: Actor, id: string): Promise<Applied<Widget | null>> {
  const [row] = await db
    .delete(widgets)
    .where(and(eq(widgets.id, id), writableWidgets(actor)))
    .returning();
  if (!row) return { result: null, changes: [] };
  const widget = toWidget(row);
  return { result: widget, changes: [{ kind: "widget.deleted", widget }] };
}
