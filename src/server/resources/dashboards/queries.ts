import { and, asc, eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { type Dashboard, DashboardSchema, type Look } from "../../../contract/resources.js";
import type { Access } from "../../../contract/sharing.js";
import type { Applied } from "../../db/changes.js";
import type { Database, Db } from "../../db/client.js";
import { isoSql, jsonShape } from "../../db/json.js";
import { toWidget } from "../../db/records.js";
import { dashboards, user, widgets } from "../../db/schema.js";
import { conflict } from "../../http/errors.js";
import type { Actor } from "../../policies/actor.js";
import {
  answeredAccessSql,
  dashboardsWhere,
  readableDashboards,
  sharedDashboards,
  widgetsWhere,
} from "../../policies/records.js";

type Row = typeof dashboards.$inferSelect;
/** A row with what the answer adds: the caller's access, and the owner when it is not the caller. */
type AnsweredRow = Row & { access: Access; owner?: { id: string; name: string } | null };

const shape = jsonShape(DashboardSchema, getTableColumns(dashboards));
export const toDashboard = ({ owner, ...row }: AnsweredRow) =>
  shape.fromRow(owner ? { ...row, owner } : row) as Dashboard;
const ownDashboard = (row: Row) => toDashboard({ ...row, access: "owner" });

const one = (id: string, allowed: SQL) => and(eq(dashboards.id, id), allowed);

/** The columns of an answer to `actor`: the row, the access, and who owns it when not them. */
function answerColumns(actor: Actor) {
  const me = actor.kind === "user" ? actor.user.id : null;
  return {
    ...getTableColumns(dashboards),
    access: answeredAccessSql(actor),
    owner: sql<{
      id: string;
      name: string;
    } | null>`(SELECT json_build_object('id', ${user.id}, 'name', ${user.name})
      FROM ${user} WHERE ${user.id} = ${dashboards.userId} AND ${dashboards.userId} IS DISTINCT FROM ${me})`,
  };
}

/** The dashboard with that id when the actor may read it: `[]` or `[it]`, like the list. */
export async function listDashboards(db: Db, actor: Actor, id: string) {
  const rows = await db
    .select(answerColumns(actor))
    .from(dashboards)
    .where(one(id, readableDashboards(actor)))
    .limit(1);
  return rows.map(toDashboard);
}

/** The dashboards shared with the actor (not their own), oldest first: `?include=shared`. */
export async function listSharedDashboards(db: Db, actor: Actor) {
  const rows = await db
    .select(answerColumns(actor))
    .from(dashboards)
    .where(sharedDashboards(actor))
    .orderBy(asc(dashboards.createdAt), asc(dashboards.id));
  return rows.map(toDashboard);
}

/** A position in the list: the (createdAt, id) of the last dashboard of the previous page. */
export interface DashboardCursor {
  createdAt: string;
  id: string;
}

const CURSOR_SHAPE =
  /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** Cursors are opaque to clients: base64url of "createdAt|id". */
export const encodeCursor = (raw: string) => Buffer.from(raw).toString("base64url");

export function decodeCursor(cursor: string): DashboardCursor | null {
  const match = CURSOR_SHAPE.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  return match ? { createdAt: match[1]!, id: match[2]! } : null;
}

/** "All of them" when no limit is asked for (the spec's plain list). */
const NO_LIMIT = 2_147_483_647;

// `user_id = $1`: the list is the caller's own (spec), and the cache's key (db/revision-cache.ts).
const DASHBOARDS_PAGE_JSON = `
  WITH page AS (
    SELECT id, user_id, name, is_public, look, revision, provision_key, provision_locked, created_at, updated_at,
           row_number() OVER (ORDER BY created_at, id) AS n
    FROM dashboards
    WHERE user_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) > ($2::timestamptz, $3::uuid))
    ORDER BY created_at, id
    LIMIT $4::bigint + 1)
  SELECT
    coalesce(json_agg(${shape.sqlObject({ access: "'owner'" })} ORDER BY n) FILTER (WHERE n <= $4::bigint), '[]')::text AS json,
    CASE WHEN count(*) > $4::bigint
      THEN (array_agg(${isoSql("created_at")} || '|' || id ORDER BY n DESC) FILTER (WHERE n <= $4::bigint))[1]
    END AS next
  FROM page`;

/**
 * One page of the user's dashboards (oldest first) as finished JSON array text, built by the
 * database in one prepared statement like the widgets list; `next` is the cursor of the following
 * page, null on the last one.
 */
export async function listDashboardsJson(
  database: Database,
  userId: string,
  page: { limit?: number; after?: DashboardCursor | null },
) {
  const [row] = await database.ownedRead<{ json: string; next: string | null }>(
    "dashboards_page_json",
    DASHBOARDS_PAGE_JSON,
    [userId, page.after?.createdAt ?? null, page.after?.id ?? null, page.limit ?? NO_LIMIT],
  );
  return { json: row!.json, next: row!.next === null ? null : encodeCursor(row!.next) };
}

export async function createDashboard(
  db: Db,
  userId: string,
  name: string,
  look: Look = {},
): Promise<Applied<Dashboard>> {
  const now = new Date();
  const [row] = await db
    .insert(dashboards)
    .values({ id: uuidv7(), userId, name, isPublic: false, look, createdAt: now, updatedAt: now })
    .returning();
  const dashboard = ownDashboard(row!);
  return { result: dashboard, changes: [{ kind: "dashboard.created", dashboard }] };
}

/** Every write to a dashboard row moves its revision on (DESIGN section 14). */
const nextRevision = sql`${dashboards.revision} + 1`;

/**
 * Renames it, sets its look, and (managing it) publishes or unpublishes it. With `revision`, the
 * write lands only on that revision, checked in the same statement; else the stored dashboard is
 * answered as a 409.
 */
export async function updateDashboard(
  db: Db,
  actor: Actor,
  id: string,
  patch: { name: string; isPublic?: boolean; look?: Look; revision?: number },
): Promise<Applied<Dashboard | null>> {
  const { revision, ...fields } = patch;
  const allowed = one(id, dashboardsWhere(actor, fields.isPublic === undefined ? "edit" : "manage"));
  const [row] = await db
    .update(dashboards)
    .set({ ...fields, revision: nextRevision, updatedAt: new Date() })
    .where(revision === undefined ? allowed : and(allowed, eq(dashboards.revision, revision)))
    .returning(answerColumns(actor));
  if (!row) {
    const [stored] =
      revision === undefined
        ? []
        : await db.select(answerColumns(actor)).from(dashboards).where(allowed).limit(1);
    if (stored) throw conflict("The dashboard", toDashboard(stored));
    return { result: null, changes: [] };
  }
  const dashboard = toDashboard(row);
  return { result: dashboard, changes: [{ kind: "dashboard.updated", dashboard }] };
}

/**
 * Marks a dashboard as changed now (its widgets were replaced); the caller checked who may, and
 * its answer's access and owner stay as they were.
 */
export async function touchDashboard(db: Db, dashboard: Dashboard): Promise<Dashboard> {
  const [row] = await db
    .update(dashboards)
    .set({ revision: nextRevision, updatedAt: new Date() })
    .where(eq(dashboards.id, dashboard.id))
    .returning();
  return toDashboard({ ...row!, access: dashboard.access, owner: dashboard.owner });
}

/**
 * Widgets go with their dashboard through the foreign key's cascade, and a settings row that
 * pointed at it falls back to null through ON DELETE SET NULL. The change names the widgets that
 * went (read first, in the same transaction when listeners run).
 */
export async function deleteDashboard(db: Db, actor: Actor, id: string): Promise<Applied<Dashboard | null>> {
  const allowed = one(id, dashboardsWhere(actor, "manage"));
  const gone = await db
    .select()
    .from(widgets)
    .where(and(eq(widgets.dashboardId, id), widgetsWhere(actor, "manage")));
  const [row] = await db.delete(dashboards).where(allowed).returning(answerColumns(actor));
  if (!row) return { result: null, changes: [] };
  const dashboard = toDashboard(row);
  return {
    result: dashboard,
    changes: [{ kind: "dashboard.deleted", dashboard, widgets: gone.map(toWidget) }],
  };
}
