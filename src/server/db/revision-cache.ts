import DataLoader from "dataloader";
import type pg from "pg";
import { BoundedCache, rowsSize } from "./bounded-cache.js";

const CURRENT = "SELECT revision FROM data_revisions WHERE user_id = $1";
const CURRENT_OF_MANY = "SELECT user_id, revision FROM data_revisions WHERE user_id = ANY($1::text[])";

/**
 * The hot reads of one user's dashboards and widgets on PostgreSQL, answered from this instance's
 * memory while that user's revision is unchanged. Every instance writes through `bumpRevisions`
 * (revisions.ts) in the writing transaction, so one indexed read of the revision (READ COMMITTED:
 * the newest committed) tells whether an answer is still current, on this instance or after a
 * write on another: a client reads its own writes wherever the load balancer sends it. A missed
 * answer is read together with its revision in one statement, so both come from one snapshot.
 *
 * The revision checks of requests that arrive in the same turn of the event loop share one query
 * (DataLoader, dispatched on setImmediate): under load a query per request cost more than the
 * rest of the request (its socket write alone was a quarter of the main thread). A check never
 * joins a query already sent, so its snapshot is taken after its request arrived and holds every
 * write committed before it.
 */
export class RevisionCache {
  private readonly entries: BoundedCache<{ revision: number; rows: unknown[] }>;
  private readonly revisions: DataLoader<string, number>;

  constructor(
    private readonly pool: pg.Pool,
    maxBytes: number,
  ) {
    this.entries = new BoundedCache(maxBytes);
    this.revisions = new DataLoader((userIds) => this.currentRevisions(userIds), {
      cache: false,
      batchScheduleFn: (dispatch) => setImmediate(dispatch),
    });
  }

  private async currentRevisions(userIds: readonly string[]): Promise<number[]> {
    const { rows } = await this.pool.query<{ user_id: string; revision: string }>({
      name: "data_revisions",
      text: CURRENT_OF_MANY,
      values: [[...new Set(userIds)]],
    });
    const byUser = new Map(rows.map((row) => [row.user_id, Number(row.revision)]));
    return userIds.map((id) => byUser.get(id) ?? 0);
  }

  /** `text` reads the data of the user `values[0]` (the hot reads aggregate it into one row). */
  async read<T>(name: string, text: string, values: [userId: string, ...rest: unknown[]]): Promise<T[]> {
    const key = `${name}\u0000${JSON.stringify(values)}`;
    const hit = this.entries.get(key);
    if (hit && (await this.revisions.load(values[0])) === hit.revision) return hit.rows as T[];
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
