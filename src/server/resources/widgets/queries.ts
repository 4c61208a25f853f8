import { and, asc, eq } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { CreateWidgetInput, UpdateWidgetInput, Widget } from "../../../contract/resources.js";
import type { Db } from "../../db/client.js";
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
