import { and, asc, eq, notInArray } from "drizzle-orm";
import type { WidgetType } from "../../../contract/widgets.js";
import type { Db } from "../../db/client.js";
import { dashboards, widgets } from "../../db/schema.js";
import { iso } from "../../http/schemas.js";

/** Widget types whose data comes from the owner's connected accounts: never shown publicly. */
export const PRIVATE_WIDGET_TYPES: WidgetType[] = ["Inbox", "Meetings", "Codehost", "Codehost Heatmap"];

/**
 * The config of one widget of the given type on a public dashboard, or null when the dashboard
 * is not public or holds no such widget: the one check behind every public widget-data route.
 */
export async function readPublicWidgetConfig(
  db: Db,
  dashboardId: string,
  widgetId: string,
  type: WidgetType,
) {
  const [row] = await db
    .select({ config: widgets.config })
    .from(widgets)
    .innerJoin(dashboards, eq(dashboards.id, widgets.dashboardId))
    .where(
      and(
        eq(widgets.id, widgetId),
        eq(widgets.dashboardId, dashboardId),
        eq(widgets.widgetType, type),
        eq(dashboards.isPublic, true),
      ),
    )
    .limit(1);
  return row ? ((row.config ?? {}) as Record<string, unknown>) : null;
}

export async function readPublicDashboard(db: Db, id: string) {
  const [dashboard] = await db
    .select({ id: dashboards.id, name: dashboards.name, updatedAt: dashboards.updatedAt })
    .from(dashboards)
    .where(and(eq(dashboards.id, id), eq(dashboards.isPublic, true)))
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
    .where(and(eq(widgets.dashboardId, id), notInArray(widgets.widgetType, PRIVATE_WIDGET_TYPES)))
    .orderBy(asc(widgets.createdAt), asc(widgets.id));
  return {
    id: dashboard.id,
    name: dashboard.name,
    updatedAt: iso(dashboard.updatedAt),
    widgets: rows.map((w) => ({
      ...w,
      widgetType: w.widgetType as WidgetType,
      config: w.widgetType === "Weather" ? coarseLocation(w.config) : (w.config as object),
    })),
  };
}

/**
 * A Weather widget may hold the owner's exact position (from the browser); the public view shows
 * the weather of the area, never the spot: coordinates are cut to two decimals (about 1 km).
 */
export function coarseLocation(config: unknown): { location?: { latitude?: unknown; longitude?: unknown } } {
  const c = (config ?? {}) as { location?: { latitude?: unknown; longitude?: unknown } };
  const loc = c.location;
  if (!loc || typeof loc !== "object") return c;
  const round = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? Math.round(v * 100) / 100 : v);
  return { ...c, location: { ...loc, latitude: round(loc.latitude), longitude: round(loc.longitude) } };
}
