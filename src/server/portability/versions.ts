import { desc, eq, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import {
  type DashboardDocument,
  DOCUMENT_FORMAT,
  DOCUMENT_VERSION,
} from "../../contract/dashboard-document.js";
import type { Author } from "../../contract/sharing.js";
import type { UserLimits } from "../config.js";
import type { ChangesListener, DashboardChange } from "../db/changes.js";
import type { Db } from "../db/client.js";
import { dashboardVersions } from "../db/schema.js";
import { historyBytes, lockUserQuota } from "../policies/limits.js";

export const VERSIONS_KEPT = 50;

const dashboardOf = (change: DashboardChange) =>
  "widget" in change ? change.widget.dashboardId : change.dashboard.id;
const ownerOf = (change: DashboardChange) =>
  "widget" in change ? change.widget.userId : change.dashboard.userId;

/**
 * One statement per write: the database builds the dashboard's document itself and either folds
 * it into the newest version (changed within `foldMs` by the same person, not a restore: a drag
 * session is one version, and each version names who made it) or adds a version and trims to the
 * newest VERSIONS_KEPT. Nothing crosses to the server and back: history costs a drag one round
 * trip inside its transaction. True when it added a version (the owner's history grew).
 */
async function record(
  tx: Db,
  dashboardId: string,
  now: Date,
  fresh: boolean,
  foldMs: number,
  by: Author | null,
): Promise<boolean> {
  const at = now.toISOString();
  const byId = by?.id ?? null;
  const byName = by?.name ?? null;
  const result = (await tx.execute(sql`
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
      SELECT id, updated_at, by_id FROM dashboard_versions WHERE dashboard_id = ${dashboardId}
      ORDER BY created_at DESC, id DESC LIMIT 1
    ),
    folded AS (
      UPDATE dashboard_versions v
      SET document = doc.document, widget_count = jsonb_array_length(doc.document->'widgets'), updated_at = ${at}::timestamptz
      FROM doc, newest
      WHERE v.id = newest.id AND NOT ${fresh}::boolean
        AND newest.updated_at > ${at}::timestamptz - make_interval(secs => ${foldMs / 1000})
        AND newest.by_id IS NOT DISTINCT FROM ${byId}::text
      RETURNING v.id
    ),
    added AS (
      INSERT INTO dashboard_versions (id, dashboard_id, document, widget_count, by_id, by_name, created_at, updated_at)
      SELECT ${uuidv7()}::uuid, ${dashboardId}::uuid, doc.document, jsonb_array_length(doc.document->'widgets'),
             ${byId}::text, ${byName}::text, ${at}::timestamptz, ${at}::timestamptz
      FROM doc WHERE NOT EXISTS (SELECT 1 FROM folded)
      RETURNING id
    ),
    trimmed AS (
      DELETE FROM dashboard_versions WHERE EXISTS (SELECT 1 FROM added) AND dashboard_id = ${dashboardId} AND id IN (
        SELECT id FROM dashboard_versions WHERE dashboard_id = ${dashboardId}
        ORDER BY created_at DESC, id DESC OFFSET ${VERSIONS_KEPT - 1})
    )
    SELECT EXISTS (SELECT 1 FROM added) AS added`)) as unknown as { rows: { added: boolean }[] };
  return result.rows[0]?.added === true;
}

/**
 * Keeps the owner's history, beyond each dashboard's newest version, within `budget` bytes (as
 * serialized, like the configuration quota): the newest are kept while their total fits, across
 * all the owner's dashboards, and the older go. Only an added version can push past the budget (a
 * fold rewrites a newest version, which is not counted), so this runs after one. The owner's quota
 * lock makes racing writes count each other's versions; rows another write holds (a fold, a
 * deleted dashboard) are skipped, not waited for, so holding that lock never waits on a row.
 */
async function trimHistory(tx: Db, userId: string, budget: number) {
  await lockUserQuota(tx, userId);
  await tx.execute(sql`
    WITH ranked AS (
      SELECT v.id, v.created_at, v.document,
             row_number() OVER (PARTITION BY v.dashboard_id ORDER BY v.created_at DESC, v.id DESC) AS place
      FROM dashboard_versions v JOIN dashboards d ON d.id = v.dashboard_id
      WHERE d.user_id = ${userId}
    ),
    older AS (
      SELECT id, sum(octet_length(document::text))
               OVER (ORDER BY created_at DESC, id DESC ROWS UNBOUNDED PRECEDING) AS held
      FROM ranked WHERE place > 1
    )
    DELETE FROM dashboard_versions WHERE id IN (
      SELECT id FROM dashboard_versions WHERE id IN (SELECT id FROM older WHERE held > ${budget})
      FOR UPDATE SKIP LOCKED)`);
}

/**
 * Records each changed dashboard's document in the writing transaction, once per write. A
 * restore always starts a new version, so the state it replaced stays one step back (undo).
 * History counts against its owner (policies/limits.ts historyBytes): without that, restoring
 * and re-creating kept 50 full-quota versions on every dashboard, 97 MiB from a 1 MiB quota.
 */
export function versionRecorder(now: () => number, limits: UserLimits, foldMs: number): ChangesListener {
  const budget = historyBytes(limits);
  return async (tx, changes, origin) => {
    const touched = new Map<string, { fresh: boolean; userId: string }>();
    for (const change of changes) {
      if (change.kind === "dashboard.deleted") continue;
      const fresh = change.kind === "dashboard.updated" && change.restoredFrom !== undefined;
      const id = dashboardOf(change);
      touched.set(id, { fresh: (touched.get(id)?.fresh ?? false) || fresh, userId: ownerOf(change) });
    }
    const at = new Date(now());
    const grown = new Set<string>();
    for (const [dashboardId, { fresh, userId }] of touched)
      if (await record(tx, dashboardId, at, fresh, foldMs, origin.by)) grown.add(userId);
    for (const userId of grown) await trimHistory(tx, userId, budget);
  };
}

export async function listVersions(db: Db, dashboardId: string) {
  const rows = await db
    .select({
      id: dashboardVersions.id,
      createdAt: dashboardVersions.createdAt,
      updatedAt: dashboardVersions.updatedAt,
      widgetCount: dashboardVersions.widgetCount,
      byId: dashboardVersions.byId,
      byName: dashboardVersions.byName,
    })
    .from(dashboardVersions)
    .where(eq(dashboardVersions.dashboardId, dashboardId))
    .orderBy(desc(dashboardVersions.createdAt), desc(dashboardVersions.id));
  return rows.map((r) => ({
    id: r.id,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    widgetCount: r.widgetCount,
    by: r.byId === null ? null : { id: r.byId, name: r.byName ?? "" },
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
