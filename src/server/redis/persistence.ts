import type { FastifyBaseLogger } from "fastify";
import type { Redis } from "ioredis";
import type { ServerState } from "../http/lifecycle.js";

export type Persistence = "aof" | "rdb" | "none" | "unknown";

const ADVICE =
  "a Redis restart loses every notification list; turn on AOF (appendonly yes, appendfsync everysec), see the README";

/**
 * What survives a Redis restart: AOF (every write, fsync'd each second), RDB snapshots (what the
 * last snapshot held), or nothing. Read with CONFIG GET; managed services often disable CONFIG, and
 * then INFO persistence still tells whether AOF is on (the snapshot schedule is not visible there).
 */
export async function readPersistence(redis: Redis): Promise<Persistence> {
  try {
    const [, appendonly] = (await redis.config("GET", "appendonly")) as string[];
    const [, save] = (await redis.config("GET", "save")) as string[];
    if (appendonly === "yes") return "aof";
    return save?.trim() ? "rdb" : "none";
  } catch {
    const info = await redis.info("persistence");
    return /^aof_enabled:1\b/m.test(info) ? "aof" : "unknown";
  }
}

export function persistenceWarning(persistence: Persistence): string | null {
  if (persistence === "none") return `Redis runs without persistence: ${ADVICE}`;
  if (persistence === "unknown")
    return `Redis persistence is unknown (CONFIG is disabled and AOF is off): unless RDB snapshots are on, ${ADVICE}`;
  return null;
}

/** A failed check is tried again after this long, doubling up to RETRY_MAX_MS, while Redis is up. */
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 60_000;

/**
 * Checks persistence whenever the connection becomes ready (Redis may have restarted with another
 * configuration): a warning in the log and in /readyz while it lacks persistence. A check that
 * fails (a command timing out while the machine is busy starting, say) is tried again, so the
 * warning is not lost until the next reconnect. Returns a stop for the app's close.
 */
export function watchRedisPersistence(redis: Redis, state: ServerState, log: FastifyBaseLogger) {
  let reported: string | null = null;
  let retry: NodeJS.Timeout | undefined;
  let retryMs = RETRY_FIRST_MS;
  let stopped = false;
  const check = async () => {
    clearTimeout(retry);
    let warning: string | null;
    try {
      warning = persistenceWarning(await readPersistence(redis));
    } catch (error) {
      log.debug({ err: error }, "could not read Redis persistence");
      if (!stopped && redis.status === "ready") {
        retry = setTimeout(() => void check(), retryMs).unref();
        retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
      }
      return;
    }
    retryMs = RETRY_FIRST_MS;
    if (warning) state.warn("redis-persistence", warning);
    else state.clear("redis-persistence");
    if (warning && warning !== reported) log.warn(warning);
    reported = warning;
  };
  const onReady = () => void check();
  redis.on("ready", onReady);
  if (redis.status === "ready") void check();
  return () => {
    stopped = true;
    clearTimeout(retry);
    redis.off("ready", onReady);
  };
}
