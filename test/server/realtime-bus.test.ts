import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BusMessage, EventBus } from "../../src/server/realtime/bus.js";
import { createMemoryBus } from "../../src/server/realtime/memory-bus.js";
import { createPostgresBus, LISTENER_NAME, pgChannelName } from "../../src/server/realtime/postgres-bus.js";
import { createRedisBus } from "../../src/server/realtime/redis-bus.js";
import { createPostgresDatabase, createRedisNamespace, REDIS_URL } from "../support/services.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Collects what a listener receives, and waits for it. */
function inbox() {
  const received: BusMessage[] = [];
  return {
    received,
    listener: (message: BusMessage) => received.push(message),
    async waitFor(count: number, timeoutMs = 2000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`got ${received.length} of ${count} messages`);
        await sleep(5);
      }
      return received;
    },
  };
}

/** Gives a bus time to deliver what it would wrongly deliver. */
const settle = () => sleep(150);

interface Backend {
  /** A new bus on this backend, as a new app instance would create. */
  make(): EventBus;
  teardown(): Promise<void>;
}

async function memoryBackend(): Promise<Backend> {
  const bus = createMemoryBus();
  return { make: () => bus, teardown: () => bus.close() };
}

async function postgresBackend(): Promise<Backend & { url: string; admin: pg.Pool }> {
  const database = await createPostgresDatabase();
  const pool = new pg.Pool({ connectionString: database.url, max: 3 });
  const admin = new pg.Pool({ connectionString: database.url, max: 1 });
  // The tests terminate connections on purpose; an idle pooled one told so must not become an
  // unhandled error event (the app's own pool has the same listener, in db/client.ts).
  pool.on("error", () => {});
  admin.on("error", () => {});
  const buses: EventBus[] = [];
  return {
    url: database.url,
    admin,
    make() {
      const bus = createPostgresBus(database.url, pool);
      buses.push(bus);
      return bus;
    },
    async teardown() {
      for (const bus of buses) await bus.close();
      await pool.end();
      await admin.end();
      await database.drop();
    },
  };
}

async function redisBackend(): Promise<Backend & { prefix: string; admin: Redis }> {
  const namespace = await createRedisNamespace();
  const admin = new Redis(REDIS_URL);
  const buses: EventBus[] = [];
  return {
    prefix: namespace.prefix,
    admin,
    make() {
      const bus = createRedisBus(namespace.url, namespace.prefix);
      buses.push(bus);
      return bus;
    },
    async teardown() {
      for (const bus of buses) await bus.close();
      admin.disconnect();
      await namespace.cleanup();
    },
  };
}

const BACKENDS = { memory: memoryBackend, postgres: postgresBackend, redis: redisBackend };

describe.each(Object.keys(BACKENDS) as (keyof typeof BACKENDS)[])("the %s bus", (name) => {
  let backend: Backend;
  let bus: EventBus;

  beforeAll(async () => {
    backend = await BACKENDS[name]();
    bus = backend.make();
  });
  afterAll(() => backend.teardown());

  it("delivers to every listener of the channel and to no other channel", async () => {
    const a = inbox();
    const b = inbox();
    const other = inbox();
    const offA = await bus.subscribe("user-1", a.listener);
    const offB = await bus.subscribe("user-1", b.listener);
    const offOther = await bus.subscribe("user-2", other.listener);
    const message = { event: "notification.created", id: "01", data: { n: 1, text: "ünïcode ✓" } };
    await bus.publish("user-1", message);
    await a.waitFor(1);
    await b.waitFor(1);
    await settle();
    expect(a.received).toEqual([message]);
    expect(b.received).toEqual([message]);
    expect(other.received).toEqual([]);
    offA();
    offB();
    offOther();
  });

  it("counts references: the channel stays live until its last listener leaves", async () => {
    const a = inbox();
    const b = inbox();
    const offA = await bus.subscribe("shared", a.listener);
    const offB = await bus.subscribe("shared", b.listener);
    offA();
    offA(); // a second call must not release b's share
    await bus.publish("shared", { event: "e", data: 1 });
    await b.waitFor(1);
    await settle();
    expect(a.received).toHaveLength(0);
    offB();
    await bus.publish("shared", { event: "e", data: 2 });
    await settle();
    expect(b.received).toHaveLength(1);

    // Leaving and coming straight back must end subscribed, whatever order the upstream sees.
    const c = inbox();
    const offC = await bus.subscribe("shared", c.listener);
    offC();
    const offC2 = await bus.subscribe("shared", c.listener);
    await bus.publish("shared", { event: "e", data: 3 });
    await c.waitFor(1);
    expect(c.received[0]!.data).toBe(3);
    offC2();
  });

  it("carries channel names of any length and content", async () => {
    const channel = `user-${"x".repeat(120)}-Ä "quoted"; DROP`;
    const a = inbox();
    const off = await bus.subscribe(channel, a.listener);
    await bus.publish(channel, { event: "e", data: "long" });
    await a.waitFor(1);
    expect(a.received[0]!.data).toBe("long");
    off();
  });

  if (name !== "memory") {
    it("fans out to another instance on the same backend", async () => {
      const second = backend.make();
      const a = inbox();
      const off = await second.subscribe("cross", a.listener);
      await bus.publish("cross", { event: "e", id: "x1", data: { from: "first" } });
      await a.waitFor(1);
      expect(a.received[0]).toEqual({ event: "e", id: "x1", data: { from: "first" } });
      off();
    });
  }
});

describe("the Redis bus upstream", () => {
  let backend: Awaited<ReturnType<typeof redisBackend>>;
  beforeAll(async () => {
    backend = await redisBackend();
  });
  afterAll(() => backend.teardown());

  /** This namespace's bus subscriber connections, as Redis sees them. */
  async function subscribers() {
    const list = (await backend.admin.client("LIST")) as string;
    return list
      .split("\n")
      .filter((line) => line.includes(` name=${backend.prefix}bus-sub `))
      .map((line) => Object.fromEntries(line.split(" ").map((kv) => kv.split("=") as [string, string])));
  }
  const numsub = async (channel: string) =>
    Number(
      ((await backend.admin.pubsub("NUMSUB", `${backend.prefix}bus:${channel}`)) as [string, number])[1],
    );

  it("uses one subscriber connection per instance, however many channels and listeners", async () => {
    const bus = backend.make();
    const offs = [];
    for (let i = 0; i < 30; i++) {
      offs.push(await bus.subscribe(`user-${i}`, () => {}));
      offs.push(await bus.subscribe(`user-${i}`, () => {}));
    }
    let subs = await subscribers();
    expect(subs).toHaveLength(1);
    expect(subs[0]!.sub).toBe("30");
    expect(await numsub("user-7")).toBe(1);

    const second = backend.make();
    await second.subscribe("user-7", () => {});
    subs = await subscribers();
    expect(subs).toHaveLength(2);
    expect(await numsub("user-7")).toBe(2);
    await second.close();

    for (const off of offs) off();
    await sleep(100);
    expect(await numsub("user-7")).toBe(0);
    expect((await subscribers())[0]!.sub).toBe("0");
    await bus.close();
    await sleep(50);
    expect(await subscribers()).toHaveLength(0);
  });

  it("reconnects after losing its connection, subscribes again and asks listeners to resync", async () => {
    const bus = backend.make();
    const a = inbox();
    await bus.subscribe("survivor", a.listener);
    let resyncs = 0;
    bus.onResync!(() => resyncs++);
    const [victim] = await subscribers();
    await backend.admin.client("KILL", "ID", victim!.id!);
    const deadline = Date.now() + 5000;
    while (resyncs === 0 && Date.now() < deadline) await sleep(20);
    expect(resyncs).toBe(1);
    const [replacement] = await subscribers();
    expect(replacement!.id).not.toBe(victim!.id);
    expect(replacement!.sub).toBe("1");
    await bus.publish("survivor", { event: "e", data: "after" });
    await a.waitFor(1);
    expect(a.received[0]!.data).toBe("after");
    await bus.close();
  });
});

describe("the PostgreSQL bus upstream", () => {
  let backend: Awaited<ReturnType<typeof postgresBackend>>;
  beforeAll(async () => {
    backend = await postgresBackend();
  });
  afterAll(() => backend.teardown());

  const listeners = async () =>
    (
      await backend.admin.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1",
        [LISTENER_NAME],
      )
    ).rows;

  it("names channels as short, safe identifiers", () => {
    const name = pgChannelName(`user-${"x".repeat(200)}"; DROP TABLE x; --`);
    expect(name).toMatch(/^tessera_[0-9a-f]{40}$/);
    expect(name).toBe(pgChannelName(`user-${"x".repeat(200)}"; DROP TABLE x; --`));
    expect(pgChannelName("user-a")).not.toBe(pgChannelName("user-b"));
  });

  it("uses one dedicated listening connection per instance", async () => {
    const bus = backend.make();
    for (let i = 0; i < 20; i++) await bus.subscribe(`user-${i}`, () => {});
    expect(await listeners()).toHaveLength(1);
    await bus.close();
    await sleep(50);
    expect(await listeners()).toHaveLength(0);
  });

  it("sends the id alone when the payload is too large for NOTIFY, and refuses one without id", async () => {
    const bus = backend.make();
    const a = inbox();
    await bus.subscribe("big", a.listener);
    const big = "\u0001".repeat(2000); // 12 kB once JSON-escaped
    await bus.publish("big", { event: "notification.created", id: "big-1", data: { message: big } });
    await bus.publish("big", { event: "notification.created", id: "small-1", data: { message: "ok" } });
    await a.waitFor(2);
    expect(a.received).toEqual([
      { event: "notification.created", id: "big-1" },
      { event: "notification.created", id: "small-1", data: { message: "ok" } },
    ]);
    await expect(bus.publish("big", { event: "e", data: big })).rejects.toThrow(/too large/);
    await bus.close();
  });

  it("reconnects after its connection is terminated, LISTENs again and asks listeners to resync", async () => {
    const bus = backend.make();
    const a = inbox();
    await bus.subscribe("survivor", a.listener);
    let resyncs = 0;
    bus.onResync!(() => resyncs++);
    const [victim] = await listeners();
    await backend.admin.query("SELECT pg_terminate_backend($1)", [victim!.pid]);
    const deadline = Date.now() + 5000;
    while (resyncs === 0 && Date.now() < deadline) await sleep(20);
    expect(resyncs).toBe(1);
    const [replacement] = await listeners();
    expect(replacement!.pid).not.toBe(victim!.pid);
    await bus.publish("survivor", { event: "e", data: "after" });
    await a.waitFor(1);
    expect(a.received[0]!.data).toBe("after");
    await bus.close();
  });
});
