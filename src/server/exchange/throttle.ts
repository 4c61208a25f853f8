import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Redis } from "ioredis";
import { unavailable } from "../http/errors.js";

/**
 * At most `limit` upstream requests in any window, for all instances together. A request holds
 * one of `limit` slots from before it is sent until `windowMs` after its answer came back: a
 * request can only reach the exchange before its answer does, so any `limit + 1` arrivals span
 * more than a window whatever the network or a busy event loop did to the sending times.
 *
 * A request given up on without an answer (it timed out, the connection broke) may still be on its
 * way: its slot is held `lateMs` longer, a request being assumed to arrive within that long after
 * we stop waiting for it (as long as it was given to answer: UPSTREAM_TIMEOUT_SECONDS).
 */
export interface ThrottleLimits {
  limit: number;
  windowMs: number;
  /** How much longer a slot is held when its request got no answer: it may yet arrive. */
  lateMs: number;
  /**
   * How long a slot stays taken if its holder never releases it (an instance died mid-request):
   * at least the request's deadline, its late margin and a window.
   */
  leaseMs: number;
  /** Requests waiting for a slot; one more is turned away at once. */
  maxQueue: number;
  /** How long a request waits for a slot before giving up. */
  maxWaitMs: number;
}

/** The limits for requests cut off after `upstreamTimeoutMs` (UPSTREAM_TIMEOUT_SECONDS). */
export function throttleLimits(upstreamTimeoutMs: number): ThrottleLimits {
  // The spec's second, plus slack for the app, Redis and the exchange reading slightly different clocks.
  const windowMs = 1050;
  const lateMs = upstreamTimeoutMs;
  return {
    limit: 3,
    windowMs,
    lateMs,
    leaseMs: Math.max(10_000, upstreamTimeoutMs + lateMs + windowMs),
    maxQueue: 30,
    maxWaitMs: 12_000,
  };
}

/** With UPSTREAM_TIMEOUT_SECONDS' default, 5 s. */
export const DEFAULT_LIMITS: ThrottleLimits = throttleLimits(5000);

type Take = { state: "granted" } | { state: "queued" | "refused"; retryInMs: number };

/** Slots and the queue in front of them: in this process, or in Redis to share them. */
export interface SlotStore {
  /** Takes a slot if one is free and `token` is first in line, else joins (or is refused by) the queue. */
  take(token: string, limits: ThrottleLimits): Promise<Take>;
  /** The request is over: its slot frees `holdMs` from now. */
  release(token: string, holdMs: number): Promise<void>;
  /** Stops waiting. */
  leave(token: string): Promise<void>;
}

export function memorySlotStore(now: () => number = Date.now): SlotStore {
  const slots = new Map<string, number>(); // token -> when the slot frees
  const waiters = new Map<string, number>(); // token -> when it gives up; in arrival order
  const prune = (t: number) => {
    for (const [token, at] of slots) if (at <= t) slots.delete(token);
    for (const [token, at] of waiters) if (at <= t) waiters.delete(token);
  };
  return {
    async take(token, { limit, leaseMs, maxQueue, maxWaitMs }) {
      const t = now();
      prune(t);
      let rank = [...waiters.keys()].indexOf(token);
      if (rank < 0) rank = waiters.size;
      if (rank < limit - slots.size) {
        waiters.delete(token);
        slots.set(token, t + leaseMs);
        return { state: "granted" };
      }
      const retryInMs = Math.min(...slots.values()) - t;
      if (!waiters.has(token)) {
        if (waiters.size >= maxQueue) return { state: "refused", retryInMs };
        waiters.set(token, t + maxWaitMs);
      }
      return { state: "queued", retryInMs };
    },
    async release(token, holdMs) {
      if (slots.has(token)) slots.set(token, now() + holdMs);
    },
    async leave(token) {
      waiters.delete(token);
    },
  };
}

// The same as memorySlotStore, atomically, on Redis's clock so instances' clocks need not agree.
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;
const TAKE = `${NOW}
local token, limit, lease = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local maxQueue, maxWait = tonumber(ARGV[4]), tonumber(ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local queued = redis.call('ZCARD', KEYS[2])
local rank = redis.call('ZRANK', KEYS[2], token) or queued
if rank < limit - redis.call('ZCARD', KEYS[1]) then
  redis.call('ZREM', KEYS[2], token)
  redis.call('ZADD', KEYS[1], now + lease, token)
  redis.call('PEXPIRE', KEYS[1], lease)
  return {1, 0}
end
local soonest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
local retryIn = soonest and (tonumber(soonest) - now) or 0
if rank == queued then
  if queued >= maxQueue then return {-1, retryIn} end
  redis.call('ZADD', KEYS[2], now + maxWait, token)
  redis.call('PEXPIRE', KEYS[2], maxWait)
end
return {0, retryIn}`;
const RELEASE = `${NOW}
local hold = tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], 'XX', now + hold, ARGV[1])
if redis.call('PTTL', KEYS[1]) < hold then redis.call('PEXPIRE', KEYS[1], hold) end`;

export function redisSlotStore(redis: Redis, prefix: string): SlotStore {
  const slots = `${prefix}slots`;
  const waiters = `${prefix}waiters`;
  return {
    async take(token, { limit, leaseMs, maxQueue, maxWaitMs }) {
      const [state, retryInMs] = (await redis.eval(
        TAKE,
        2,
        slots,
        waiters,
        token,
        limit,
        leaseMs,
        maxQueue,
        maxWaitMs,
      )) as [number, number];
      if (state === 1) return { state: "granted" };
      return { state: state === 0 ? "queued" : "refused", retryInMs };
    },
    async release(token, holdMs) {
      await redis.eval(RELEASE, 1, slots, token, holdMs);
    },
    async leave(token) {
      await redis.zrem(waiters, token);
    },
  };
}

/**
 * Gives a slot back once the request is over: `answered` when an answer came (the request has
 * arrived), `unanswered` when it timed out or failed (it may still arrive, so it is held longer).
 */
export type Release = (outcome: "answered" | "unanswered") => void;

/** Waits for a slot and answers the function that gives it back. */
export type Throttle = (signal: AbortSignal) => Promise<Release>;

/** Time as the throttle reads and waits on it; tests drive a virtual one. */
export interface ThrottleClock {
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

const realClock: ThrottleClock = {
  now: Date.now,
  sleep: (ms, signal) => sleep(ms, undefined, { signal }).catch(() => {}),
};

/**
 * Past the queue bound, or after waiting too long, the caller gets 503 with Retry-After;
 * an aborted wait (the app closing) ends the same way. A failing store (Redis down) is a 503 too:
 * without it the shared limit cannot be kept.
 */
export function createThrottle(
  store: SlotStore,
  limits: ThrottleLimits = DEFAULT_LIMITS,
  clock: ThrottleClock = realClock,
): Throttle {
  const { limit, windowMs, lateMs, maxQueue, maxWaitMs } = limits;
  const drainSeconds = Math.ceil(((maxQueue / limit) * windowMs) / 1000);
  return async (signal) => {
    const token = randomUUID();
    const giveUpAt = clock.now() + maxWaitMs;
    for (;;) {
      let take: Take;
      try {
        take = await store.take(token, limits);
      } catch {
        throw unavailable("The shared exchange rate limiter is unavailable", 5);
      }
      if (take.state === "granted") {
        let released = false;
        return (outcome) => {
          if (released) return;
          released = true;
          store.release(token, outcome === "answered" ? windowMs : windowMs + lateMs).catch(() => {});
        };
      }
      if (take.state === "refused" || clock.now() >= giveUpAt || signal.aborted) {
        if (take.state === "queued") await store.leave(token).catch(() => {});
        throw unavailable("Too many exchange requests are waiting; try again shortly", drainSeconds);
      }
      // Released slots free at a known time; slots still in flight are looked at again shortly.
      await clock.sleep(Math.min(Math.max(take.retryInMs, 10), 200), signal);
    }
  };
}
