import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { WIDGET_TYPES } from "../../src/widgets/index.js";
import { signedInClient, type TestClient } from "../support/client.js";
import { type ModeEnv, prepareMode } from "../support/modes.js";

const documentNamed = (name: string, widgetType = "Clock") => ({
  format: "tessera.dashboard",
  version: 1,
  exportedAt: "2026-11-28T10:00:00.000Z",
  dashboard: { name },
  widgets: [{ widgetType, height: 100, width: 100, positionX: 0, positionY: 0, config: {} }],
});

/** What an import is called, and what it says of a widget type it does not know (issue 35). */
describe("imported dashboards' names and unknown widget types (embedded)", () => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let ada: TestClient;
  let eve: TestClient;

  beforeAll(async () => {
    mode = await prepareMode("embedded");
    built = await mode.start();
    ada = await signedInClient(built.app, "Ada");
    eve = await signedInClient(built.app, "Eve");
  });
  afterAll(() => mode.teardown());

  const importAs = async (client: TestClient, body: unknown) => {
    const res = await client.post("/api/dashboards/import", body);
    expect(res.status, res.text).toBe(201);
    return res.body.dashboard.name as string;
  };
  const names = async (client: TestClient) =>
    (await client.get("/api/dashboards")).body.map((d: { name: string }) => d.name).sort();

  it("gives an import whose name the user already has the first free 'name (n)'", async () => {
    await ada.post("/api/dashboards", { name: "Home" });
    expect(await importAs(ada, documentNamed("Home"))).toBe("Home (2)");
    expect(await importAs(ada, documentNamed("Home"))).toBe("Home (3)");
    // Counted on from the stem, and in any case.
    expect(await importAs(ada, documentNamed("Home (2)"))).toBe("Home (4)");
    expect(await importAs(ada, documentNamed("HOME"))).toBe("HOME (5)");
    expect(await importAs(ada, documentNamed("  Office  "))).toBe("Office");
    expect(await names(ada)).toEqual(["HOME (5)", "Home", "Home (2)", "Home (3)", "Home (4)", "Office"]);

    // Another user's dashboards are theirs: Eve's first "Home" is just "Home".
    expect(await importAs(eve, documentNamed("Home"))).toBe("Home");
  });

  it("keeps a name asked for, taken or not, and fits the number into 100 characters", async () => {
    expect(await importAs(ada, { ...documentNamed("Ignored"), name: "Home" })).toBe("Home");
    const long = "L".repeat(100);
    expect(await importAs(ada, documentNamed(long))).toBe(long);
    const next = await importAs(ada, documentNamed(long));
    expect(next).toBe(`${"L".repeat(96)} (2)`);
    expect(next).toHaveLength(100);
  });

  it("names an unknown widget type, where it is and the types there are", async () => {
    const before = await names(ada);
    const doc = documentNamed("Strange");
    doc.widgets.push({ ...doc.widgets[0]!, widgetType: "Foo" });
    const res = await ada.post("/api/dashboards/import", doc);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.errors).toEqual([
      {
        path: "/widgets/1/widgetType",
        message: `Unknown widget type "Foo" at /widgets/1/widgetType; this Tessera knows ${WIDGET_TYPES.join(", ")}`,
      },
    ]);
    // Not a string: the schema's own words, nothing invented.
    const numeric = await ada.post("/api/dashboards/import", documentNamed("Strange", 7 as never));
    expect(numeric.body.errors[0].path).toBe("/widgets/0/widgetType");
    expect(numeric.body.errors[0].message).not.toMatch(/Unknown widget type/);
    expect(await names(ada)).toEqual(before);
  });

  it("names duplicates '(copy)', then '(copy 2)', counting a copy of a copy from the original", async () => {
    const id = (await ada.post("/api/dashboards", { name: "Garden" })).body.id;
    const duplicate = async (sourceId: string) => {
      const res = await ada.post("/api/dashboards/duplicate", { id: sourceId });
      expect(res.status, res.text).toBe(201);
      return res.body.dashboard as { id: string; name: string };
    };
    const first = await duplicate(id);
    expect(first.name).toBe("Garden (copy)");
    expect((await duplicate(id)).name).toBe("Garden (copy 2)");
    expect((await duplicate(first.id)).name).toBe("Garden (copy 3)");
    // Another user duplicating counts among their own names only.
    const shared = await ada.put("/api/dashboards/members", {
      id,
      members: [{ type: "everyone", role: "viewer" }],
    });
    expect(shared.status, shared.text).toBe(200);
    expect((await eve.post("/api/dashboards/duplicate", { id })).body.dashboard.name).toBe("Garden (copy)");
  });
});
