import type { Redis } from "ioredis";

export interface RateLimitResult {
  allowed: boolean;
  /** Milliseconds until the window that refused the request ends. */
  retryAfterMs: number;
}

/** A bucket of `capacity` tokens refilled at `refill` tokens per `windowMs`, one token a request. */
export interface Bucket {
  capacity: number;
  refill: number;
  windowMs: number;
}

/**
 * Fixed-window counters and token buckets, shared through Redis when there is one so every
 * instance counts together. A bucket lets a burst through (scripts post in bursts) and holds the
 * sustained rate; a window is the simpler budget for everything else.
 */
export interface RateLimiter {
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult>;
  take(key: string, bucket: Bucket): Promise<RateLimitResult>;
  close(): void;
}

/** One step of a bucket: its tokens now, and whether one could be taken. */
export function bucketStep(
  state: { tokens: number; at: number } | undefined,
  bucket: Bucket,
  now: number,
): { tokens: number; at: number; result: RateLimitResult } {
  const perMs = bucket.refill / bucket.windowMs;
  const tokens = state ? Math.min(bucket.capacity, state.tokens + (now - state.at) * perMs) : bucket.capacity;
  if (tokens >= 1) return { tokens: tokens - 1, at: now, result: { allowed: true, retryAfterMs: 0 } };
  return { tokens, at: now, result: { allowed: false, retryAfterMs: Math.ceil((1 - tokens) / perMs) } };
}

/** Milliseconds until an untouched bucket is full again: after that its state is not needed. */
const fullAfterMs = (bucket: Bucket) => Math.ceil((bucket.capacity / bucket.refill) * bucket.windowMs);

export function createMemoryLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const buckets = new Map<string, { tokens: number; at: number; fullAt: number }>();
  // Expired windows and full buckets are dropped periodically so one-off keys do not pile up.
  const sweeper = setInterval(() => {
    const t = now();
    for (const [key, w] of windows) if (w.resetAt <= t) windows.delete(key);
    for (const [key, b] of buckets) if (b.fullAt <= t) buckets.delete(key);
  }, 60_000);
  sweeper.unref();
  return {
    async hit(key, limit, windowMs) {
      const t = now();
      let w = windows.get(key);
      if (!w || w.resetAt <= t) {
        w = { count: 0, resetAt: t + windowMs };
        windows.set(key, w);
      }
      w.count += 1;
      return { allowed: w.count <= limit, retryAfterMs: w.count <= limit ? 0 : w.resetAt - t };
    },
    async take(key, bucket) {
      const t = now();
      const { tokens, at, result } = bucketStep(buckets.get(key), bucket, t);
      buckets.set(key, { tokens, at, fullAt: t + fullAfterMs(bucket) });
      return result;
    },
    close() {
      clearInterval(sweeper);
    },
  };
}

/**
 * bucketStep in Lua, so reading and writing a bucket is one atomic step on Redis however many
 * instances take from it. KEYS[1] the bucket; ARGV capacity, tokens per ms, now, ms until full.
 */
const TAKE_SCRIPT = `
local capacity = tonumber(ARGV[1])
local perMs = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = capacity
if state[1] then
  tokens = math.min(capacity, tonumber(state[1]) + math.max(0, now - tonumber(state[2])) * perMs)
end
local allowed = 0
local retry = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  retry = math.ceil((1 - tokens) / perMs)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {allowed, retry}`;

export function createRedisLimiter(redis: Redis, prefix: string, now: () => number = Date.now): RateLimiter {
  return {
    async take(key, bucket) {
      const [allowed, retry] = (await redis.eval(
        TAKE_SCRIPT,
        1,
        `${prefix}ratelimit:bucket:${key}`,
        bucket.capacity,
        bucket.refill / bucket.windowMs,
        now(),
        fullAfterMs(bucket),
      )) as [number, number];
      return { allowed: allowed === 1, retryAfterMs: retry };
    },
    async hit(key, limit, windowMs) {
      const fullKey = `${prefix}ratelimit:${key}`;
      // INCR and the first PEXPIRE in one round trip; NX keeps the window fixed from its first hit.
      const results = await redis.multi().incr(fullKey).pexpire(fullKey, windowMs, "NX").pttl(fullKey).exec();
      const count = Number(results?.[0]?.[1] ?? 0);
      const ttl = Number(results?.[2]?.[1] ?? windowMs);
      return { allowed: count <= limit, retryAfterMs: count <= limit ? 0 : Math.max(ttl, 1) };
    },
    close() {},
  };
}
