import { eq } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { DocumentWidget } from "../../contract/dashboard-document.js";
import type { Dashboard, Look, Widget } from "../../contract/resources.js";
import type { Applied, DashboardChange } from "../db/changes.js";
import type { Db } from "../db/client.js";
import { toWidget } from "../db/records.js";
import { dashboards, widgets } from "../db/schema.js";
import { createDashboard, touchDashboard } from "../resources/dashboards/queries.js";

export interface DashboardWithWidgets {
  dashboard: Dashboard;
  widgets: Widget[];
}

/** Widget rows for a document's widgets, in its order (ids are time-ordered within a write). */
export async function insertWidgets(
  tx: Db,
  userId: string,
  dashboardId: string,
  list: readonly DocumentWidget[],
) {
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

const NAME_MAX = 100;

/** The user's dashboard names, lower-cased: names are told apart in any case. */
async function takenNames(tx: Db, userId: string): Promise<Set<string>> {
  const rows = await tx
    .select({ name: dashboards.name })
    .from(dashboards)
    .where(eq(dashboards.userId, userId));
  return new Set(rows.map((row) => row.name.toLowerCase()));
}

/** The first of `stem + suffix(n)` for n = 1, 2… that is not taken, cut to fit NAME_MAX. */
function firstFree(taken: Set<string>, stem: string, suffix: (n: number) => string): string {
  for (let n = 1; ; n++) {
    const end = suffix(n);
    const candidate = `${stem.slice(0, NAME_MAX - end.length).trimEnd()}${end}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

/**
 * `name`, or when the user already has a dashboard called that (in any case), the first free
 * "name (2)", "name (3)"…: two "Home" in the switcher cannot be told apart. A name that already
 * ends in a number counts on from its stem ("Home (2)" taken gives "Home (3)", not "Home (2) (2)").
 */
export async function freeDashboardName(tx: Db, userId: string, name: string): Promise<string> {
  const taken = await takenNames(tx, userId);
  if (!taken.has(name.toLowerCase())) return name;
  return firstFree(taken, name.replace(/ \(\d+\)$/, ""), (n) => ` (${n + 1})`);
}

/**
 * The name of a duplicate: "Home (copy)", then "Home (copy 2)"…; a copy of a copy counts on
 * from the original's name rather than growing "(copy) (copy)".
 */
export async function freeCopyName(tx: Db, userId: string, name: string): Promise<string> {
  const taken = await takenNames(tx, userId);
  const stem = name.replace(/ \(copy(?: \d+)?\)$/, "");
  return firstFree(taken, stem, (n) => (n === 1 ? " (copy)" : ` (copy ${n})`));
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
