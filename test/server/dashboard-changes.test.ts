import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import type { DashboardChange } from "../../src/server/db/changes.js";
import { signedInClient, type TestClient } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";

const widgetInput = (dashboardId: string) => ({
  dashboardId,
  widgetType: "Clock",
  height: 200,
  width: 300,
  positionX: 0,
  positionY: 0,
});

/**
 * The seam history and alerts build on: every write to a dashboard or widget reports what it
 * changed to listeners running in the writing transaction, so a listener's failure undoes it.
 */
describe.each(MODES)("dashboard change listeners (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let ada: TestClient;
  const seen: { change: DashboardChange; widgetsInTx: number }[] = [];
  let failNext = false;

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    built = await mode.start();
    ada = await signedInClient(built.app, "Ada");
    built.ctx.changes.listen(async (tx, change) => {
      // Read through the transaction: a listener sees the write it is part of.
      const result = await tx.execute(
        sql`SELECT count(*)::int AS n FROM widgets WHERE user_id = ${ada.user!.id}`,
      );
      const [row] = (result as unknown as { rows: { n: number }[] }).rows;
      seen.push({ change, widgetsInTx: row!.n });
      if (failNext) {
        failNext = false;
        throw new Error("listener refused");
      }
    });
  });
  afterAll(() => mode.teardown());

  it("reports each write with the records as they are after it", async () => {
    const dashboard = (await ada.post("/api/dashboards", { name: "Home" })).body;
    const widget = (await ada.post("/api/widgets", widgetInput(dashboard.id))).body;
    await ada.put("/api/widgets", { id: widget.id, positionX: 120 });
    await ada.put("/api/dashboards", { id: dashboard.id, name: "Den" });
    await ada.delete(`/api/dashboards?id=${dashboard.id}`);

    expect(seen.map((s) => s.change.kind)).toEqual([
      "dashboard.created",
      "widget.created",
      "widget.updated",
      "dashboard.updated",
      "dashboard.deleted",
    ]);
    expect(seen[1]).toMatchObject({ change: { widget: { id: widget.id } }, widgetsInTx: 1 });
    expect(seen[2]!.change).toMatchObject({ widget: { id: widget.id, positionX: 120 } });
    expect(seen[3]!.change).toMatchObject({ dashboard: { name: "Den" } });
    // The widgets that went with the dashboard are named, and are already gone inside the transaction.
    expect(seen[4]).toMatchObject({
      change: { kind: "dashboard.deleted", widgets: [{ id: widget.id }] },
      widgetsInTx: 0,
    });
  });

  it("reports nothing for a write that found nothing", async () => {
    seen.length = 0;
    const missing = "0190d4a0-0000-7000-8000-000000000000";
    expect((await ada.delete(`/api/widgets?id=${missing}`)).status).toBe(404);
    expect((await ada.put("/api/dashboards", { id: missing, name: "X" })).status).toBe(404);
    expect(seen).toEqual([]);
  });

  it("undoes the write when a listener throws", async () => {
    const dashboard = (await ada.post("/api/dashboards", { name: "Kept" })).body;
    const before = await ada.snapshot();
    failNext = true;
    expect((await ada.post("/api/widgets", widgetInput(dashboard.id))).status).toBe(500);
    failNext = true;
    expect((await ada.put("/api/dashboards", { id: dashboard.id, name: "Lost" })).status).toBe(500);
    failNext = true;
    expect((await ada.delete(`/api/dashboards?id=${dashboard.id}`)).status).toBe(500);
    expect(await ada.snapshot()).toEqual(before);
  });
});
