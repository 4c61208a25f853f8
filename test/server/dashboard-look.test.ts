import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { signedInClient, TestClient } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";

const BACKGROUND = "https://images.example.org/wall/paper.jpg?w=1920#top";

function expectValidationFailed(res: { status: number; headers: any; body: any }) {
  expect(res.status).toBe(400);
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ status: 400, code: "validation_failed" });
}

/** A dashboard's personal look (DESIGN section 13): `look` on PUT, on every dashboard answer. */
describe.each(MODES)("dashboard look (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let ada: TestClient;

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    built = await mode.start();
    ada = await signedInClient(built.app, "Ada");
  });
  afterAll(() => mode.teardown());

  async function board(name = "Looks") {
    return (await ada.post("/api/dashboards", { name })).body as { id: string; name: string };
  }

  it("a new dashboard carries the plain look, {}", async () => {
    const d = await board();
    expect(d).toMatchObject({ look: {} });
    expect((await ada.get(`/api/dashboards?id=${d.id}`)).body[0].look).toEqual({});
  });

  it("PUT sets the look; list, get, bootstrap and the public page carry it", async () => {
    const d = await board("Styled");
    const look = { accent: "#3A7bd5", background: BACKGROUND };
    const put = await ada.put("/api/dashboards", { id: d.id, name: "Styled", isPublic: true, look });
    expect(put.status).toBe(200);
    expect(put.body.look).toEqual(look);

    expect((await ada.get(`/api/dashboards?id=${d.id}`)).body[0].look).toEqual(look);
    const listed = (await ada.get("/api/dashboards")).body.find((x: { id: string }) => x.id === d.id);
    expect(listed.look).toEqual(look);
    const paged = (await ada.get("/api/dashboards?limit=1000")).body.find(
      (x: { id: string }) => x.id === d.id,
    );
    expect(paged.look).toEqual(look);
    const boot = (await ada.get(`/api/bootstrap?dashboardId=${d.id}`)).body;
    expect(boot.dashboards.find((x: { id: string }) => x.id === d.id).look).toEqual(look);

    const visitor = await new TestClient(built.app).get(`/api/public/dashboards/${d.id}`);
    expect(visitor.status).toBe(200);
    expect(visitor.body.look).toEqual(look);
  });

  it("a PUT without look leaves it; only one key is fine; null and {} clear it", async () => {
    const d = await board("Partial");
    await ada.put("/api/dashboards", { id: d.id, name: "Partial", look: { accent: "#abc" } });
    const renamed = await ada.put("/api/dashboards", { id: d.id, name: "Renamed" });
    expect(renamed.body).toMatchObject({ name: "Renamed", look: { accent: "#abc" } });

    const cleared = await ada.put("/api/dashboards", { id: d.id, name: "Renamed", look: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.look).toEqual({});

    await ada.put("/api/dashboards", {
      id: d.id,
      name: "Renamed",
      look: { background: "http://nas.local/a.png" },
    });
    expect((await ada.get(`/api/dashboards?id=${d.id}`)).body[0].look).toEqual({
      background: "http://nas.local/a.png",
    });
    const emptied = await ada.put("/api/dashboards", { id: d.id, name: "Renamed", look: {} });
    expect(emptied.body.look).toEqual({});
    expect((await ada.get(`/api/dashboards?id=${d.id}`)).body[0].look).toEqual({});
  });

  it.each([
    ["colour name", { accent: "red" }],
    ["three digits short of six", { accent: "#12" }],
    ["not hex", { accent: "#gggggg" }],
    ["no hash", { accent: "3a7bd5" }],
    ["four digits", { accent: "#abcd" }],
    ["a number", { accent: 123 }],
    ["javascript URL", { background: "javascript:alert(1)" }],
    ["ftp URL", { background: "ftp://x" }],
    ["data URL", { background: "data:image/png;base64,iVBORw0KGgo=" }],
    ["relative URL", { background: "/images/a.png" }],
    ["credentials in the URL", { background: "https://user:secret@example.org/a.png" }],
    ["no host", { background: "https:///a.png" }],
    ["a quote that would leave CSS url()", { background: 'https://example.org/a.png")' }],
    ["white space", { background: "https://example.org/a b.png" }],
    ["too long", { background: `https://example.org/${"a".repeat(2048)}` }],
    ["unknown key", { accent: "#fff", font: "Comic Sans" }],
    ["not an object", "#ffffff"],
  ])("refuses %s with 400 validation_failed and writes nothing", async (_label, look) => {
    const d = await board("Guarded");
    const good = { accent: "#102030" };
    await ada.put("/api/dashboards", { id: d.id, name: "Guarded", look: good });
    const res = await ada.put("/api/dashboards", { id: d.id, name: "Changed", look });
    expectValidationFailed(res);
    const stored = (await ada.get(`/api/dashboards?id=${d.id}`)).body[0];
    expect(stored).toMatchObject({ name: "Guarded", look: good });
  });

  it("export carries the look, import and duplicate keep it, an old document without one still imports", async () => {
    const d = await board("Portable");
    const look = { accent: "#ff8800", background: BACKGROUND };
    await ada.put("/api/dashboards", { id: d.id, name: "Portable", look });

    const exported = (await ada.get(`/api/dashboards/export?id=${d.id}`)).body;
    expect(exported.dashboard).toEqual({ name: "Portable", look });

    const imported = await ada.post("/api/dashboards/import", exported);
    expect(imported.status).toBe(201);
    expect(imported.body.dashboard.look).toEqual(look);

    const copy = await ada.post("/api/dashboards/duplicate", { id: d.id });
    expect(copy.status).toBe(201);
    expect(copy.body.dashboard.look).toEqual(look);

    const plain = { ...exported, dashboard: { name: "Old file" } };
    const old = await ada.post("/api/dashboards/import", plain);
    expect(old.status).toBe(201);
    expect(old.body.dashboard.look).toEqual({});

    // A dashboard without a look exports without one, as before.
    const bare = await board("Bare");
    expect((await ada.get(`/api/dashboards/export?id=${bare.id}`)).body.dashboard).toEqual({ name: "Bare" });

    const before = (await ada.get("/api/dashboards")).body.length;
    const bad = await ada.post("/api/dashboards/import", {
      ...exported,
      dashboard: { name: "Bad", look: { background: "javascript:alert(1)" } },
    });
    expectValidationFailed(bad);
    expect((await ada.get("/api/dashboards")).body.length).toBe(before);
  });

  it("the OpenAPI document describes look on the Dashboard, the PUT body and the public answer", async () => {
    const doc = (await new TestClient(built.app).get("/api/openapi.json")).body;
    const look = doc.components.schemas.Dashboard.properties.look;
    expect(look).toMatchObject({ type: "object", additionalProperties: false });
    expect(Object.keys(look.properties)).toEqual(["accent", "background"]);
    expect(doc.components.schemas.Dashboard.required).toContain("look");
    const put = doc.paths["/api/dashboards"].put.requestBody.content["application/json"].schema;
    expect(put.properties.look.anyOf.map((s: { type: string }) => s.type)).toEqual(["object", "null"]);
    expect(put.required).not.toContain("look");
    const pub =
      doc.paths["/api/public/dashboards/{id}"].get.responses["200"].content["application/json"].schema;
    expect(pub.properties.look.properties.accent.pattern).toBe("^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$");
  });

  it("another user cannot set a look on someone else's dashboard", async () => {
    const d = await board("Mine");
    const eve = await signedInClient(built.app, "Eve");
    const res = await eve.put("/api/dashboards", { id: d.id, name: "Mine", look: { accent: "#000" } });
    expect(res.status).toBe(404);
    expect((await ada.get(`/api/dashboards?id=${d.id}`)).body[0].look).toEqual({});
  });
});
