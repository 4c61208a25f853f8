import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { signedInClient, type TestClient } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";

const KIB = 1024;
const LIMITS = { dashboards: 3, widgetsPerDashboard: 4, configBytes: 100 * KIB, streams: 20 };

const widgetBody = (dashboardId: string, config: object = {}) => ({
  dashboardId,
  widgetType: "Editor",
  height: 100,
  width: 100,
  positionX: 0,
  positionY: 0,
  config,
});
const filler = (kib: number) => ({ notes: [{ id: "n", title: "big", content: "x".repeat(kib * KIB) }] });

describe.each(MODES)("per-user limits (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    built = await mode.start({ limits: LIMITS });
  });
  afterAll(() => mode.teardown());

  const dashboardOf = async (client: TestClient, name = "Board") =>
    (await client.post("/api/dashboards", { name })).body.id as string;

  it("refuses a dashboard past the per-user count with 409 limit_reached, creating nothing", async () => {
    const client = await signedInClient(built.app, "Boards");
    for (let i = 0; i < LIMITS.dashboards; i++) await dashboardOf(client, `Board ${i}`);
    const refused = await client.post("/api/dashboards", { name: "One too many" });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("limit_reached");
    expect(refused.headers["content-type"]).toContain("application/problem+json");
    expect((await client.get("/api/dashboards")).body).toHaveLength(LIMITS.dashboards);
  });

  it("holds the widget count per dashboard even when creates race", async () => {
    const client = await signedInClient(built.app, "Racer");
    const dashboardId = await dashboardOf(client);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => client.post("/api/widgets", widgetBody(dashboardId))),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(LIMITS.widgetsPerDashboard);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.code === "limit_reached")).toBe(true);
    expect(answers.every((a) => a.status === 201 || a.status === 409)).toBe(true);
    expect((await client.get(`/api/widgets?dashboardId=${dashboardId}`)).body).toHaveLength(
      LIMITS.widgetsPerDashboard,
    );
    // Another dashboard has its own room.
    const other = await dashboardOf(client, "Other");
    expect((await client.post("/api/widgets", widgetBody(other))).status).toBe(201);
  });

  it("keeps the configuration bytes of one user under the quota: 413 quota_exceeded, nothing written", async () => {
    const client = await signedInClient(built.app, "Hoarder");
    const dashboardId = await dashboardOf(client);
    const first = await client.post("/api/widgets", widgetBody(dashboardId, filler(60)));
    expect(first.status).toBe(201);
    const second = await client.post("/api/widgets", widgetBody(dashboardId, filler(60)));
    expect(second.status).toBe(413);
    expect(second.body.code).toBe("quota_exceeded");
    const small = await client.post("/api/widgets", widgetBody(dashboardId, filler(10)));
    expect(small.status).toBe(201);

    const grown = await client.put("/api/widgets", { id: small.body.id, config: filler(50) });
    expect(grown.status).toBe(413);
    const settings = (await client.get("/api/settings")).body[0];
    const bigSettings = await client.put("/api/settings", { id: settings.id, config: filler(50) });
    expect(bigSettings.status).toBe(413);

    const widgets = (await client.get(`/api/widgets?dashboardId=${dashboardId}`)).body;
    expect(widgets).toHaveLength(2);
    expect(
      JSON.stringify(widgets.find((w: { id: string }) => w.id === small.body.id).config).length,
    ).toBeLessThan(20 * KIB);
    expect((await client.get("/api/settings")).body[0].config).toEqual(settings.config);
    // Moving a widget changes no bytes: allowed at any fill.
    const moved = await client.put("/api/widgets", { id: first.body.id, positionX: 300 });
    expect(moved.status).toBe(200);
    // Freeing room lets the user write again.
    expect((await client.delete(`/api/widgets?id=${first.body.id}`)).status).toBe(200);
    expect((await client.put("/api/settings", { id: settings.id, config: filler(50) })).status).toBe(200);
  });
});
