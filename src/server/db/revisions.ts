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

/**
 * After a restore, every user's revision goes past the largest there was before it: an instance
 * still serving may hold lists cached at any revision up to that one, and none of them may pass
 * for the restored data.
 */
export async function revisionsAfterRestore(tx: Db, largestBefore: number) {
  await tx.execute(sql`
    INSERT INTO data_revisions (user_id, revision) SELECT id, ${largestBefore + 1}::bigint FROM "user"
    ON CONFLICT (user_id) DO UPDATE SET revision = excluded.revision`);
}
