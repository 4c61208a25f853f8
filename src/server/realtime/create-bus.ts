import type { Config } from "../config.js";
import type { Database } from "../db/client.js";
import type { EventBus } from "./bus.js";
import { createMemoryBus } from "./memory-bus.js";

/** Picks the bus for the run mode (DESIGN section 1). */
export async function createBus(_config: Config, _database: Database): Promise<EventBus> {
  return createMemoryBus();
}
