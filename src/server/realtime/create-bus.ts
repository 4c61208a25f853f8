import type { Config } from "../config.js";
import type { Database } from "../db/client.js";
import type { EventBus } from "./bus.js";
import { createMemoryBus } from "./memory-bus.js";
import { createPostgresBus } from "./postgres-bus.js";
import { createRedisBus } from "./redis-bus.js";

/** Picks the bus for the run mode (DESIGN section 1): Redis if set, else PostgreSQL, else in-process. */
export async function createBus(config: Config, database: Database): Promise<EventBus> {
  if (config.redisUrl) return createRedisBus(config.redisUrl, config.redisPrefix);
  if (config.databaseUrl && database.pool) return createPostgresBus(config.databaseUrl, database.pool);
  return createMemoryBus();
}
