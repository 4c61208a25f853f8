import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { DrizzleTransactionLike, Db as IDatabase, PgBoss, Queue } from "pg-boss";
import type { Database, Db } from "../db/client.js";

/**
 * The job queue every instance shares through the database (DESIGN section 11): pg-boss 12, pinned
 * (it declares Node >= 22.12 and warns EBADENGINE on Node 20; our tests cover it on Node 20). Its
 * tables live in their own schema `pgboss`, migrated by pg-boss itself, not by Drizzle.
 *
 * - PostgreSQL: pg-boss runs its statements on the app's pool (no second pool per instance).
 * - Embedded: on the one PGlite session in the database thread, through the client's queue of
 *   requests; its multi-statement blocks go over as one `exec` message.
 */
export interface JobQueue {
  readonly boss: PgBoss;
  /** pg-boss's view of one of the app's transactions: jobs sent or cancelled with it commit with it. */
  in(tx: Db): IDatabase;
  stop(): Promise<void>;
}

export const SCHEMA = "pgboss";

/**
 * A job's lease: if the instance holding it dies (kill -9), the job goes back to the queue after
 * this, at the next supervision pass (SUPERVISE_SECONDS), not after pg-boss's default 15 minutes.
 * Handlers are short (one transaction), so a healthy holder never comes near it.
 */
export const QUEUE_DEFAULTS: Omit<Queue, "name"> = {
  expireInSeconds: 15,
  retryLimit: 8,
  retryDelay: 2,
  retryBackoff: true,
  retryDelayMax: 300,
  // Finished jobs are kept a day for inspection, then pg-boss's maintenance deletes them.
  deleteAfterSeconds: 24 * 3600,
};
const SUPERVISE_SECONDS = 5;

function adapterFor(database: Database): IDatabase {
  if (database.pool) {
    const pool = database.pool;
    return { executeSql: (text: string, values?: unknown[]) => pool.query(text, values) };
  }
  const client = database.embedded!;
  return {
    async executeSql(text: string, values?: unknown[]) {
      if (values?.length) return client.queryOutsideCache(text, values);
      return { rows: await client.exec(text) };
    },
  };
}

// Fixed, like the migration lock: instances serialise the queue's start (and first install) on it.
const START_LOCK_KEY = 0x7e55b055;

/**
 * On PostgreSQL, one instance at a time: instances started together on an empty database would
 * each run pg-boss's CREATE SCHEMA at once, and all but one fail (23505 on pg_namespace). The lock
 * is held on a connection of its own while pg-boss installs through the pool. PGlite has one process.
 */
async function startSerialised(database: Database, start: () => Promise<unknown>) {
  if (!database.pool) return void (await start());
  const client = await database.pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [START_LOCK_KEY]);
    try {
      await start();
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [START_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/** Starts pg-boss on the app's database (its schema is created or migrated on first start). */
export async function openJobQueue(database: Database, log: FastifyBaseLogger): Promise<JobQueue> {
  // Loaded here, not at the top: an embedded instance without alerts never loads it (see Jobs).
  const { PgBoss, fromDrizzle } = await import("pg-boss");
  const boss = new PgBoss({
    db: adapterFor(database),
    backend: database.kind === "pglite" ? "pglite" : "postgres",
    schema: SCHEMA,
    // No cron schedules (yet): the clock monitor and cron workers would only poll for nothing.
    schedule: false,
    supervise: true,
    superviseIntervalSeconds: SUPERVISE_SECONDS,
    // Expiry of a dead holder's lease runs in the monitor step, which pg-boss claims once per
    // monitorIntervalSeconds (60 by default): a reminder held by a killed instance then waited
    // ~70 s, not the lease plus one pass. One instance claims each pass; the job table is small.
    monitorIntervalSeconds: SUPERVISE_SECONDS,
  });
  boss.on("error", (error) => log.error({ err: error }, "job queue error"));
  boss.on("warning", (warning) => log.warn({ warning }, "job queue warning"));
  await startSerialised(database, () => boss.start());
  return {
    boss,
    // Drizzle's execute() answers { rows } on both drivers; its declared type is wider.
    in: (tx) => fromDrizzle(tx as unknown as DrizzleTransactionLike, sql),
    async stop() {
      // Workers finish the batch in hand (bounded), nothing new is fetched; the pool stays ours.
      await boss.stop({ graceful: true, timeout: 5000, close: false });
    },
  };
}
