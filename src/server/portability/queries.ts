import { eq } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { DocumentWidget } from "../../contract/dashboard-document.js";
import type { Dashboard, Look, Widget } from "../../contract/resources.js";
import type { Applied, DashboardChange } from "../db/changes.js";
import type { Db } from "../db/client.js";
import { toWidget } from "../db/records.js";
import { widgets } from "../db/schema.js";
import { createDashboard, touchDashboard } from "../resources/dashboards/queries.js";

export interface DashboardWithWidgets {
  dashboard: Dashboard;
  widgets: Widget[];
}

/** Widget rows for a document's widgets, in its order (ids are time-ordered within a write). */
async function insertWidgets(tx: Db, userId: string, dashboardId: string, list: readonly DocumentWidget[]) {
  if (list.length === 0) return [];
  const now = new Date();
  const rows = await tx
    .insert(widgets)
    .values(
      list.map((w) => ({
        id: uuidv7(),
        userId,
        dashboardId,
        widgetType: w.widgetType,
        height: w.height,
        width: w.width,
        positionX: w.positionX,
        positionY: w.positionY,
        config: w.config,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .returning();
  return rows.map(toWidget).sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** A new dashboard holding the document's widgets: an import or a duplicate. */
export async function createFromDocument(
  tx: Db,
  userId: string,
  name: string,
  list: readonly DocumentWidget[],
  look: Look = {},
): Promise<Applied<DashboardWithWidgets>> {
  const created = await createDashboard(tx, userId, name, look);
  const added = await insertWidgets(tx, userId, created.result.id, list);
  return {
    result: { dashboard: created.result, widgets: added },
    changes: [
      ...created.changes,
      ...added.map((widget): DashboardChange => ({ kind: "widget.created", widget })),
    ],
  };
}

/**
 * The dashboard's widgets replaced by a version's: every one removed, the version's added (its
 * owner's, like every widget on it). The caller checked that the actor may edit the dashboard.
 */
export async function replaceWidgets(
  tx: Db,
  dashboard: Dashboard,
  versionId: string,
  list: readonly DocumentWidget[],
): Promise<Applied<DashboardWithWidgets>> {
  const removed = await tx.delete(widgets).where(eq(widgets.dashboardId, dashboard.id)).returning();
  const added = await insertWidgets(tx, dashboard.userId, dashboard.id, list);
  const touched = await touchDashboard(tx, dashboard);
  return {
    result: { dashboard: touched, widgets: added },
    changes: [
      ...removed.map((row): DashboardChange => ({ kind: "widget.deleted", widget: toWidget(row) })),
      ...added.map((widget): DashboardChange => ({ kind: "widget.created", widget })),
      { kind: "dashboard.updated", dashboard: touched, restoredFrom: versionId },
    ],
  };
}
