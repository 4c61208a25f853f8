import { and, asc, eq } from "drizzle-orm";
import { type WidgetType, widgetDefinition } from "../../../widgets/index.js";
import type { Db } from "../../db/client.js";
import { iso } from "../../db/json.js";
import { dashboards, widgets } from "../../db/schema.js";
import { VISITOR } from "../../policies/actor.js";
import { readableDashboards, readableWidgets } from "../../policies/records.js";

export async function readPublicDashboard(db: Db, id: string) {
  const [dashboard] = await db
    .select({
      id: dashboards.id,
      name: dashboards.name,
      look: dashboards.look,
      updatedAt: dashboards.updatedAt,
    })
    .from(dashboards)
    .where(and(eq(dashboards.id, id), readableDashboards(VISITOR)))
    .limit(1);
  if (!dashboard) return null;
  const rows = await db
    .select({
      id: widgets.id,
      widgetType: widgets.widgetType,
      height: widgets.height,
      width: widgets.width,
      positionX: widgets.positionX,
      positionY: widgets.positionY,
      config: widgets.config,
    })
    .from(widgets)
    .innerJoin(dashboards, eq(dashboards.id, widgets.dashboardId))
    .where(and(eq(widgets.dashboardId, id), readableWidgets(VISITOR)))
    .orderBy(asc(widgets.createdAt), asc(widgets.id));
  return {
    id: dashboard.id,
    name: dashboard.name,
    look: dashboard.look,
    updatedAt: iso(dashboard.updatedAt),
    widgets: rows.map((w) => ({
      ...w,
      widgetType: w.widgetType as WidgetType,
      config: publicConfigOf(w.widgetType, w.config),
    })),
  };
}

/**
 * What a visitor may see of a stored config: the one its owner sees (the type's parser, so a
 * legacy config reads the same to both), through the type's public view (Weather: the area, not
 * the spot). A type this version does not know shows nothing of its config.
 */
export function publicConfigOf(type: string, stored: unknown): object {
  const definition = widgetDefinition(type);
  return definition ? definition.publicConfig(definition.parse(stored)) : {};
}
