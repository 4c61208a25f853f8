import type pg from "pg";
import { BoundedCache, rowsSize } from "./bounded-cache.js";

const CURRENT = "SELECT revision FROM data_revisions WHERE user_id = $1";

/**
 * The hot reads of one user's dashboards and widgets on PostgreSQL, answered from this instance's
 * memory while that user's revision is unchanged. Every instance writes through `bumpRevisions`
 * (revisions.ts) in the writing transaction, so one indexed read of the revision (READ COMMITTED:
 * the newest committed) tells whether an answer is still current, on this instance or after a
 * write on another: a client reads its own writes wherever the load balancer sends it. A missed
 * answer is read together with its revision in one statement, so both come from one snapshot.
 */
export class RevisionCache {
  private readonly entries: BoundedCache<{ revision: number; rows: unknown[] }>;

  constructor(
    private readonly pool: pg.Pool,
    maxBytes: number,
  ) {
    this.entries = new BoundedCache(maxBytes);
  }

  /** `text` reads the data of the user `values[0]` (the hot reads aggregate it into one row). */
  async read<T>(name: string, text: string, values: [userId: string, ...rest: unknown[]]): Promise<T[]> {
    const key = `${name}\u0000${JSON.stringify(values)}`;
    const hit = this.entries.get(key);
    if (hit) {
      const { rows } = await this.pool.query<{ revision: string }>({
        name: "data_revision",
        text: CURRENT,
        values: [values[0]],
      });
      if (Number(rows[0]?.revision ?? 0) === hit.revision) return hit.rows as T[];
    }
    const { rows } = await this.pool.query<{ data_revision: string } & T>({
      name: `${name}_at_revision`,
      text: `SELECT coalesce((${CURRENT}), 0) AS data_revision, read.* FROM (${text}) AS read`,
      values,
    });
    const answer = rows.map(({ data_revision: _, ...row }) => row as T);
    if (rows.length === 0) return answer;
    const revision = Number(rows[0]!.data_revision);
    // A slower read of an older revision must not replace a newer answer.
    const stored = this.entries.get(key);
    if (!stored || stored.revision <= revision)
      this.entries.set(key, { revision, rows: answer }, rowsSize(key, answer));
    return answer;
  }
}
