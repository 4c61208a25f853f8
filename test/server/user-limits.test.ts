import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { HISTORY_QUOTAS } from "../../src/server/policies/limits.js";
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

  /** Bytes of the user's version history, as the allowance counts them, and of each dashboard's newest. */
  async function historyOf(userId: string) {
    const result = (await built.ctx.database.db.execute(sql`
      SELECT v.dashboard_id AS "dashboardId", octet_length(v.document::text) AS bytes,
             row_number() OVER (PARTITION BY v.dashboard_id ORDER BY v.created_at DESC, v.id DESC) AS place
      FROM dashboard_versions v JOIN dashboards d ON d.id = v.dashboard_id WHERE d.user_id = ${userId}`)) as unknown as {
      rows: { dashboardId: string; bytes: number | string; place: number | string }[];
    };
    const rows = result.rows.map((r) => ({ ...r, bytes: Number(r.bytes), place: Number(r.place) }));
    const sum = (list: typeof rows) => list.reduce((total, r) => total + r.bytes, 0);
    return {
      versions: rows.length,
      older: sum(rows.filter((r) => r.place > 1)),
      newest: sum(rows.filter((r) => r.place === 1)),
    };
  }

  it("counts version history against its owner: restoring and re-creating cannot pile it up", async () => {
    const client = await signedInClient(built.app, "Restorer");
    const bystander = await signedInClient(built.app, "Bystander");
    const theirs = await dashboardOf(bystander, "Theirs");
    await bystander.post("/api/widgets", widgetBody(theirs, filler(10)));
    const theirHistory = await historyOf(bystander.user!.id);

    // The attack: a dashboard filled near the quota, restored over and over (each restore is a
    // version), its widgets deleted to free the quota, and the same again on a new dashboard.
    const allowance = HISTORY_QUOTAS * LIMITS.configBytes;
    const boards: string[] = [];
    for (const round of [0, 1]) {
      const dashboardId = await dashboardOf(client, `Round ${round}`);
      boards.push(dashboardId);
      const widget = await client.post("/api/widgets", widgetBody(dashboardId, filler(80)));
      expect(widget.status).toBe(201);
      for (let i = 0; i < 8; i++) {
        const [newest] = (await client.get(`/api/dashboards/versions?id=${dashboardId}`)).body;
        expect(
          (await client.post("/api/dashboards/restore", { id: dashboardId, versionId: newest.id })).status,
        ).toBe(200);
      }
      const history = await historyOf(client.user!.id);
      expect(history.older).toBeLessThanOrEqual(allowance);
      expect(history.newest).toBeLessThan(LIMITS.configBytes);
      if (round > 0) continue;
      // A restore puts back new widget rows: delete whatever the dashboard holds now.
      for (const { id } of (await client.get(`/api/widgets?dashboardId=${dashboardId}`)).body)
        expect((await client.delete(`/api/widgets?id=${id}`)).status).toBe(200);
    }
    // Sixteen restores of 80 KiB would be 1.3 MiB; the user holds at most the allowance besides
    // what their dashboards show now.
    const history = await historyOf(client.user!.id);
    expect(history.older + history.newest).toBeLessThanOrEqual(allowance + LIMITS.configBytes);
    expect(history.older).toBeGreaterThan(allowance - 2 * 80 * KIB);

    // Oldest went first: the emptied dashboard lost its history before the one in use did, and it
    // still shows as it is now. The newest steps of the full one are still there to undo.
    const [emptied] = (await client.get(`/api/dashboards/versions?id=${boards[0]}`)).body;
    expect(emptied.widgetCount).toBe(0);
    const kept = (await client.get(`/api/dashboards/versions?id=${boards[1]}`)).body;
    expect(kept.length).toBeGreaterThanOrEqual(HISTORY_QUOTAS);
    const undo = await client.post("/api/dashboards/restore", { id: boards[1], versionId: kept[1].id });
    expect(undo.status).toBe(200);
    expect(undo.body.widgets).toHaveLength(1);
    // Another user's history is theirs: none of it went to make room.
    expect(await historyOf(bystander.user!.id)).toEqual(theirHistory);
  });
});
