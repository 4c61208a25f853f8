import type { Config } from "../config.js";
import type { Database } from "../db/client.js";
import type { EventBus } from "./bus.js";
import { createMemoryBus } from "./memory-bus.js";

/** Picks the bus for the run mode (DESIGN section 1): Redis if set, else PostgreSQL, else in-process. */
export async function createBus(config: Config, database: Database): Promise<EventBus> {
  // Loaded only in their mode, like the database drivers (db/client.ts).
  if (config.redisUrl) {
    const { createRedisBus } = await import("./redis-bus.js");
    return createRedisBus(config.redisUrl, config.redisPrefix);
  }
  if (config.databaseUrl && database.pool) {
    const { createPostgresBus } = await import("./postgres-bus.js");
    return createPostgresBus(config.databaseUrl, database.pool);
  }
  return createMemoryBus();
}
