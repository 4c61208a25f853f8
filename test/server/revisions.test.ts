import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { signedInClient, TestClient } from "../support/client.js";
import { type ModeEnv, type ModeName, prepareMode } from "../support/modes.js";

/**
 * No lost updates (DESIGN section 14): widgets and dashboards carry `revision`, 1 on create and +1
 * on every change; a PUT naming an older one is refused with the stored record and writes nothing.
 */

const geometry = { height: 200, width: 300, positionX: 0, positionY: 40 };

function expectConflict(res: { status: number; headers: any; body: any }, current: unknown) {
  expect(res.status).toBe(409);
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ status: 409, code: "conflict" });
  expect(res.body.current).toEqual(current);
}

describe.each<ModeName>(["embedded", "postgres+redis"])("revisions (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let ada: TestClient;
  let eve: TestClient;

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    built = await mode.start();
    ada = await signedInClient(built.app, "Ada");
    eve = await signedInClient(built.app, "Eve");
  });
  afterAll(() => mode.teardown());

  async function board(name = "Board") {
    const dashboard = (await ada.post("/api/dashboards", { name })).body;
    const widget = (
      await ada.post("/api/widgets", { dashboardId: dashboard.id, widgetType: "Clock", ...geometry })
    ).body;
    return { dashboard, widget };
  }
  const widgetsOf = async (dashboardId: string) =>
    (await ada.get(`/api/widgets?dashboardId=${dashboardId}`)).body;
  const dashboardOf = async (id: string) => (await ada.get(`/api/dashboards?id=${id}`)).body[0];

  it("answers revision 1 on create, in every list and the first screen", async () => {
    const { dashboard, widget } = await board();
    expect(dashboard.revision).toBe(1);
    expect(widget.revision).toBe(1);
    expect(await widgetsOf(dashboard.id)).toEqual([widget]);
    expect((await ada.get("/api/widgets")).body).toContainEqual(widget);
    expect(await dashboardOf(dashboard.id)).toEqual(dashboard);
    expect((await ada.get("/api/dashboards")).body).toContainEqual(dashboard);
    expect((await ada.get("/api/dashboards?limit=1000")).body).toContainEqual(dashboard);
    const first = (await ada.get(`/api/bootstrap?dashboardId=${dashboard.id}`)).body;
    expect(first.dashboards).toContainEqual(dashboard);
    expect(first.widgets).toEqual([widget]);
  });

  it("moves on by one with each PUT, with or without a revision", async () => {
    const { dashboard, widget } = await board();
    const moved = await ada.put("/api/widgets", { id: widget.id, positionX: 10 });
    expect(moved.body.revision).toBe(2);
    const resized = await ada.put("/api/widgets", { id: widget.id, width: 120, revision: 2 });
    expect(resized.status).toBe(200);
    expect(resized.body).toMatchObject({ revision: 3, width: 120, positionX: 10 });
    const configured = await ada.put("/api/widgets", { id: widget.id, config: { tz: "UTC" }, revision: 3 });
    expect(configured.body.revision).toBe(4);

    const renamed = await ada.put("/api/dashboards", { id: dashboard.id, name: "Renamed" });
    expect(renamed.body.revision).toBe(2);
    const published = await ada.put("/api/dashboards", {
      id: dashboard.id,
      name: "Renamed",
      isPublic: true,
      revision: 2,
    });
    expect(published.body).toMatchObject({ revision: 3, isPublic: true });
    const looked = await ada.put("/api/dashboards", {
      id: dashboard.id,
      name: "Renamed",
      look: { accent: "#123456" },
      revision: 3,
    });
    expect(looked.body).toMatchObject({ revision: 4, look: { accent: "#123456" } });
  });

  it("moves the dashboard on when a version is restored, and restored widgets start at 1", async () => {
    const { dashboard, widget } = await board("Restore");
    await ada.put("/api/widgets", { id: widget.id, positionX: 99 });
    const [version] = (await ada.get(`/api/dashboards/versions?id=${dashboard.id}`)).body;
    const restored = await ada.post("/api/dashboards/restore", { id: dashboard.id, versionId: version.id });
    expect(restored.status).toBe(200);
    expect(restored.body.dashboard.revision).toBe(dashboard.revision + 1);
    expect(restored.body.widgets.map((w: { revision: number }) => w.revision)).toEqual([1]);
    expect((await dashboardOf(dashboard.id)).revision).toBe(dashboard.revision + 1);
  });

  it("refuses a stale widget PUT with 409 conflict and the stored widget, writing nothing", async () => {
    const { dashboard, widget } = await board();
    const newer = (await ada.put("/api/widgets", { id: widget.id, positionX: 50, revision: 1 })).body;
    expect(newer.revision).toBe(2);
    const before = await ada.snapshot();
    const stale = await ada.put("/api/widgets", {
      id: widget.id,
      positionX: 7,
      config: { a: 1 },
      revision: 1,
    });
    expectConflict(stale, newer);
    // A revision from the future is as wrong as one from the past.
    expectConflict(await ada.put("/api/widgets", { id: widget.id, positionX: 7, revision: 3 }), newer);
    expect(await ada.snapshot()).toEqual(before);
    expect(await widgetsOf(dashboard.id)).toEqual([newer]);
  });

  it("refuses a stale dashboard PUT with 409 conflict and the stored dashboard, writing nothing", async () => {
    const { dashboard } = await board();
    const newer = (await ada.put("/api/dashboards", { id: dashboard.id, name: "Theirs", revision: 1 })).body;
    const before = await ada.snapshot();
    const stale = await ada.put("/api/dashboards", {
      id: dashboard.id,
      name: "Mine",
      isPublic: true,
      look: { accent: "#fff" },
      revision: 1,
    });
    expectConflict(stale, newer);
    expect(await ada.snapshot()).toEqual(before);
    expect(await dashboardOf(dashboard.id)).toEqual(newer);
  });

  it("answers another user's record 404, never 409, whatever revision is named", async () => {
    const { dashboard, widget } = await board();
    for (const revision of [1, 2]) {
      const w = await eve.put("/api/widgets", { id: widget.id, positionX: 1, revision });
      expect(w.status).toBe(404);
      expect(w.body.current).toBeUndefined();
      const d = await eve.put("/api/dashboards", { id: dashboard.id, name: "x", revision });
      expect(d.status).toBe(404);
      expect(d.body.current).toBeUndefined();
    }
    expect(await widgetsOf(dashboard.id)).toEqual([widget]);
    expect(await dashboardOf(dashboard.id)).toEqual(dashboard);
  });

  it("accepts only an integer revision of at least 1", async () => {
    const { widget, dashboard } = await board();
    for (const revision of [0, -1, 1.5, "1", null, 2 ** 31]) {
      expect((await ada.put("/api/widgets", { id: widget.id, positionX: 1, revision })).status).toBe(400);
      expect((await ada.put("/api/dashboards", { id: dashboard.id, name: "x", revision })).status).toBe(400);
    }
    expect(await widgetsOf(dashboard.id)).toEqual([widget]);
  });

  it("lets exactly one of concurrent PUTs on the same revision land", async () => {
    const { dashboard, widget } = await board();
    const n = 8;
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        ada.put("/api/widgets", { id: widget.id, positionX: i, config: { writer: i }, revision: 1 }),
      ),
    );
    const won = answers.filter((a) => a.status === 200);
    const lost = answers.filter((a) => a.status === 409);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(n - 1);
    const [stored] = await widgetsOf(dashboard.id);
    expect(stored).toEqual(won[0]!.body);
    expect(stored.revision).toBe(2);
    for (const a of lost) expect(a.body.current).toEqual(stored);

    const names = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        ada.put("/api/dashboards", { id: dashboard.id, name: `Name ${i}`, revision: 1 }),
      ),
    );
    expect(names.filter((a) => a.status === 200)).toHaveLength(1);
    expect(names.filter((a) => a.status === 409)).toHaveLength(n - 1);
    expect((await dashboardOf(dashboard.id)).revision).toBe(2);
  });

  it("shows the new revision in the hot lists at once", async () => {
    const { dashboard, widget } = await board();
    // Read first, so the lists are answered from the cache afterwards if they are not current.
    await widgetsOf(dashboard.id);
    await ada.get("/api/dashboards");
    await ada.get("/api/bootstrap");
    for (let revision = 1; revision <= 3; revision++) {
      const put = await ada.put("/api/widgets", { id: widget.id, positionX: revision, revision });
      expect(put.status).toBe(200);
      expect((await widgetsOf(dashboard.id))[0].revision).toBe(revision + 1);
      expect((await ada.get(`/api/bootstrap?dashboardId=${dashboard.id}`)).body.widgets[0].revision).toBe(
        revision + 1,
      );
      const renamed = await ada.put("/api/dashboards", { id: dashboard.id, name: `R${revision}`, revision });
      expect(renamed.status).toBe(200);
      const listed = (await ada.get("/api/dashboards")).body.find(
        (d: { id: string }) => d.id === dashboard.id,
      );
      expect(listed.revision).toBe(revision + 1);
    }
  });

  // The embedded engine is one process: a second instance exists only on PostgreSQL.
  if (modeName !== "embedded")
    it("shows a write made on another instance at once", async () => {
      const other = await mode.start();
      const { dashboard, widget } = await board();
      // The same session, through the other instance (as a load balancer would send it).
      const there = new TestClient(other.app);
      there.cookie = ada.cookie;
      await widgetsOf(dashboard.id);
      await there.get(`/api/widgets?dashboardId=${dashboard.id}`);
      const put = await there.put("/api/widgets", { id: widget.id, positionX: 5, revision: 1 });
      expect(put.body.revision).toBe(2);
      expect((await widgetsOf(dashboard.id))[0].revision).toBe(2);
      expectConflict(await ada.put("/api/widgets", { id: widget.id, positionX: 6, revision: 1 }), put.body);
      const renamed = await ada.put("/api/dashboards", { id: dashboard.id, name: "Here", revision: 1 });
      expect(renamed.body.revision).toBe(2);
      const listed = (await there.get("/api/dashboards")).body.find(
        (d: { id: string }) => d.id === dashboard.id,
      );
      expect(listed.revision).toBe(2);
    });
});
