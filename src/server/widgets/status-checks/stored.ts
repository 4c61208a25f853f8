import { and, eq, inArray } from "drizzle-orm";
import type { StatusState, StatusTargetResult } from "../../../contract/data.js";
import type { Db } from "../../db/client.js";
import { alertWatchStates } from "../../db/schema.js";

/**
 * The checks the Status widget's watch pass records, read back: one row per widget and target in
 * `alert_watch_states`, under `status:<target id>`. Moved here from the Status widget's folder
 * (its `statesOf`), so a bookmark's status dot can read a named check without reaching into it.
 */

/** The key a target's last check is kept under, stable across renames (the Status contract's `statusStateKey`). */
export const statusStateKey = (targetId: string) => `status:${targetId}`;

/**
 * A target's memory between passes: its last check, for which address (an edit starts over), and
 * how many checks in a row found no answer in time (absent: none).
 */
export type StoredStatus = StatusState & { url: string; timeouts?: number };

/** A target as a Status widget's config holds it. */
export interface CheckTarget {
  id: string;
  name: string;
  url: string;
}

/** Each target with the state the watch pass last recorded for it (null before its first check). */
export async function storedCheckStates(
  db: Db,
  widgetId: string,
  checks: readonly CheckTarget[],
): Promise<StatusTargetResult[]> {
  const keys = checks.map((t) => statusStateKey(t.id));
  const rows = keys.length
    ? await db
        .select({ key: alertWatchStates.key, state: alertWatchStates.state })
        .from(alertWatchStates)
        .where(and(eq(alertWatchStates.widgetId, widgetId), inArray(alertWatchStates.key, keys)))
    : [];
  const byKey = new Map(rows.map((row) => [row.key, row.state as StoredStatus]));
  return checks.map(({ id, name, url }) => {
    const stored = byKey.get(statusStateKey(id));
    // A state recorded for the target's previous address says nothing about this one.
    if (!stored || stored.url !== url) return { id, name, url, state: null };
    // The address and the timeout count are the pass's bookkeeping, not part of the answer.
    const { url: _checked, timeouts: _timeouts, ...state } = stored;
    return { id, name, url, state };
  });
}
