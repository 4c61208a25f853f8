import { asc, desc, eq, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { DashboardDocument } from "../../contract/dashboard-document.js";
import type { ChangesListener, DashboardChange } from "../db/changes.js";
import type { Db } from "../db/client.js";
import { toWidget } from "../db/records.js";
import { dashboards, dashboardVersions, widgets } from "../db/schema.js";
import { documentOf } from "./document.js";

/** Changes this close to the newest version fold into it: a drag session is one version. */
export const FOLD_MS = 60_000;
export const VERSIONS_KEPT = 50;

const dashboardOf = (change: DashboardChange) =>
  "widget" in change ? change.widget.dashboardId : change.dashboard.id;

/** The dashboard's document as it stands inside the transaction, or null once it is gone. */
export async function currentDocument(
  tx: Db,
  dashboardId: string,
  at: Date,
): Promise<DashboardDocument | null> {
  const [dashboard] = await tx
    .select({ name: dashboards.name })
    .from(dashboards)
    .where(eq(dashboards.id, dashboardId));
  if (!dashboard) return null;
  const rows = await tx
    .select()
    .from(widgets)
    .where(eq(widgets.dashboardId, dashboardId))
    .orderBy(asc(widgets.createdAt), asc(widgets.id));
  return documentOf(dashboard, rows.map(toWidget), at);
}

async function record(tx: Db, dashboardId: string, now: Date, fresh: boolean) {
  const document = await currentDocument(tx, dashboardId, now);
  if (!document) return;
  const [newest] = await tx
    .select({ id: dashboardVersions.id, updatedAt: dashboardVersions.updatedAt })
    .from(dashboardVersions)
    .where(eq(dashboardVersions.dashboardId, dashboardId))
    .orderBy(desc(dashboardVersions.createdAt), desc(dashboardVersions.id))
    .limit(1);
  const values = { document, widgetCount: document.widgets.length, updatedAt: now };
  if (newest && !fresh && now.getTime() - newest.updatedAt.getTime() < FOLD_MS) {
    await tx.update(dashboardVersions).set(values).where(eq(dashboardVersions.id, newest.id));
    return;
  }
  await tx.insert(dashboardVersions).values({ id: uuidv7(), dashboardId, createdAt: now, ...values });
  await tx.execute(sql`
    DELETE FROM dashboard_versions WHERE dashboard_id = ${dashboardId} AND id NOT IN (
      SELECT id FROM dashboard_versions WHERE dashboard_id = ${dashboardId}
      ORDER BY created_at DESC, id DESC LIMIT ${VERSIONS_KEPT})`);
}

/**
 * Records each changed dashboard's document in the writing transaction, once per write. A
 * restore always starts a new version, so the state it replaced stays one step back (undo).
 */
export function versionRecorder(now: () => number): ChangesListener {
  return async (tx, changes) => {
    const touched = new Map<string, boolean>();
    for (const change of changes) {
      if (change.kind === "dashboard.deleted") continue;
      const fresh = change.kind === "dashboard.updated" && change.restoredFrom !== undefined;
      const id = dashboardOf(change);
      touched.set(id, (touched.get(id) ?? false) || fresh);
    }
    const at = new Date(now());
    for (const [dashboardId, fresh] of touched) await record(tx, dashboardId, at, fresh);
  };
}

export async function listVersions(db: Db, dashboardId: string) {
  const rows = await db
    .select({
      id: dashboardVersions.id,
      createdAt: dashboardVersions.createdAt,
      updatedAt: dashboardVersions.updatedAt,
      widgetCount: dashboardVersions.widgetCount,
    })
    .from(dashboardVersions)
    .where(eq(dashboardVersions.dashboardId, dashboardId))
    .orderBy(desc(dashboardVersions.createdAt), desc(dashboardVersions.id));
  return rows.map((r) => ({
    id: r.id,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    widgetCount: r.widgetCount,
  }));
}

/** A version's document and the dashboard it belongs to (the caller checks who may see it). */
export async function readVersion(db: Db, versionId: string) {
  const [row] = await db
    .select({ dashboardId: dashboardVersions.dashboardId, document: dashboardVersions.document })
    .from(dashboardVersions)
    .where(eq(dashboardVersions.id, versionId));
  return row ? { dashboardId: row.dashboardId, document: row.document as DashboardDocument } : null;
}
