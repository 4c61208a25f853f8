import { type AppDeps, type BuiltApp, buildApp } from "../../src/server/app.js";
import type { Config } from "../../src/server/config.js";
import { testConfig } from "./config.js";
import { createPostgresDatabase, createRedisNamespace } from "./services.js";

export type ModeName = "embedded" | "postgres" | "postgres+redis";

/** The run modes of DESIGN section 1; server tests run the same assertions in each. */
export const MODES: ModeName[] = ["embedded", "postgres", "postgres+redis"];

export interface ModeEnv {
  name: ModeName;
  /** Config pointing at this mode's services (overrides applied on top). */
  config(overrides?: Partial<Config>): Config;
  /** Builds an app in this mode; several may be started side by side. */
  start(overrides?: Partial<Config>, deps?: AppDeps): Promise<BuiltApp>;
  teardown(): Promise<void>;
}

/** Prepares a mode's services: a fresh PostgreSQL database and Redis namespace per call. */
export async function prepareMode(name: ModeName): Promise<ModeEnv> {
  const cleanups: (() => Promise<void>)[] = [];
  let overrides: Partial<Config> = {};
  if (name !== "embedded") {
    const database = await createPostgresDatabase();
    cleanups.push(database.drop);
    overrides = { databaseUrl: database.url };
  }
  if (name === "postgres+redis") {
    const redis = await createRedisNamespace();
    cleanups.push(redis.cleanup);
    overrides = { ...overrides, redisUrl: redis.url, redisPrefix: redis.prefix };
  }
  const apps: BuiltApp[] = [];
  const config = (more: Partial<Config> = {}) => testConfig({ ...overrides, ...more });
  return {
    name,
    config,
    async start(more = {}, deps = {}) {
      const built = await buildApp(config(more), deps);
      apps.push(built);
      return built;
    },
    async teardown() {
      for (const built of apps.splice(0)) await built.close();
      for (const cleanup of cleanups.reverse()) await cleanup();
    },
  };
}
