import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { signedInClient, type TestClient } from "../support/client.js";
import { type ModeEnv, prepareMode } from "../support/modes.js";

/** The point of the session cache: an authenticated read costs its own query and nothing for the session. */
describe("session lookups", () => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let user: TestClient;
  let dashboardId: string;

  beforeAll(async () => {
    mode = await prepareMode("postgres+redis");
    built = await mode.start();
    user = await signedInClient(built.app, "Counted");
    dashboardId = (await user.post("/api/dashboards", { name: "Counted" })).body.id;
    await user.post("/api/widgets", {
      dashboardId,
      widgetType: "Clock",
      height: 100,
      width: 100,
      positionX: 0,
      positionY: 0,
    });
  });
  afterAll(() => mode.teardown());

  it("cost no database round trip once cached: one query per widget list request", async () => {
    // The job queue's workers poll on the same pool; stopped here, only the requests are counted.
    await built.ctx.jobs.stop();
    const pool = built.ctx.database.pool!;
    let queries = 0;
    const count = () => queries++;
    pool.on("acquire", count);
    try {
      for (let i = 0; i < 10; i++) {
        const res = await user.get(`/api/widgets?dashboardId=${dashboardId}`);
        expect(res.status).toBe(200);
        expect(res.body).toHaveLength(1);
      }
    } finally {
      pool.off("acquire", count);
    }
    expect(queries).toBe(10);
  });

  it("with the cache off, each request also looks the session up", async () => {
    const uncached = await mode.start({ sessionCacheTtlMs: 0 });
    // As above: the job queue's workers poll on the same pool.
    await uncached.ctx.jobs.stop();
    const pool = uncached.ctx.database.pool!;
    const other = await signedInClient(uncached.app, "Uncached");
    let queries = 0;
    const count = () => queries++;
    pool.on("acquire", count);
    try {
      for (let i = 0; i < 5; i++) expect((await other.get("/api/dashboards")).status).toBe(200);
    } finally {
      pool.off("acquire", count);
    }
    expect(queries).toBe(10);
  });

  it("finds a cached session only by the exact credential that was verified", async () => {
    const cookie = decodeURIComponent(user.cookie!.slice("session=".length));
    const token = cookie.slice(0, cookie.lastIndexOf("."));
    const status = async (headers: Record<string, string>) =>
      (await built.app.inject({ method: "GET", url: "/api/dashboards", headers })).statusCode;
    // Both are cached after their first answer; neither may open the door for the other.
    expect(await status({ cookie: user.cookie! })).toBe(200);
    expect(await status({ authorization: `Bearer ${token}` })).toBe(200);
    expect(await status({ cookie: `session=${token}` })).toBe(401);
    const forged = `${token}.${Buffer.alloc(32, 1).toString("base64")}`;
    expect(await status({ cookie: `session=${encodeURIComponent(forged)}` })).toBe(401);
    expect(await status({ authorization: `Bearer ${forged}` })).toBe(401);
    expect(await status({ cookie: user.cookie! })).toBe(200);
  });
});
