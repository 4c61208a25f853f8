import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import pg from "pg";

/** The real services the suite runs against; `.ci/run` starts them, as the README says. */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
export const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** A fresh, empty PostgreSQL database for one test file; drop() removes it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `tessera_t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL} (${(error as Error).message}). Start it as the README says.`,
    );
  }
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** A key prefix no other test file uses, so files can share one Redis; cleanup() deletes its keys. */
export async function createRedisNamespace(): Promise<{
  url: string;
  prefix: string;
  cleanup: () => Promise<void>;
}> {
  const prefix = `tessera-t-${randomBytes(6).toString("hex")}:`;
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await probe.connect();
    await probe.ping();
  } catch (error) {
    probe.disconnect();
    throw new Error(
      `Redis is not reachable at ${REDIS_URL} (${(error as Error).message}). Start it as the README says.`,
    );
  }
  return {
    url: REDIS_URL,
    prefix,
    async cleanup() {
      const keys = await probe.keys(`${prefix}*`);
      if (keys.length > 0) await probe.del(...keys);
      probe.disconnect();
    },
  };
}
