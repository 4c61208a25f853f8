import type { PGlite } from "@electric-sql/pglite";
import type { Database, Db } from "./database.js";
import { EmbeddedClient, type EngineThread } from "./embedded/client.js";
import { initialiseDataDir } from "./embedded/init.js";
import { migrationsFolder } from "./migrations-folder.js";
import * as schema from "./schema.js";

export type { Database, Db, Schema } from "./database.js";

export interface DatabaseOptions {
  databaseUrl: string | null;
  pgliteDir: string;
  poolSize?: number;
  /** Where the embedded engine runs and whether it uses the household settings (default: worker, tuned). */
  embeddedEngine?: { thread: EngineThread; tuned: boolean; readCache: boolean };
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  // Each mode loads only its own driver: node-postgres alone is ~50 ms of an embedded restart.
  if (options.databaseUrl) {
    const { openPostgres } = await import("./postgres.js");
    return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  }
  return openEmbedded(
    options.pgliteDir,
    options.embeddedEngine ?? { thread: "worker", tuned: true, readCache: true },
  );
}

async function openEmbedded(
  dir: string,
  engine: { thread: EngineThread; tuned: boolean; readCache: boolean },
): Promise<Database> {
  const created = await initialiseDataDir(dir, migrationsFolder, engine.tuned);
  const client = await EmbeddedClient.open({ dir, ...engine });
  // Drizzle's PGlite driver brings PGlite's own JavaScript: loaded once the database thread has
  // started, so that thread does not wait for it.
  const { drizzle: drizzlePglite } = await import("drizzle-orm/pglite");
  // Drizzle's PGlite driver only calls query() and transaction(), which the client provides.
  const db = drizzlePglite({ client: client as unknown as PGlite, schema }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    pool: null,
    created,
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
