import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type pg from "pg";
import type { EmbeddedClient } from "./embedded/client.js";
import type * as schema from "./schema.js";

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
  /** How this start created the embedded database (its first start), if it did. */
  created?: { from: "template" | "initdb"; ms: number } | null;
  /** The embedded engine's client in embedded mode; null on PostgreSQL. */
  embedded: EmbeddedClient | null;
}
