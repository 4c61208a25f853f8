import { and, eq, like } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { alertWatchStates } from "../../db/schema.js";

/**
 * One widget's watch states under one key prefix ("price:", "status:", "mail"), read and locked
 * FOR UPDATE for the caller's transaction, so a concurrent pass on the same widget waits instead
 * of deciding from the same old state (one notification per change, not one per instance).
 */
export interface WatchStates<S> {
  get(key: string): S | undefined;
  save(key: string, state: S): Promise<void>;
  /** Forgets the states whose keys are no longer in the widget's config. */
  keepOnly(keys: Iterable<string>): Promise<void>;
}

export async function lockWatchStates<S>(
  tx: Db,
  widgetId: string,
  prefix: string,
  now: () => number,
): Promise<WatchStates<S>> {
  const rows = await tx
    .select()
    .from(alertWatchStates)
    .where(and(eq(alertWatchStates.widgetId, widgetId), like(alertWatchStates.key, `${prefix}%`)))
    .for("update");
  const states = new Map(rows.map((row) => [row.key, row.state as S]));
  return {
    get: (key) => states.get(key),
    async save(key, state) {
      states.set(key, state);
      await tx
        .insert(alertWatchStates)
        .values({ widgetId, key, state })
        .onConflictDoUpdate({
          target: [alertWatchStates.widgetId, alertWatchStates.key],
          set: { state, updatedAt: new Date(now()) },
        });
    },
    async keepOnly(keys) {
      const keep = new Set(keys);
      for (const row of rows) {
        if (!keep.has(row.key))
          await tx
            .delete(alertWatchStates)
            .where(and(eq(alertWatchStates.widgetId, widgetId), eq(alertWatchStates.key, row.key)));
      }
    },
  };
}
