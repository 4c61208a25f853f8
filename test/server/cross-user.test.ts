import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { signedInClient, type TestClient } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";

/**
 * User B aims every endpoint and method at user A's ids. Each attempt must be a 404 (never
 * revealing that the record exists), and A's data must be byte-for-byte unchanged afterwards.
 */
describe.each(MODES)("cross-user isolation (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let a: TestClient;
  let b: TestClient;
  let aDashboard: { id: string };
  let aWidget: { id: string };
  let aSettings: { id: string };

  const snapshot = () => a.snapshot();

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    built = await mode.start();
    a = await signedInClient(built.app, "Alice");
    b = await signedInClient(built.app, "Bob");
    aDashboard = (await a.post("/api/dashboards", { name: "Alice's" })).body;
    aWidget = (
      await a.post("/api/widgets", {
        dashboardId: aDashboard.id,
        widgetType: "Todo",
        height: 100,
        width: 100,
        positionX: 0,
        positionY: 0,
        config: { todos: [] },
      })
    ).body;
    aSettings = (await a.get("/api/settings")).body[0];
    await a.put("/api/settings", {
      id: aSettings.id,
      lastDashboardId: aDashboard.id,
      config: { theme: "dark" },
    });
    await a.post("/api/notifications", { type: "alert", message: "for Alice only" });
  });
  afterAll(() => mode.teardown());

  it("B gets 404 on each of A's ids, on every endpoint and method, and A's data is unchanged", async () => {
    const before = await snapshot();
    const attempts: [string, () => Promise<{ status: number; body: any }>][] = [
      ["GET dashboard", () => b.get(`/api/dashboards?id=${aDashboard.id}`)],
      ["PUT dashboard", () => b.put("/api/dashboards", { id: aDashboard.id, name: "pwned" })],
      [
        "PUT dashboard public",
        () => b.put("/api/dashboards", { id: aDashboard.id, name: "x", isPublic: true }),
      ],
      ["DELETE dashboard", () => b.delete(`/api/dashboards?id=${aDashboard.id}`)],
      ["GET widgets of dashboard", () => b.get(`/api/widgets?dashboardId=${aDashboard.id}`)],
      [
        "POST widget on A's dashboard",
        () =>
          b.post("/api/widgets", {
            dashboardId: aDashboard.id,
            widgetType: "Clock",
            height: 1,
            width: 1,
            positionX: 0,
            positionY: 0,
          }),
      ],
      [
        "PUT widget",
        () => b.put("/api/widgets", { id: aWidget.id, positionX: 999, config: { hacked: true } }),
      ],
      ["DELETE widget", () => b.delete(`/api/widgets?id=${aWidget.id}`)],
      [
        "PUT settings",
        () => b.put("/api/settings", { id: aSettings.id, onboardingCompleted: true, config: {} }),
      ],
    ];
    for (const [label, attempt] of attempts) {
      const res = await attempt();
      expect(res.status, label).toBe(404);
      expect(res.body.code, label).toBe("not_found");
    }
    expect(await snapshot()).toEqual(before);
  });

  it("B cannot point its own settings at A's dashboard", async () => {
    const bSettings = (await b.get("/api/settings")).body[0];
    const res = await b.put("/api/settings", { id: bSettings.id, lastDashboardId: aDashboard.id });
    expect(res.status).toBe(400);
    expect((await b.get("/api/settings")).body[0].lastDashboardId).toBeNull();
  });

  it("B's lists never contain A's records", async () => {
    expect((await b.get("/api/dashboards")).body).toEqual([]);
    expect((await b.get("/api/widgets")).body).toEqual([]);
    expect((await b.get("/api/notifications")).body).toEqual([]);
    const settings = (await b.get("/api/settings")).body;
    expect(settings).toHaveLength(1);
    expect(settings[0].userId).toBe(b.user!.id);
  });

  it("B clearing notifications and unlinking accounts touches only B", async () => {
    const before = await snapshot();
    expect((await b.delete("/api/notifications")).body).toEqual({ success: true });
    expect((await b.delete("/api/accounts?provider=suite")).status).toBe(404);
    expect((await b.put("/api/accounts", { provider: "suite", refreshToken: "x" })).status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });
});
