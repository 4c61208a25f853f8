import { sql } from "drizzle-orm";
import type { UserLimits } from "../config.js";
import type { ChangesListener, DashboardChange } from "../db/changes.js";
import type { Db } from "../db/client.js";
import { limitReached, quotaExceeded } from "../http/errors.js";

const MIB = 1024 * 1024;

function ownerOf(change: DashboardChange): string {
  return "widget" in change ? change.widget.userId : change.dashboard.userId;
}

async function count(tx: Db, query: ReturnType<typeof sql>): Promise<number> {
  const result = (await tx.execute(query)) as unknown as { rows: { n: number | string }[] };
  return Number(result.rows[0]?.n ?? 0);
}

/** Serialized widget and settings configs of the user, in bytes, as stored. */
export function configBytes(tx: Db, userId: string): Promise<number> {
  return count(
    tx,
    sql`SELECT (SELECT coalesce(sum(octet_length(config::text)), 0) FROM widgets WHERE user_id = ${userId})
             + (SELECT coalesce(sum(octet_length(config::text)), 0) FROM settings WHERE user_id = ${userId}) AS n`,
  );
}

/**
 * Takes the user's quota lock for the rest of the transaction. Counting after the write and
 * under this lock means two concurrent creates cannot both see room for one: the second counts
 * once the first has committed (READ COMMITTED reads a new snapshot per statement).
 */
export async function lockUserQuota(tx: Db, userId: string) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`quota:${userId}`}, 0))`);
}

/**
 * Version history a user may hold beyond each dashboard's newest version, as a multiple of their
 * configuration quota. Counted per user, not per dashboard: a bound per dashboard still multiplies
 * by the dashboard count (delete a board's widgets, fill another, restore again). Counted apart from
 * the quota rather than inside it, so history never refuses a write or leaves a full user without
 * undo: past the allowance the user's oldest versions go, and each dashboard's newest (its current
 * state, already within the quota) always stays. Four quotas keep a few undo steps of even a
 * dashboard that fills the whole quota; a typical one keeps its newest 50 long before.
 */
export const HISTORY_QUOTAS = 4;

export const historyBytes = (limits: UserLimits) => HISTORY_QUOTAS * limits.configBytes;

export async function assertConfigQuota(tx: Db, userId: string, limits: UserLimits) {
  const bytes = await configBytes(tx, userId);
  if (bytes > limits.configBytes)
    throw quotaExceeded(
      `Your widgets and settings would hold ${(bytes / MIB).toFixed(1)} MiB of configuration; at most ${limits.configBytes / MIB} MiB per user`,
    );
}

/**
 * What one user may hold (dashboards, widgets per dashboard, configuration bytes), checked inside
 * the writing transaction once per write (an import adds hundreds of widgets in one): a write
 * past a limit is undone and answered 409 or 413.
 */
export function userLimitsListener(limits: UserLimits): ChangesListener {
  return async (tx, changes) => {
    const users = new Set<string>();
    const dashboardsCreated = new Set<string>();
    const widgetsAdded = new Set<string>();
    const bytesChanged = new Set<string>();
    for (const change of changes) {
      const userId = ownerOf(change);
      if (change.kind === "dashboard.created") dashboardsCreated.add(userId);
      else if (change.kind === "widget.created") {
        widgetsAdded.add(change.widget.dashboardId);
        bytesChanged.add(userId);
      } else if (change.kind === "widget.updated" && change.configChanged) bytesChanged.add(userId);
      else continue;
      users.add(userId);
    }
    for (const userId of users) await lockUserQuota(tx, userId);
    for (const userId of dashboardsCreated) {
      const n = await count(tx, sql`SELECT count(*) AS n FROM dashboards WHERE user_id = ${userId}`);
      if (n > limits.dashboards)
        throw limitReached(`At most ${limits.dashboards} dashboards per user; delete one to make room`);
    }
    for (const dashboardId of widgetsAdded) {
      const n = await count(tx, sql`SELECT count(*) AS n FROM widgets WHERE dashboard_id = ${dashboardId}`);
      if (n > limits.widgetsPerDashboard)
        throw limitReached(
          `At most ${limits.widgetsPerDashboard} widgets on one dashboard; remove one or use another dashboard`,
        );
    }
    // Moves and resizes leave the bytes as they were: the drag path skips the sum.
    for (const userId of bytesChanged) await assertConfigQuota(tx, userId, limits);
  };
}
