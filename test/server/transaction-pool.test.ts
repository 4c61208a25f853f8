import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/server/db/client.js";
import { transactionSafePool } from "../../src/server/db/transaction-pool.js";
import { createPostgresDatabase, POSTGRES_ADMIN_URL } from "../support/services.js";

/** What drizzle's transaction() does with a pool client, and what a cut connection does to it. */
describe("transaction-safe pool", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let admin: pg.Client;
  beforeAll(async () => {
    database = await createPostgresDatabase();
    admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await database.drop();
  });

  const cut = async (client: pg.PoolClient) =>
    admin.query("SELECT pg_terminate_backend($1)", [(client as unknown as { processID: number }).processID]);

  it("gives the pool its place back when BEGIN fails on a cut connection", async () => {
    const pool = new pg.Pool({ connectionString: database.url, max: 1, connectionTimeoutMillis: 2000 });
    pool.on("error", () => {});
    const safe = transactionSafePool(pool);
    try {
      expect(safe instanceof pg.Pool).toBe(true);
      const client = await safe.connect();
      client.on("error", () => {});
      await cut(client);
      await expect(client.query("begin")).rejects.toThrow();
      // drizzle never releases after a failed BEGIN; the one connection must be free anyway.
      const next = await safe.connect();
      expect((await next.query("SELECT 1 AS one")).rows[0].one).toBe(1);
      next.release();
    } finally {
      await pool.end();
    }
  });

  it("does not put a client whose ROLLBACK failed back into use", async () => {
    const pool = new pg.Pool({ connectionString: database.url, max: 1, connectionTimeoutMillis: 2000 });
    pool.on("error", () => {});
    const safe = transactionSafePool(pool);
    try {
      // A second checkout of the same connection: the pool gives each checkout its own release.
      const first = await safe.connect();
      first.release();
      const client = await safe.connect();
      expect(client).toBe(first);
      client.on("error", () => {});
      await client.query("begin");
      await cut(client);
      await expect(client.query("rollback")).rejects.toThrow();
      client.release();
      const next = await safe.connect();
      expect(next).not.toBe(client);
      expect((await next.query("SELECT 1 AS one")).rows[0].one).toBe(1);
      next.release();
      // Ordinary queries through the pool are untouched.
      expect((await safe.query("SELECT 2 AS two")).rows[0].two).toBe(2);
    } finally {
      await pool.end();
    }
  });

  it("survives a checked-out client losing its server between two statements", async () => {
    const opened = await openDatabase({ databaseUrl: database.url, pgliteDir: "unused" });
    try {
      const client = await opened.pool!.connect();
      await client.query("begin");
      // The server ends the connection while no statement is running: pg emits "error" on the
      // client itself, which would throw out of the socket handler if nobody listened.
      const ended = new Promise((resolve) => client.once("end", resolve));
      await cut(client);
      await ended;
      await expect(client.query("SELECT 1")).rejects.toThrow();
      client.release();
      const result = await opened.db.execute(sql`SELECT 1 AS one`);
      expect((result as unknown as { rows: unknown[] }).rows).toEqual([{ one: 1 }]);
    } finally {
      await opened.close();
    }
  });
});
