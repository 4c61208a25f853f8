import { desc, eq, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import {
  type DashboardDocument,
  DOCUMENT_FORMAT,
  DOCUMENT_VERSION,
} from "../../contract/dashboard-document.js";
import type { ChangesListener, DashboardChange } from "../db/changes.js";
import type { Db } from "../db/client.js";
import { dashboardVersions } from "../db/schema.js";

/** Changes this close to the newest version fold into it: a drag session is one version. */
export const FOLD_MS = 60_000;
export const VERSIONS_KEPT = 50;

const dashboardOf = (change: DashboardChange) =>
  "widget" in change ? change.widget.dashboardId : change.dashboard.id;

/**
 * One statement per write: the database builds the dashboard's document itself and either folds
 * it into the newest version (changed within FOLD_MS, not a restore) or adds a version and trims
 * to the newest VERSIONS_KEPT. Nothing crosses to the server and back: history costs a drag one
 * round trip inside its transaction.
 */
async function record(tx: Db, dashboardId: string, now: Date, fresh: boolean) {
  const at = now.toISOString();
  await tx.execute(sql`
    WITH doc AS (
      SELECT jsonb_build_object(
        'format', ${DOCUMENT_FORMAT}::text, 'version', ${DOCUMENT_VERSION}::int, 'exportedAt', ${at}::text,
        'dashboard', jsonb_build_object('name', d.name),
        'widgets', coalesce((
          SELECT jsonb_agg(jsonb_build_object(
            'widgetType', w.widget_type, 'height', w.height, 'width', w.width,
            'positionX', w.position_x, 'positionY', w.position_y, 'config', w.config
          ) ORDER BY w.created_at, w.id) FROM widgets w WHERE w.dashboard_id = d.id), '[]'::jsonb)
      ) AS document
      FROM dashboards d WHERE d.id = ${dashboardId}
    ),
    newest AS (
      SELECT id, updated_at FROM dashboard_versions WHERE dashboard_id = ${dashboardId}
      ORDER BY created_at DESC, id DESC LIMIT 1
    ),
    folded AS (
      UPDATE dashboard_versions v
      SET document = doc.document, widget_count = jsonb_array_length(doc.document->'widgets'), updated_at = ${at}::timestamptz
      FROM doc, newest
      WHERE v.id = newest.id AND NOT ${fresh}::boolean
        AND newest.updated_at > ${at}::timestamptz - make_interval(secs => ${FOLD_MS / 1000})
      RETURNING v.id
    ),
    added AS (
      INSERT INTO dashboard_versions (id, dashboard_id, document, widget_count, created_at, updated_at)
      SELECT ${uuidv7()}::uuid, ${dashboardId}::uuid, doc.document, jsonb_array_length(doc.document->'widgets'),
             ${at}::timestamptz, ${at}::timestamptz
      FROM doc WHERE NOT EXISTS (SELECT 1 FROM folded)
      RETURNING id
    )
    DELETE FROM dashboard_versions WHERE EXISTS (SELECT 1 FROM added) AND dashboard_id = ${dashboardId} AND id IN (
      SELECT id FROM dashboard_versions WHERE dashboard_id = ${dashboardId}
      ORDER BY created_at DESC, id DESC OFFSET ${VERSIONS_KEPT - 1})`);
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
