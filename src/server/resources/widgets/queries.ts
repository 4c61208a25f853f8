import { and, asc, eq } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { CreateWidgetInput, UpdateWidgetInput, Widget } from "../../../contract/resources.js";
import type { Database, Db } from "../../db/client.js";
import { widgets } from "../../db/schema.js";
import { iso } from "../../http/schemas.js";

type Row = typeof widgets.$inferSelect;

export const toWidget = (row: Row): Widget => ({
  id: row.id,
  userId: row.userId,
  dashboardId: row.dashboardId,
  widgetType: row.widgetType as Widget["widgetType"],
  height: row.height,
  width: row.width,
  positionX: row.positionX,
  positionY: row.positionY,
  config: row.config as Widget["config"],
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

const order = [asc(widgets.createdAt), asc(widgets.id)];

/** All of the user's widgets, or those of one dashboard (empty when the dashboard is not theirs). */
export async function listWidgets(db: Db, userId: string, dashboardId?: string) {
  const where = dashboardId
    ? and(eq(widgets.userId, userId), eq(widgets.dashboardId, dashboardId))
    : eq(widgets.userId, userId);
  const rows = await db
    .select()
    .from(widgets)
    .where(where)
    .orderBy(...order);
  return rows.map(toWidget);
}

/** ISO 8601 UTC with milliseconds, formatted by the database exactly as Date#toISOString would. */
const isoSql = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const DASHBOARD_WIDGETS_JSON = `
  SELECT coalesce(json_agg(json_build_object(
    'id', id, 'userId', user_id, 'dashboardId', dashboard_id, 'widgetType', widget_type,
    'height', height, 'width', width, 'positionX', position_x, 'positionY', position_y, 'config', config,
    'createdAt', ${isoSql("created_at")}, 'updatedAt', ${isoSql("updated_at")}
  ) ORDER BY created_at, id), '[]')::text AS json
  FROM widgets WHERE user_id = $1 AND dashboard_id = $2`;

/**
 * The dashboard's widgets as the finished JSON array text, built by the database in one prepared
 * statement: the hot read of every dashboard view skips query building, row decoding, Date objects
 * and re-serialisation in the server. It yields exactly what `listWidgets` + `toWidget` would (a
 * test holds the two together).
 */
export async function listDashboardWidgetsJson(database: Database, userId: string, dashboardId: string) {
  const [row] = await database.prepared<{ json: string }>("dashboard_widgets_json", DASHBOARD_WIDGETS_JSON, [
    userId,
    dashboardId,
  ]);
  return row!.json;
}

export async function createWidget(db: Db, userId: string, input: CreateWidgetInput) {
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
  return toWidget(row!);
}

/** Only geometry and config change; owner, dashboard and type are not accepted fields (spec). */
export async function updateWidget(db: Db, userId: string, input: UpdateWidgetInput) {
  const patch: Partial<typeof widgets.$inferInsert> = { updatedAt: new Date() };
  if (input.height !== undefined) patch.height = input.height;
  if (input.width !== undefined) patch.width = input.width;
  if (input.positionX !== undefined) patch.positionX = input.positionX;
  if (input.positionY !== undefined) patch.positionY = input.positionY;
  if (input.config !== undefined) patch.config = input.config;
  const [row] = await db
    .update(widgets)
    .set(patch)
    .where(and(eq(widgets.id, input.id), eq(widgets.userId, userId)))
    .returning();
  return row ? toWidget(row) : null;
}

export async function deleteWidget(db: Db, userId: string, id: string) {
  const [row] = await db
    .delete(widgets)
    .where(and(eq(widgets.id, id), eq(widgets.userId, userId)))
    .returning();
  return row ? toWidget(row) : null;
}
