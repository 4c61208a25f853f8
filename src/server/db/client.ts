import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { HOT_READ_CACHE_BYTES } from "./bounded-cache.js";
import { EmbeddedClient, type EngineThread } from "./embedded/client.js";
import { initialiseDataDir } from "./embedded/init.js";
import { RevisionCache } from "./revision-cache.js";
import * as schema from "./schema.js";
import { transactionSafePool } from "./transaction-pool.js";

export type Schema = typeof schema;
/** One query surface for PGlite and node-postgres; both drivers speak the same Drizzle dialect. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** Applies pending migrations; safe when several instances call it at once. */
  migrate(): Promise<void>;
  /**
   * A hot read of one user's dashboards or widgets (`values[0]` is the user): a fixed statement run
   * by name, prepared once per connection, and answered from memory while that user's data is
   * unchanged (embedded: nothing written since; PostgreSQL: the same data revision,
   * db/revision-cache.ts).
   */
  ownedRead<T>(name: string, text: string, values: [userId: string, ...rest: unknown[]]): Promise<T[]>;
  /** Throws when the database cannot answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** The raw pool in PostgreSQL mode (for LISTEN/NOTIFY); null on PGlite. */
  pool: pg.Pool | null;
  /** The embedded engine's client in embedded mode; null on PostgreSQL. */
  embedded: EmbeddedClient | null;
}

/** The project's drizzle/ folder, found upwards from here: from src/server/db or from dist/server. */
function findMigrations(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, "drizzle");
    if (existsSync(path.join(candidate, "meta/_journal.json"))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("the drizzle/ migrations folder was not found");
    dir = parent;
  }
}
const migrationsFolder = findMigrations();
// Arbitrary but fixed: every instance of Tessera serialises its migrations on this key.
const MIGRATION_LOCK_KEY = 0x7e55e7a;

export interface DatabaseOptions {
  databaseUrl: string | null;
  pgliteDir: string;
  poolSize?: number;
  /** Where the embedded engine runs and whether it uses the household settings (default: worker, tuned). */
  embeddedEngine?: { thread: EngineThread; tuned: boolean; readCache: boolean };
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  return openEmbedded(
    options.pgliteDir,
    options.embeddedEngine ?? { thread: "worker", tuned: true, readCache: true },
  );
}

async function openPostgres(url: string, max: number): Promise<Database> {
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

async function openEmbedded(
  dir: string,
  engine: { thread: EngineThread; tuned: boolean; readCache: boolean },
): Promise<Database> {
  await initialiseDataDir(dir, migrationsFolder, engine.tuned);
  const client = await EmbeddedClient.open({ dir, ...engine });
  // Drizzle's PGlite driver only calls query() and transaction(), which the client provides.
  const db = drizzlePglite({ client: client as unknown as PGlite, schema }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    pool: null,
    embedded: client,
    // PGlite is single-process by design (DESIGN section 1), so no cross-instance lock is needed.
    async migrate() {
      await client.migrate(migrationsFolder);
    },
    ownedRead: (name, text, values) => client.prepared(name, text, values),
    async ping() {
      await client.query("SELECT 1");
    },
    async close() {
      await client.close();
    },
  };
}
