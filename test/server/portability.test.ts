import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DASHBOARD_RESTORED, userChannel } from "../../src/contract/notifications.js";
import type { BuiltApp } from "../../src/server/app.js";
import { WIDGET_DEFINITIONS } from "../../src/widgets/index.js";
import { signedInClient, TestClient } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";

const V1 = JSON.parse(
  readFileSync(new URL("../fixtures/dashboard-v1.tessera.json", import.meta.url), "utf8"),
);

const geometry = (i: number) => ({ height: 100 + i, width: 200.5, positionX: i * 10, positionY: 0 });
type W = {
  widgetType: string;
  height: number;
  width: number;
  positionX: number;
  positionY: number;
  config: object;
};
const shapeOf = (widgets: W[]) =>
  widgets.map(({ widgetType, height, width, positionX, positionY, config }) => ({
    widgetType,
    height,
    width,
    positionX,
    positionY,
    config,
  }));

describe.each(MODES)("export, import, duplicate and history (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let ada: TestClient;
  let eve: TestClient;
  const clock = { t: Date.parse("2026-11-24T10:00:00.000Z") };

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    built = await mode.start({}, { clock: () => clock.t });
    ada = await signedInClient(built.app, "Ada");
    eve = await signedInClient(built.app, "Eve");
  });
  afterAll(() => mode.teardown());

  const countDashboards = async (client: TestClient) => (await client.get("/api/dashboards")).body.length;

  async function boardWithEveryType(name: string) {
    const dashboardId = (await ada.post("/api/dashboards", { name })).body.id;
    for (const [i, definition] of WIDGET_DEFINITIONS.entries()) {
      const config = { ...definition.defaults(), note: "ünïcødé ✓ 🎉" };
      const res = await ada.post("/api/widgets", {
        dashboardId,
        widgetType: definition.type,
        ...geometry(i),
        config,
      });
      expect(res.status).toBe(201);
    }
    return dashboardId;
  }

  it("exports a dashboard as a file and imports it back unchanged, every widget type included", async () => {
    const id = await boardWithEveryType("Alles — ✓");
    const exported = await ada.get(`/api/dashboards/export?id=${id}`);
    expect(exported.status).toBe(200);
    expect(exported.headers["content-disposition"]).toContain("attachment;");
    expect(exported.headers["content-disposition"]).toContain(encodeURIComponent("Alles — ✓.tessera.json"));
    const document = exported.body;
    expect(document).toMatchObject({
      format: "tessera.dashboard",
      version: 1,
      dashboard: { name: "Alles — ✓" },
    });
    expect(JSON.stringify(document)).not.toContain(ada.user!.id);
    expect(document.widgets.map((w: W) => w.widgetType)).toEqual(WIDGET_DEFINITIONS.map((d) => d.type));

    const imported = await ada.post("/api/dashboards/import", document);
    expect(imported.status).toBe(201);
    // The original is still there: the import gets a name of its own.
    expect(imported.body.dashboard.name).toBe("Alles — ✓ (2)");
    const original = (await ada.get(`/api/widgets?dashboardId=${id}`)).body;
    const copy = (await ada.get(`/api/widgets?dashboardId=${imported.body.dashboard.id}`)).body;
    expect(shapeOf(copy)).toEqual(shapeOf(original));
    expect(shapeOf(imported.body.widgets)).toEqual(shapeOf(original));

    const renamed = await ada.post("/api/dashboards/import", { ...document, name: "Renamed" });
    expect(renamed.body.dashboard.name).toBe("Renamed");
  });

  it("imports a version 1 document written by an earlier Tessera", async () => {
    const res = await ada.post("/api/dashboards/import", V1);
    expect(res.status).toBe(201);
    expect(res.body.dashboard.name).toBe("Zuhause — Übersicht 🏠");
    expect(shapeOf(res.body.widgets)).toEqual(V1.widgets);
  });

  it("refuses a bad document with every problem and its path, and creates nothing", async () => {
    const before = await countDashboards(ada);
    const unknown = await ada.post("/api/dashboards/import", { ...V1, format: "homarr.board" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe("validation_failed");
    expect(unknown.body.errors).toEqual([{ path: "/format", message: expect.any(String) }]);

    const newer = await ada.post("/api/dashboards/import", { ...V1, version: 2 });
    expect(newer.status).toBe(400);
    expect(newer.body.code).toBe("unsupported_version");

    const broken = structuredClone(V1);
    broken.widgets[0].widgetType = "Gallery";
    broken.widgets[1].height = -5;
    broken.widgets[2].config.timeframe = 7;
    broken.widgets[3].config = "not an object";
    const refused = await ada.post("/api/dashboards/import", broken);
    expect(refused.status).toBe(400);
    const paths = refused.body.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(
      expect.arrayContaining(["/widgets/0/widgetType", "/widgets/1/height", "/widgets/3/config"]),
    );
    // Config values are checked once the document's shape holds.
    const badConfig = structuredClone(V1);
    badConfig.widgets[2].config.timeframe = 7;
    const configRefused = await ada.post("/api/dashboards/import", badConfig);
    expect(configRefused.body.errors.map((e: { path: string }) => e.path)).toEqual([
      "/widgets/2/config/timeframe",
    ]);

    const tooMany = { ...V1, widgets: Array.from({ length: 501 }, () => V1.widgets[0]) };
    expect((await ada.post("/api/dashboards/import", tooMany)).status).toBe(400);
    expect((await ada.post("/api/dashboards/import", { ...V1, name: "   " })).status).toBe(400);
    expect(await countDashboards(ada)).toBe(before);
  });

  it("takes documents over the API's usual 1 MiB, up to 5 MiB", async () => {
    const big = structuredClone(V1);
    big.widgets = Array.from({ length: 6 }, (_, i) => ({
      ...V1.widgets[0],
      positionY: i,
      config: { timezone: "UTC", filler: "x".repeat(200 * 1024) },
    }));
    const accepted = await ada.post("/api/dashboards/import", big);
    expect(accepted.status).toBe(201);
    const huge = { ...big, widgets: Array.from({ length: 30 }, () => big.widgets[0]) };
    const refused = await ada.post("/api/dashboards/import", huge);
    expect(refused.status).toBe(413);
    expect(refused.body.code).toBe("payload_too_large");
  });

  it("duplicates a dashboard; another user's dashboards are not found", async () => {
    const imported = (await ada.post("/api/dashboards/import", { ...V1, name: "Zuhause" })).body;
    const id = imported.dashboard.id;
    const copy = await ada.post("/api/dashboards/duplicate", { id });
    expect(copy.status).toBe(201);
    expect(copy.body.dashboard.name).toBe("Zuhause (copy)");
    expect(shapeOf(copy.body.widgets)).toEqual(V1.widgets);
    expect((await ada.post("/api/dashboards/duplicate", { id, name: "Mine" })).body.dashboard.name).toBe(
      "Mine",
    );
    expect((await eve.post("/api/dashboards/duplicate", { id })).status).toBe(404);
    expect((await eve.get(`/api/dashboards/export?id=${id}`)).status).toBe(404);
    expect((await eve.get(`/api/dashboards/versions?id=${id}`)).status).toBe(404);
  });

  it("records versions, folding changes within a minute, keeping the newest 50", async () => {
    const id = (await ada.post("/api/dashboards", { name: "History" })).body.id;
    const versions = async () => (await ada.get(`/api/dashboards/versions?id=${id}`)).body;
    expect(await versions()).toHaveLength(1);
    clock.t += 10_000;
    const widget = (
      await ada.post("/api/widgets", { dashboardId: id, widgetType: "Clock", ...geometry(0), config: {} })
    ).body;
    let list = await versions();
    expect(list).toHaveLength(1);
    expect(list[0].widgetCount).toBe(1);
    clock.t += 61_000;
    await ada.put("/api/widgets", { id: widget.id, positionX: 500 });
    list = await versions();
    expect(list).toHaveLength(2);
    for (let i = 0; i < 52; i++) {
      clock.t += 61_000;
      await ada.put("/api/widgets", { id: widget.id, positionX: i });
    }
    list = await versions();
    expect(list).toHaveLength(50);
    expect(list[0].createdAt > list[49].createdAt).toBe(true);
    const newest = await ada.get(`/api/dashboards/versions/document?id=${list[0].id}`);
    expect(newest.body.widgets[0].positionX).toBe(51);
    expect((await eve.get(`/api/dashboards/versions/document?id=${list[0].id}`)).status).toBe(404);
  });

  it("restores a version in one step, tells the owner's streams, and can undo it", async () => {
    const id = (await ada.post("/api/dashboards", { name: "Restore me" })).body.id;
    for (const i of [0, 1])
      await ada.post("/api/widgets", { dashboardId: id, widgetType: "Clock", ...geometry(i), config: {} });
    clock.t += 61_000;
    const [first] = (await ada.get(`/api/widgets?dashboardId=${id}`)).body;
    await ada.delete(`/api/widgets?id=${first.id}`);
    await ada.post("/api/widgets", { dashboardId: id, widgetType: "Editor", ...geometry(5), config: {} });
    const [after, before] = (await ada.get(`/api/dashboards/versions?id=${id}`)).body;
    expect(before.widgetCount).toBe(2);
    expect(after.widgetCount).toBe(2);

    const told: unknown[] = [];
    const stop = await built.ctx.bus.subscribe(userChannel(ada.user!.id), (m) => {
      if (m.event === DASHBOARD_RESTORED) told.push(m.data);
    });
    clock.t += 1_000;
    const restored = await ada.post("/api/dashboards/restore", { id, versionId: before.id });
    expect(restored.status).toBe(200);
    expect(restored.body.widgets.map((w: W) => w.widgetType)).toEqual(["Clock", "Clock"]);
    const now = (await ada.get(`/api/widgets?dashboardId=${id}`)).body;
    expect(now.map((w: W) => w.widgetType)).toEqual(["Clock", "Clock"]);
    await expect.poll(() => told.length).toBe(1);
    stop();

    // The restore is a version of its own; the one before it undoes it.
    const list = (await ada.get(`/api/dashboards/versions?id=${id}`)).body;
    expect(list).toHaveLength(3);
    const undo = await ada.post("/api/dashboards/restore", { id, versionId: list[1].id });
    expect(undo.body.widgets.map((w: W) => w.widgetType)).toEqual(["Clock", "Editor"]);
    expect((await eve.post("/api/dashboards/restore", { id, versionId: list[1].id })).status).toBe(404);
  });
});

describe("the dashboard document's JSON Schema", () => {
  it("is in the repository exactly as the server's TypeBox schema makes it, and served", async () => {
    const { SCHEMA_FILES, schemaText } = await import("../../scripts/write-schemas.js");
    for (const [file, schema] of Object.entries(SCHEMA_FILES))
      expect(readFileSync(file, "utf8"), `${file} is stale: run npx tsx scripts/write-schemas.ts`).toBe(
        schemaText(schema),
      );
    const mode = await prepareMode("embedded");
    try {
      const built = await mode.start();
      const res = await new TestClient(built.app).get("/api/schemas/dashboard-document.json");
      expect(res.status).toBe(200);
      expect(`${JSON.stringify(res.body, null, 2)}\n`).toBe(
        readFileSync("docs/dashboard-document.schema.json", "utf8"),
      );
    } finally {
      await mode.teardown();
    }
  });
});
