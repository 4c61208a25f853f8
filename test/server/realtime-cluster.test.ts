import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { SseClient } from "../../bench/realtime/sse-client.js";
import type { BuiltApp } from "../../src/server/app.js";
import type { Config } from "../../src/server/config.js";
import { TestClient } from "../support/client.js";
import { type ModeEnv, prepareMode } from "../support/modes.js";
import { freePort } from "../support/ports.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Two app instances on shared services, each listening on its own port, as behind a load balancer. */
async function twoInstances(mode: ModeEnv, overrides: Partial<Config> = {}) {
  const instances: { built: BuiltApp; base: string }[] = [];
  for (let i = 0; i < 2; i++) {
    const built = await mode.start({ rateLimitEnabled: false, ...overrides });
    instances.push({ built, base: await built.app.listen({ port: 0, host: "127.0.0.1" }) });
  }
  return instances as [(typeof instances)[0], (typeof instances)[0]];
}

describe.each(["postgres+redis", "postgres"] as const)("realtime across two instances (%s)", (modeName) => {
  let mode: ModeEnv;
  const streams: SseClient[] = [];
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await mode?.teardown();
  });

  it("a tab on instance 2 receives what is posted on instance 1, and only its user's events", async () => {
    mode = await prepareMode(modeName);
    const [one, two] = await twoInstances(mode);
    const ada = new TestClient(one.built.app);
    await ada.signUp("Ada");
    const bob = new TestClient(one.built.app);
    await bob.signUp("Bob");

    const adaOnTwo = await SseClient.open(`${two.base}/api/realtime`, { cookie: ada.cookie! });
    const adaOnOne = await SseClient.open(`${one.base}/api/realtime`, { cookie: ada.cookie! });
    const bobOnTwo = await SseClient.open(`${two.base}/api/realtime`, { cookie: bob.cookie! });
    streams.push(adaOnTwo, adaOnOne, bobOnTwo);
    expect([adaOnTwo.status, adaOnOne.status, bobOnTwo.status]).toEqual([200, 200, 200]);

    const sentAt = Date.now();
    const created = await ada.post("/api/notifications", { type: "reminder", message: "from one" });
    expect(created.status).toBe(201);
    await adaOnTwo.waitForEvents(1, 1000);
    await adaOnOne.waitForEvents(1, 1000);
    expect(Date.now() - sentAt).toBeLessThan(1000);
    for (const stream of [adaOnTwo, adaOnOne]) {
      expect(stream.events[0]!.id).toBe(created.body.id);
      expect(JSON.parse(stream.events[0]!.data)).toEqual(created.body);
    }

    // And the other way round, posted on instance 2.
    const back = await new TestClient(two.built.app).post(
      "/api/notifications",
      { type: "message", message: "from two" },
      { authorization: `Bearer ${ada.sessionToken}` },
    );
    await adaOnOne.waitForEvents(2, 1000);
    expect(adaOnOne.events[1]!.id).toBe(back.body.id);
    await sleep(200);
    expect(bobOnTwo.events).toEqual([]);
  });

  it("a sign-out on instance 1 ends that session's stream on instance 2", async () => {
    const [one, two] = await twoInstances(mode);
    const ada = new TestClient(one.built.app);
    await ada.signUp("Ada");
    const stream = await SseClient.open(`${two.base}/api/realtime`, { cookie: ada.cookie! });
    streams.push(stream);
    expect(stream.status).toBe(200);
    const cookie = ada.cookie!;
    expect((await ada.post("/api/auth/sign-out", {})).status).toBe(200);
    await stream.until(() => stream.ended, 2000, "the stream to end");
    // The same message told instance 2 to forget the session it had cached when the stream opened.
    expect((await new TestClient(two.built.app).get("/api/notifications", { cookie })).status).toBe(401);
  });
});

/** A private Redis we may crash and restart without disturbing anyone else's. */
class OwnRedis {
  private child: ChildProcess | null = null;
  private constructor(readonly port: number) {}

  static async start() {
    const redis = new OwnRedis(await freePort());
    await redis.start();
    return redis;
  }

  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start() {
    const child = spawn(
      "redis-server",
      ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (chunk) => {
        out += chunk;
        if (out.includes("Ready to accept connections")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
    });
    child.stdout!.resume();
  }

  /** A crash, not a shutdown: clients see their connections drop. */
  async kill() {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    this.child = null;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }
}

describe("realtime when Redis restarts", () => {
  let mode: ModeEnv;
  let redis: OwnRedis;
  const streams: SseClient[] = [];
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await mode?.teardown();
    await redis?.kill();
  });

  it("keeps streams open, reconnects the bus by itself, and later events still arrive", async () => {
    redis = await OwnRedis.start();
    mode = await prepareMode("postgres");
    const [one, two] = await twoInstances(mode, {
      redisUrl: redis.url,
      redisPrefix: `t-${randomBytes(4).toString("hex")}:`,
    });
    const ada = new TestClient(one.built.app);
    await ada.signUp("Ada");
    const onOne = await SseClient.open(`${one.base}/api/realtime`, { cookie: ada.cookie! });
    const onTwo = await SseClient.open(`${two.base}/api/realtime`, { cookie: ada.cookie! });
    streams.push(onOne, onTwo);
    const before = await ada.post("/api/notifications", { type: "message", message: "before" });
    expect(before.status).toBe(201);
    await onTwo.waitForEvents(1, 1000);

    await redis.kill();
    await sleep(300);
    await redis.start();

    // The store is in Redis too: posts answer 503 until the app's connection is back.
    let after = await ada.post("/api/notifications", { type: "message", message: "after" });
    for (let i = 0; after.status !== 201 && i < 100; i++) {
      expect(after.status).toBe(503);
      await sleep(100);
      after = await ada.post("/api/notifications", { type: "message", message: "after" });
    }
    expect(after.status).toBe(201);
    await onOne.waitForEvents(2, 5000);
    await onTwo.waitForEvents(2, 5000);
    for (const stream of [onOne, onTwo]) {
      expect(stream.events.map((e) => e.id)).toEqual([before.body.id, after.body.id]);
      expect(stream.ended).toBe(false);
    }

    // Fully live again: the next one arrives straight away, across instances.
    const sentAt = Date.now();
    const next = await new TestClient(two.built.app).post(
      "/api/notifications",
      { type: "message", message: "next" },
      { authorization: `Bearer ${ada.sessionToken}` },
    );
    await onOne.waitForEvents(3, 1000);
    expect(onOne.events[2]!.id).toBe(next.body.id);
    expect(Date.now() - sentAt).toBeLessThan(1000);
  });
});
