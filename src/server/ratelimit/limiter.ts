import type { Redis } from "ioredis";

export interface RateLimitResult {
  allowed: boolean;
  /** Milliseconds until the window that refused the request ends. */
  retryAfterMs: number;
}

/** Fixed-window counters, shared through Redis when there is one so every instance counts together. */
export interface RateLimiter {
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult>;
  close(): void;
}

export function createMemoryLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  // Expired windows are dropped periodically so counters for one-off keys do not pile up.
  const sweeper = setInterval(() => {
    const t = now();
    for (const [key, w] of windows) if (w.resetAt <= t) windows.delete(key);
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
    close() {
      clearInterval(sweeper);
    },
  };
}

export function createRedisLimiter(redis: Redis, prefix: string): RateLimiter {
  return {
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
