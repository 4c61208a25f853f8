import { sql } from "drizzle-orm";
import type { Db } from "./client.js";

/**
 * Moves each user's data revision (read by revision-cache.ts) on, in the transaction of a write to
 * their dashboards or widgets, as its last statement: a transaction holding a user's revision row
 * then never waits for another lock, so no deadlock cycle can pass through it. Users in one order,
 * so two writes touching the same users take their rows alike.
 */
export async function bumpRevisions(tx: Db, userIds: Iterable<string>) {
  for (const userId of [...new Set(userIds)].sort()) {
    await tx.execute(sql`
      INSERT INTO data_revisions (user_id, revision) VALUES (${userId}, 1)
      ON CONFLICT (user_id) DO UPDATE SET revision = data_revisions.revision + 1`);
  }
}
