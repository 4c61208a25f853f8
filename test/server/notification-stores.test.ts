import { Redis } from "ioredis";
import { uuidv7 } from "uuidv7";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOTIFICATIONS_RETAINED } from "../../src/contract/notifications.js";
import type { Notification } from "../../src/contract/resources.js";
import type { BuiltApp } from "../../src/server/app.js";
import { type Database, openDatabase } from "../../src/server/db/client.js";
import { user } from "../../src/server/db/schema.js";
import { createRedisNotificationStore } from "../../src/server/notifications/stores/redis.js";
import { createSqlNotificationStore } from "../../src/server/notifications/stores/sql.js";
import type { NotificationStore } from "../../src/server/notifications/stores/store.js";
import { signedInClient } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";
import { createPostgresDatabase, createRedisNamespace, REDIS_URL } from "../support/services.js";

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

/**
 * `remove` in both stores: one notification by id, only the given user's, atomically against
 * concurrent adds (whose trim keeps the newest NOTIFICATIONS_RETAINED).
 */
describe.each(["redis", "postgres"] as const)("removing one notification (%s store)", (kind) => {
  let store: NotificationStore;
  let close: () => Promise<void>;
  let newUser: () => Promise<string>;

  beforeAll(async () => {
    if (kind === "redis") {
      const ns = await createRedisNamespace();
      const redis = new Redis(REDIS_URL);
      store = createRedisNotificationStore(redis, ns.prefix);
      close = async () => {
        redis.disconnect();
        await ns.cleanup();
      };
      newUser = async () => uuidv7();
    } else {
      const created = await createPostgresDatabase();
      const database: Database = await openDatabase({
        databaseUrl: created.url,
        pgliteDir: "",
        poolSize: 10,
      });
      await database.migrate();
      store = createSqlNotificationStore(database.db);
      close = async () => {
        await database.close();
        await created.drop();
      };
      newUser = async () => {
        const id = uuidv7();
        const now = new Date();
        await database.db.insert(user).values({
          id,
          name: "Store",
          email: `store-${id}@example.test`,
          emailVerified: false,
          createdAt: now,
          updatedAt: now,
        });
        return id;
      };
    }
  });
  afterAll(() => close());

  const make = (userId: string, message: string): Notification => ({
    id: uuidv7(),
    userId,
    type: "alert",
    message,
    createdAt: new Date().toISOString(),
  });

  it("removes the one asked for and answers it; null for an unknown id or another user's", async () => {
    const [ada, bob] = [await newUser(), await newUser()];
    const items = [make(ada, "a"), make(ada, 'b "quoted" ünï'), make(ada, "c")];
    for (const n of items) await store.add(n);
    const bobs = make(bob, "bob's");
    await store.add(bobs);

    expect(await store.remove(ada, items[1]!.id)).toEqual(items[1]);
    expect((await store.latest(ada, 10)).map((n) => n.message)).toEqual(["c", "a"]);
    expect(await store.remove(ada, items[1]!.id)).toBeNull();
    expect(await store.remove(ada, uuidv7())).toBeNull();
    expect(await store.remove(ada, bobs.id)).toBeNull();
    expect(await store.latest(bob, 10)).toEqual([bobs]);
    // An id whose text sits inside another field of a notification is not that notification.
    const decoy = make(ada, items[0]!.id);
    await store.add(decoy);
    expect(await store.remove(ada, items[0]!.id)).toEqual(items[0]);
    expect((await store.latest(ada, 10)).map((n) => n.id)).toEqual([decoy.id, items[2]!.id]);
  });

  it(`keeps at most ${NOTIFICATIONS_RETAINED}, none twice, with adds and removes at once`, async () => {
    const userId = await newUser();
    const old: Notification[] = [];
    for (let i = 0; i < NOTIFICATIONS_RETAINED; i++) {
      const n = make(userId, `old-${i}`);
      old.push(n);
      await store.add(n);
    }
    const fresh = Array.from({ length: 60 }, (_, i) => make(userId, `new-${i}`));
    // The newest old ones: the adds' trims never reach them, so each removal must find its item.
    const doomed = old.slice(-30);
    const counts: number[] = [];
    const removed = await Promise.all([
      ...fresh.map(async (n) => {
        await store.add(n);
        counts.push(await store.count(userId));
        return null;
      }),
      ...doomed.map(async (n) => {
        const answer = await store.remove(userId, n.id);
        counts.push(await store.count(userId));
        return answer;
      }),
    ]);
    expect(removed.filter(Boolean)).toHaveLength(doomed.length);
    expect(Math.max(...counts)).toBeLessThanOrEqual(NOTIFICATIONS_RETAINED);
    const kept = await store.latest(userId, NOTIFICATIONS_RETAINED + 10);
    const ids = kept.map((n) => n.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(await store.count(userId));
    expect(ids.length).toBeLessThanOrEqual(NOTIFICATIONS_RETAINED);
    for (const n of fresh) expect(ids).toContain(n.id);
    for (const n of doomed) expect(ids).not.toContain(n.id);
    // Newest first still.
    expect([...ids].sort().reverse()).toEqual(ids);
  });
});
