import type { Redis, RedisOptions } from "ioredis";

/**
 * How every command connection of the app talks to Redis: when Redis is away, a command fails at
 * once (503 to the client, /readyz down) instead of waiting in an offline queue for a reconnect,
 * and no command waits longer than COMMAND_TIMEOUT_MS on a Redis that stopped answering.
 * Reconnection goes on in the background with a capped backoff.
 */
export const FAIL_FAST: RedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  connectTimeout: 1000,
  commandTimeout: 1000,
  retryStrategy: (attempt) => Math.min(50 * 2 ** attempt, 2000),
};

/**
 * Opens a command connection and waits for its first attempt, so the first requests find it
 * ready. A Redis that is down at start-up does not stop the app: requests answer 503 until it is back.
 */
export async function openRedis(url: string, options: RedisOptions = {}): Promise<Redis> {
  // Loaded only when there is a Redis: an embedded restart does not pay for ioredis (~70 ms).
  const { Redis } = await import("ioredis");
  const redis = new Redis(url, { ...FAIL_FAST, lazyConnect: true, ...options });
  // A Redis that goes away is reported per request (503) and through /readyz, not as a crash.
  redis.on("error", () => {});
  await redis.connect().catch(() => {});
  return redis;
}
