import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { signedInClient, TestClient } from "../support/client.js";
import { type ModeEnv, prepareMode } from "../support/modes.js";

describe.each(["embedded", "postgres+redis"] as const)("public dashboards (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    built = await mode.start();
  });
  afterAll(() => mode.teardown());

  async function dashboardWithEveryType(owner: TestClient) {
    const d = (await owner.post("/api/dashboards", { name: "Shared board" })).body;
    const types = [
      "Clock",
      "Bookmark",
      "Inbox",
      "Meetings",
      "Codehost",
      "Codehost Heatmap",
      "Todo",
      "Weather",
    ];
    for (const [i, widgetType] of types.entries()) {
      await owner.post("/api/widgets", {
        dashboardId: d.id,
        widgetType,
        height: 200,
        width: 200,
        positionX: i * 220,
        positionY: 0,
        config:
          widgetType === "Bookmark"
            ? { bookmarks: [{ id: "b", title: "Docs", url: "https://example.org" }] }
            : widgetType === "Weather"
              ? { location: { name: "Home", latitude: 48.858372, longitude: 2.294481 }, unit: "celsius" }
              : {},
      });
    }
    return d as { id: string };
  }

  it("answers 404 until the owner publishes, then the read-only view without a session", async () => {
    const owner = await signedInClient(built.app, "Publisher");
    const d = await dashboardWithEveryType(owner);
    const anonymous = new TestClient(built.app);
    expect((await anonymous.get(`/api/public/dashboards/${d.id}`)).status).toBe(404);

    expect(
      (await owner.put("/api/dashboards", { id: d.id, name: "Shared board", isPublic: true })).status,
    ).toBe(200);
    const res = await anonymous.get(`/api/public/dashboards/${d.id}`);
    expect(res.status).toBe(200);
    expect(res.body.name).toBe("Shared board");
    expect(res.body.widgets.map((w: { widgetType: string }) => w.widgetType)).toEqual([
      "Clock",
      "Bookmark",
      "Todo",
      "Weather",
    ]);
    // Configs are read as the owner's app reads them: the URL as the URL parser normalises it.
    expect(res.body.widgets[1].config.bookmarks[0].url).toBe("https://example.org/");
    // The owner's exact position stays private: the public view rounds it to about a kilometre.
    expect(res.body.widgets[3].config).toEqual({
      location: { name: "Home", latitude: 48.86, longitude: 2.29 },
      unit: "celsius",
    });
    expect(res.text).not.toContain("48.858372");

    // Nothing that identifies the owner goes out.
    for (const secret of [owner.user!.id, owner.user!.email, "Publisher"])
      expect(res.text).not.toContain(secret);
    for (const field of ["userId", "dashboardId", "isPublic"]) expect(res.text).not.toContain(`"${field}"`);

    await owner.put("/api/dashboards", { id: d.id, name: "Shared board", isPublic: false });
    expect((await anonymous.get(`/api/public/dashboards/${d.id}`)).status).toBe(404);
  });

  it("answers 404 for unknown ids and 400 for malformed ones", async () => {
    const anonymous = new TestClient(built.app);
    const missing = await anonymous.get("/api/public/dashboards/0190d4a0-0000-7000-8000-000000000000");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("not_found");
    const bad = await anonymous.get("/api/public/dashboards/not-a-uuid");
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("validation_failed");
  });
});
