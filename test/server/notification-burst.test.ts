import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOTIFICATIONS_RETURNED } from "../../src/contract/notifications.js";
import type { BuiltApp } from "../../src/server/app.js";
import {
  type Bucket,
  createMemoryLimiter,
  createRedisLimiter,
  type RateLimiter,
} from "../../src/server/ratelimit/limiter.js";
import { signedInClient } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";
import { createRedisNamespace } from "../support/services.js";

/** The notification budget's shape: a burst of 120, refilled at 60 a minute. */
const BUCKET: Bucket = { capacity: 120, refill: 60, windowMs: 60_000 };

const limiters: [
  string,
  () => Promise<{ limiter: RateLimiter; clock: { t: number }; done(): Promise<void> }>,
][] = [
  [
    "memory",
    async () => {
      const clock = { t: 1_000_000 };
      const limiter = createMemoryLimiter(() => clock.t);
      return { limiter, clock, done: async () => limiter.close() };
    },
  ],
  [
    "redis",
    async () => {
      const clock = { t: 1_000_000 };
      const namespace = await createRedisNamespace();
      const redis = new Redis(namespace.url);
      // Two instances share one bucket through Redis.
      const limiter = createRedisLimiter(redis, namespace.prefix, () => clock.t);
      return {
        limiter,
        clock,
        done: async () => {
          redis.disconnect();
          await namespace.cleanup();
        },
      };
    },
  ],
];

describe.each(limiters)("token bucket (%s)", (_, make) => {
  it("lets a burst of the capacity through, then holds the sustained rate", async () => {
    const { limiter, clock, done } = await make();
    try {
      const burst = await Promise.all(Array.from({ length: 120 }, () => limiter.take("u", BUCKET)));
      expect(burst.every((r) => r.allowed)).toBe(true);
      const refused = await limiter.take("u", BUCKET);
      expect(refused).toEqual({ allowed: false, retryAfterMs: 1000 });
      clock.t += 999;
      expect((await limiter.take("u", BUCKET)).allowed).toBe(false);
      clock.t += 1;
      expect((await limiter.take("u", BUCKET)).allowed).toBe(true);
      expect((await limiter.take("u", BUCKET)).allowed).toBe(false);
      // A minute of quiet refills 60, not more.
      clock.t += 60_000;
      const after = await Promise.all(Array.from({ length: 61 }, () => limiter.take("u", BUCKET)));
      expect(after.filter((r) => r.allowed)).toHaveLength(60);
      // Other keys have their own bucket.
      expect((await limiter.take("v", BUCKET)).allowed).toBe(true);
    } finally {
      await done();
    }
  });
});

describe.each(MODES)("notification bursts (%s)", (modeName) => {
  const clock = { t: Date.now() };
  let mode: ModeEnv;
  let built: BuiltApp;
  beforeAll(async () => {
    mode = await prepareMode(modeName);
    // A clock that moves only when told: the bucket refills by the test's step, not the machine's speed.
    built = await mode.start({ rateLimitEnabled: true }, { clock: () => clock.t });
  });
  afterAll(() => mode.teardown());

  it("accepts a script's burst of 120 notifications, then holds the sustained rate", async () => {
    const client = await signedInClient(built.app, "Script");
    const statuses: number[] = [];
    for (let i = 0; i < 120; i++)
      statuses.push((await client.post("/api/notifications", { type: "message", message: `n${i}` })).status);
    expect(statuses.every((s) => s === 201)).toBe(true);
    const listed = (await client.get("/api/notifications")).body;
    expect(listed).toHaveLength(NOTIFICATIONS_RETURNED);
    expect(listed[0].message).toBe("n119");
    const refused = await client.post("/api/notifications", { type: "message", message: "one more" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBe(1);
    // A second later there is room for one more, at the sustained 60 a minute.
    clock.t += 1000;
    expect((await client.post("/api/notifications", { type: "message", message: "next" })).status).toBe(201);
    expect((await client.post("/api/notifications", { type: "message", message: "too soon" })).status).toBe(
      429,
    );
  });
});
