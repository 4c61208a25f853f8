import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { HOT_READ_CACHE_BYTES } from "./bounded-cache.js";
import type { Database, Db } from "./database.js";
import { migrationsFolder } from "./migrations-folder.js";
import { RevisionCache } from "./revision-cache.js";
import * as schema from "./schema.js";
import { transactionSafePool } from "./transaction-pool.js";

// Arbitrary but fixed: every instance of Tessera serialises its migrations on this key.
const MIGRATION_LOCK_KEY = 0x7e55e7a;

/** PostgreSQL mode (DATABASE_URL): a pool, Drizzle's node-postgres driver, the revision cache. */
export async function openPostgres(url: string, max: number): Promise<Database> {
  // Connecting (or waiting for a free client) may take 10 s: a loaded machine forks backends slowly,
  // and a database that is down still fails the request soon.
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 10_000 });
  // A client that loses its server must not crash the process; the next query reports it. The
  // pool's own "error" covers idle clients only: a checked-out client between two statements of a
  // transaction (or holding pg-boss's start lock) emits on itself, and an unheard "error" throws.
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  const db = drizzleNodePg({ client: transactionSafePool(pool), schema }) as unknown as Db;
  const revisions = new RevisionCache(pool, HOT_READ_CACHE_BYTES);
  return {
    db,
    kind: "postgres",
    pool,
    embedded: null,
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
        try {
          await migrateNodePg(drizzleNodePg({ client, schema }), { migrationsFolder });
        } finally {
          await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
        }
      } finally {
        client.release();
      }
    },
    ownedRead: (name, text, values) => revisions.read(name, text, values),
    async ping() {
      await pool.query("SELECT 1");
    },
    async close() {
      await pool.end();
    },
  };
}
