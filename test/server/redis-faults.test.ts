import { once } from "node:events";
import { PassThrough } from "node:stream";
import { eq } from "drizzle-orm";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltApp, buildApp } from "../../src/server/app.js";
import { user } from "../../src/server/db/schema.js";
import { signedInClient, TestClient } from "../support/client.js";
import { type ModeEnv, prepareMode } from "../support/modes.js";
import { REDIS_URL } from "../support/services.js";
import { TcpProxy } from "../support/tcp-proxy.js";

/** The bar for the median: well under the 1-2.4 s a request took to fail before. */
const FAIL_FAST_MS = 200;
/** No single attempt may come near the old figures, even on a loaded machine. */
const WORST_MS = 1000;
const redisTarget = { host: new URL(REDIS_URL).hostname, port: Number(new URL(REDIS_URL).port || 6379) };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Times `attempts` requests; each must be a 503 problem with Retry-After. */
async function timeUnavailable(
  send: () => Promise<{ status: number; body: any; headers: any }>,
  attempts = 10,
) {
  const times: number[] = [];
  for (let i = 0; i < attempts; i++) {
    const started = performance.now();
    const res = await send();
    times.push(performance.now() - started);
    expect(res.status).toBe(503);
    expect(res.body.code).toBe("service_unavailable");
    expect(res.headers["retry-after"]).toBeDefined();
  }
  return { median: median(times), max: Math.max(...times) };
}

describe("Redis faults (postgres+redis)", () => {
  let mode: ModeEnv;
  beforeAll(async () => {
    mode = await prepareMode("postgres+redis");
  });
  afterAll(() => mode.teardown());

  it(`fails fast (< ${FAIL_FAST_MS} ms) when Redis is down from the start`, async () => {
    // A port where nothing listens; rate limits (counted in Redis) off so sign-up reaches the session.
    const built = await mode.start({ redisUrl: "redis://127.0.0.1:1", rateLimitEnabled: false });
    const user = await signedInClient(built.app, "Stranded");
    const post = await timeUnavailable(() =>
      user.post("/api/notifications", { type: "message", message: "x" }),
    );
    const ready = await timeUnavailable(() => new TestClient(built.app).get("/readyz"));
    console.log(
      `[redis down from start] POST /api/notifications 503 in median ${post.median.toFixed(1)} ms, max ${post.max.toFixed(1)} ms; ` +
        `/readyz 503 in median ${ready.median.toFixed(1)} ms, max ${ready.max.toFixed(1)} ms (bar: median < ${FAIL_FAST_MS} ms)`,
    );
    for (const figure of [post, ready]) {
      expect(figure.median).toBeLessThan(FAIL_FAST_MS);
      expect(figure.max).toBeLessThan(WORST_MS);
    }
  });

  it(`fails fast (< ${FAIL_FAST_MS} ms) when Redis goes away, and recovers by itself when it is back`, async () => {
    const proxy = new TcpProxy(redisTarget);
    await proxy.start();
    let built: BuiltApp | null = null;
    try {
      built = await mode.start({ redisUrl: proxy.url });
      const user = await signedInClient(built.app, "Survivor");
      expect((await user.post("/api/notifications", { type: "message", message: "before" })).status).toBe(
        201,
      );

      await proxy.stop();
      const post = await timeUnavailable(() =>
        user.post("/api/notifications", { type: "message", message: "during" }),
      );
      const list = await timeUnavailable(() => user.get("/api/notifications"));
      const ready = await timeUnavailable(() => new TestClient(built!.app).get("/readyz"));
      console.log(
        `[redis gone after start] POST 503 median ${post.median.toFixed(1)} ms / max ${post.max.toFixed(1)} ms; ` +
          `GET 503 median ${list.median.toFixed(1)} ms / max ${list.max.toFixed(1)} ms; ` +
          `/readyz 503 median ${ready.median.toFixed(1)} ms / max ${ready.max.toFixed(1)} ms (bar: median < ${FAIL_FAST_MS} ms)`,
      );
      for (const figure of [post, list, ready]) {
        expect(figure.median).toBeLessThan(FAIL_FAST_MS);
        expect(figure.max).toBeLessThan(WORST_MS);
      }

      const back = once(built.ctx.redis!, "ready");
      await proxy.start();
      await back;
      expect((await user.post("/api/notifications", { type: "message", message: "after" })).status).toBe(201);
      const messages = (await user.get("/api/notifications")).body.map((n: { message: string }) => n.message);
      expect(messages).toEqual(["after", "before"]);
    } finally {
      await built?.close();
      await proxy.stop();
    }
  });

  it("refuses an admin's user delete with 503 while Redis is down, deleting nothing; it goes through once Redis is back", async () => {
    const proxy = new TcpProxy(redisTarget);
    await proxy.start();
    let built: BuiltApp | null = null;
    try {
      built = await mode.start({ redisUrl: proxy.url });
      const admin = await signedInClient(built.app, "Admin");
      await built.ctx.database.db.update(user).set({ role: "admin" }).where(eq(user.id, admin.user!.id));
      await built.ctx.sessions.revokeUser(admin.user!.id);
      const leaving = await signedInClient(built.app, "Leaving");
      const id = leaving.user!.id;
      expect((await leaving.post("/api/notifications", { type: "message", message: "kept" })).status).toBe(
        201,
      );
      const list = `${built.ctx.config.redisPrefix}notifications:${id}`;
      expect(await built.ctx.redis!.llen(list)).toBe(1);
      const exists = async () =>
        (await built!.ctx.database.db.select({ id: user.id }).from(user).where(eq(user.id, id))).length;

      await proxy.stop();
      const refused = await admin.delete(`/api/admin/users?id=${id}`);
      expect(refused.status, refused.text).toBe(503);
      expect(refused.body.code).toBe("service_unavailable");
      // Nothing was deleted: the user, their sessions and (once Redis is back) their list remain.
      expect(await exists()).toBe(1);

      const back = once(built.ctx.redis!, "ready");
      await proxy.start();
      await back;
      expect(await built.ctx.redis!.llen(list)).toBe(1);
      expect((await leaving.get("/api/notifications")).body).toHaveLength(1);
      expect((await admin.delete(`/api/admin/users?id=${id}`)).status).toBe(204);
      expect(await exists()).toBe(0);
      expect(await built.ctx.redis!.exists(list)).toBe(0);
    } finally {
      await built?.close();
      await proxy.stop();
    }
  });

  describe("persistence", () => {
    let probe: Redis;
    let aof: boolean;
    let rdb: boolean;
    beforeAll(async () => {
      probe = new Redis(REDIS_URL);
      aof = ((await probe.config("GET", "appendonly")) as string[])[1] === "yes";
      rdb = Boolean(((await probe.config("GET", "save")) as string[])[1]?.trim());
    });
    afterAll(() => probe.disconnect());

    const startLogged = async (redisUrl: string) => {
      const stream = new PassThrough();
      const lines: string[] = [];
      stream.on("data", (chunk) => lines.push(String(chunk)));
      const built = await buildApp(mode.config({ redisUrl, logLevel: "warn" }), { logStream: stream });
      // The check runs once the connection is ready, after the app is built: wait for its line.
      const logged = (text: string) =>
        new Promise<void>((resolve) => {
          if (lines.some((line) => line.includes(text))) resolve();
          stream.on("data", (chunk) => {
            if (String(chunk).includes(text)) resolve();
          });
        });
      return { built, lines, logged };
    };

    it("warns in the log and in /readyz when Redis runs without persistence", async () => {
      const { built, lines, logged } = await startLogged(REDIS_URL);
      try {
        if (!aof && !rdb) await logged("Redis runs without persistence");
        const ready = await new TestClient(built.app).get("/readyz");
        expect(ready.status).toBe(200);
        const warned = lines.some((line) => line.includes("Redis runs without persistence"));
        console.log(
          `[redis persistence] appendonly ${aof ? "yes" : "no"}, save ${rdb ? "set" : "empty"}: warnings ${JSON.stringify(ready.body.warnings)}`,
        );
        if (!aof && !rdb) {
          expect(ready.body.warnings).toEqual([expect.stringContaining("Redis runs without persistence")]);
          expect(warned).toBe(true);
        } else {
          expect(ready.body.warnings).toEqual([]);
          expect(warned).toBe(false);
        }
      } finally {
        await built.close();
      }
    });

    it("tolerates CONFIG being disabled (as managed Redis services do) and reads INFO instead", async () => {
      // Redis itself refuses CONFIG, in order with every other reply, as one with the command
      // renamed away (rename-command CONFIG "") would: the proxy renames it to an unknown command
      // of the same length, so the request's framing stays intact.
      const proxy = new TcpProxy(redisTarget, (chunk) =>
        Buffer.from(chunk.toString("latin1").replace(/\$6\r\nconfig\r\n/gi, "$6\r\nnocfg_\r\n"), "latin1"),
      );
      await proxy.start();
      const { built, lines, logged } = await startLogged(proxy.url);
      try {
        // With AOF on, INFO says so and there is nothing to warn about; without it, the check
        // cannot tell RDB from nothing and says it does not know.
        if (!aof) await logged("Redis persistence is unknown");
        const ready = await new TestClient(built.app).get("/readyz");
        expect(ready.status).toBe(200);
        if (aof) expect(ready.body.warnings).toEqual([]);
        else expect(ready.body.warnings).toEqual([expect.stringContaining("Redis persistence is unknown")]);
        for (const line of lines) expect(line).not.toContain("Redis runs without persistence");
      } finally {
        await built.close();
        await proxy.stop();
      }
    });
  });
});
