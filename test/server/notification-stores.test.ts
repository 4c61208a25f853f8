import { Redis } from "ioredis";
import { uuidv7 } from "uuidv7";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Notification } from "../../src/contract/resources.js";
import type { BuiltApp } from "../../src/server/app.js";
import { createRedisNotificationStore } from "../../src/server/notifications/stores/redis.js";
import type { NotificationStore } from "../../src/server/notifications/stores/store.js";
import { signedInClient } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";
import { createRedisNamespace, REDIS_URL } from "../support/services.js";

describe.each(MODES)("notification retention through the API (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    built = await mode.start({ rateLimitEnabled: false });
  });
  afterAll(() => mode.teardown());

  it("after 120 notifications GET returns exactly the 50 newest, newest first, and the store holds 100", async () => {
    const client = await signedInClient(built.app, "Busy");
    for (let i = 1; i <= 120; i++) {
      const res = await client.post("/api/notifications", { type: "message", message: `n${i}` });
      expect(res.status).toBe(201);
    }
    const list = await client.get("/api/notifications");
    expect(list.body).toHaveLength(50);
    expect(list.body.map((n: Notification) => n.message)).toEqual(
      Array.from({ length: 50 }, (_, i) => `n${120 - i}`),
    );
    expect(await built.ctx.notifications.store.count(client.user!.id)).toBe(100);
    const oldestKept = await built.ctx.notifications.after(
      client.user!.id,
      "00000000-0000-0000-0000-000000000000",
    );
    expect(oldestKept[0]!.message).toBe("n21");
    expect(oldestKept.at(-1)!.message).toBe("n120");
  });
});

describe("Redis notification store", () => {
  let redis: Redis;
  let store: NotificationStore;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const ns = await createRedisNamespace();
    cleanup = ns.cleanup;
    redis = new Redis(REDIS_URL);
    store = createRedisNotificationStore(redis, ns.prefix);
  });
  afterAll(async () => {
    redis.disconnect();
    await cleanup();
  });

  const make = (userId: string, message: string): Notification => ({
    id: uuidv7(),
    userId,
    type: "reminder",
    message,
    createdAt: new Date().toISOString(),
  });

  it("keeps the cap even under concurrent writers", async () => {
    await Promise.all(Array.from({ length: 150 }, (_, i) => store.add(make("u-concurrent", `c${i}`))));
    expect(await store.count("u-concurrent")).toBe(100);
  });

  it("replays only ids after the given one, oldest first", async () => {
    const items = [make("u-replay", "a"), make("u-replay", "b"), make("u-replay", "c")];
    for (const n of items) await store.add(n);
    const after = await store.after("u-replay", items[0]!.id);
    expect(after.map((n) => n.message)).toEqual(["b", "c"]);
  });

  it("clears one user without touching another", async () => {
    await store.add(make("u-x", "x"));
    await store.add(make("u-y", "y"));
    await store.clear("u-x");
    expect(await store.count("u-x")).toBe(0);
    expect(await store.count("u-y")).toBe(1);
  });
});
