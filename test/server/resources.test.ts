import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { signedInClient, TestClient } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";
import { expectProblem } from "../support/problems.js";
import { SPEC_WIDGET_TYPES } from "../support/spec.js";

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const MISSING = "0190d4a0-0000-7000-8000-000000000000";

const widgetInput = (dashboardId: string, extra: Record<string, unknown> = {}) => ({
  dashboardId,
  widgetType: "Clock",
  height: 200,
  width: 300,
  positionX: 0,
  positionY: 40,
  ...extra,
});

describe.each(MODES)("resource endpoints (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let ada: TestClient;

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    built = await mode.start();
    ada = await signedInClient(built.app, "Ada");
  });
  afterAll(() => mode.teardown());

  describe("dashboards", () => {
    it("creates with 201, isPublic false, UUIDv7 id and ISO timestamps", async () => {
      const res = await ada.post("/api/dashboards", { name: "  Home  " });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name: "Home", isPublic: false, userId: ada.user!.id });
      expect(res.body.id).toMatch(UUID);
      expect(res.body.createdAt).toMatch(ISO_MS);
      expect(res.body.updatedAt).toMatch(ISO_MS);
    });

    it("lists in creation order and answers an array also for one id", async () => {
      const a = (await ada.post("/api/dashboards", { name: "First" })).body;
      const b = (await ada.post("/api/dashboards", { name: "Second" })).body;
      const all = await ada.get("/api/dashboards");
      const ids = all.body.map((d: { id: string }) => d.id);
      expect(ids.indexOf(a.id)).toBeLessThan(ids.indexOf(b.id));
      const one = await ada.get(`/api/dashboards?id=${b.id}`);
      expect(one.status).toBe(200);
      expect(one.body).toEqual([b]);
    });

    it("renames, and optionally publishes", async () => {
      const d = (await ada.post("/api/dashboards", { name: "Old" })).body;
      const res = await ada.put("/api/dashboards", { id: d.id, name: "New" });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: d.id, name: "New", isPublic: false });
      expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(d.updatedAt));
      const published = await ada.put("/api/dashboards", { id: d.id, name: "New", isPublic: true });
      expect(published.body.isPublic).toBe(true);
    });

    it("rejects empty, blank and over-long names", async () => {
      for (const name of ["", "   ", "x".repeat(101)]) {
        expectProblem(await ada.post("/api/dashboards", { name }), 400, "validation_failed");
      }
      const d = (await ada.post("/api/dashboards", { name: "Keep" })).body;
      expectProblem(await ada.put("/api/dashboards", { id: d.id, name: "" }), 400, "validation_failed");
      expectProblem(await ada.put("/api/dashboards", { id: d.id }), 400, "validation_failed");
      expect((await ada.get(`/api/dashboards?id=${d.id}`)).body[0].name).toBe("Keep");
    });

    it("answers 404 for unknown ids on every method", async () => {
      expectProblem(await ada.get(`/api/dashboards?id=${MISSING}`), 404, "not_found");
      expectProblem(await ada.put("/api/dashboards", { id: MISSING, name: "x" }), 404, "not_found");
      expectProblem(await ada.delete(`/api/dashboards?id=${MISSING}`), 404, "not_found");
    });

    it("deletes a dashboard with its widgets and clears lastDashboardId", async () => {
      const d = (await ada.post("/api/dashboards", { name: "Doomed" })).body;
      const keep = (await ada.post("/api/dashboards", { name: "Kept" })).body;
      await ada.post("/api/widgets", widgetInput(d.id));
      await ada.post("/api/widgets", widgetInput(d.id, { widgetType: "Todo" }));
      const kept = (await ada.post("/api/widgets", widgetInput(keep.id))).body;
      const settings = (await ada.get("/api/settings")).body[0];
      await ada.put("/api/settings", { id: settings.id, lastDashboardId: d.id });

      const res = await ada.delete(`/api/dashboards?id=${d.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: d.id, name: "Doomed" });
      expectProblem(await ada.get(`/api/widgets?dashboardId=${d.id}`), 404, "not_found");
      const remaining = (await ada.get("/api/widgets")).body as { dashboardId: string; id: string }[];
      expect(remaining.some((w) => w.dashboardId === d.id)).toBe(false);
      expect(remaining.some((w) => w.id === kept.id)).toBe(true);
      expect((await ada.get("/api/settings")).body[0].lastDashboardId).toBeNull();
    });
  });

  describe("widgets", () => {
    let dashboardId: string;
    beforeAll(async () => {
      dashboardId = (await ada.post("/api/dashboards", { name: "Widgets" })).body.id;
    });

    it("creates every widget type with 201 and an empty config by default", async () => {
      const types = SPEC_WIDGET_TYPES;
      for (const widgetType of types) {
        const res = await ada.post("/api/widgets", widgetInput(dashboardId, { widgetType }));
        expect(res.status, widgetType).toBe(201);
        expect(res.body).toMatchObject({ widgetType, dashboardId, userId: ada.user!.id, config: {} });
        expect(res.body.id).toMatch(UUID);
      }
      const list = await ada.get(`/api/widgets?dashboardId=${dashboardId}`);
      expect(list.body.map((w: { widgetType: string }) => w.widgetType)).toEqual(types);
    });

    it("stores geometry and config exactly as given", async () => {
      const config = {
        todos: [{ id: "a", text: "ünïcode ✓", done: false, createdAt: "2026-01-01T00:00:00.000Z" }],
      };
      const res = await ada.post(
        "/api/widgets",
        widgetInput(dashboardId, {
          widgetType: "Todo",
          height: 212.5,
          width: 1,
          positionX: 0,
          positionY: 100000,
          config,
        }),
      );
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ height: 212.5, width: 1, positionX: 0, positionY: 100000, config });
    });

    it("answers the same widgets through the per-dashboard and the all-widgets paths", async () => {
      const d = (await ada.post("/api/dashboards", { name: "Twin paths" })).body;
      const odd = [
        {
          height: 0.1,
          width: 99999.99,
          positionX: 1e-7,
          positionY: 100000,
          config: { ü: ["✓", null, 1.5e10] },
        },
        {
          height: 1,
          width: 1,
          positionX: 0,
          positionY: 0,
          config: { nested: { deep: [{ a: '"quoted" \\ /' }] } },
        },
        { height: 3, width: 3, positionX: 7, positionY: 7 },
      ];
      for (const geometry of odd) await ada.post("/api/widgets", widgetInput(d.id, geometry));
      const one = (await ada.get(`/api/widgets?dashboardId=${d.id}`)).body;
      const all = (await ada.get("/api/widgets")).body.filter(
        (w: { dashboardId: string }) => w.dashboardId === d.id,
      );
      expect(one).toHaveLength(3);
      expect(one).toEqual(all);
      expect(one[0]).toMatchObject(odd[0]!);
    });

    it("updates only geometry and config; owner, dashboard and type are not accepted fields", async () => {
      const other = (await ada.post("/api/dashboards", { name: "Other" })).body;
      const w = (await ada.post("/api/widgets", widgetInput(dashboardId))).body;
      const res = await ada.put("/api/widgets", {
        id: w.id,
        positionX: 320,
        config: { timezone: "Europe/Paris" },
        widgetType: "Todo",
        dashboardId: other.id,
        userId: "someone-else",
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: w.id,
        positionX: 320,
        positionY: w.positionY,
        height: w.height,
        widgetType: "Clock",
        dashboardId,
        userId: ada.user!.id,
        config: { timezone: "Europe/Paris" },
      });
    });

    it("rejects a widget on an unknown dashboard with 404 and writes nothing", async () => {
      const before = (await ada.get("/api/widgets")).body.length;
      expectProblem(await ada.post("/api/widgets", widgetInput(MISSING)), 404, "not_found");
      expect((await ada.get("/api/widgets")).body.length).toBe(before);
    });

    it("answers 404 for unknown widget ids and dashboards", async () => {
      expectProblem(await ada.put("/api/widgets", { id: MISSING, height: 10 }), 404, "not_found");
      expectProblem(await ada.delete(`/api/widgets?id=${MISSING}`), 404, "not_found");
      expectProblem(await ada.get(`/api/widgets?dashboardId=${MISSING}`), 404, "not_found");
    });

    it("returns an empty array for a dashboard without widgets", async () => {
      const empty = (await ada.post("/api/dashboards", { name: "Empty" })).body;
      const res = await ada.get(`/api/widgets?dashboardId=${empty.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    });

    it("deletes and returns the deleted widget", async () => {
      const w = (await ada.post("/api/widgets", widgetInput(dashboardId))).body;
      const res = await ada.delete(`/api/widgets?id=${w.id}`);
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(w.id);
      expectProblem(await ada.delete(`/api/widgets?id=${w.id}`), 404, "not_found");
    });

    it("rejects a config over 256 KiB", async () => {
      const config = { notes: "x".repeat(300 * 1024) };
      expectProblem(
        await ada.post("/api/widgets", widgetInput(dashboardId, { config })),
        400,
        "validation_failed",
      );
    });
  });

  describe("settings", () => {
    it("updates config (any JSON), lastDashboardId (also null) and onboardingCompleted", async () => {
      const s = (await ada.get("/api/settings")).body[0];
      const d = (await ada.post("/api/dashboards", { name: "Last" })).body;
      const config = { theme: "dark", reminders: [5, 10], nested: { a: null } };
      const res = await ada.put("/api/settings", {
        id: s.id,
        lastDashboardId: d.id,
        config,
        onboardingCompleted: true,
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: s.id, lastDashboardId: d.id, config, onboardingCompleted: true });
      // The original app's worst bug: a null lastDashboardId must be accepted.
      const cleared = await ada.put("/api/settings", { id: s.id, lastDashboardId: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({ lastDashboardId: null, config, onboardingCompleted: true });
      const list = (await ada.get("/api/settings")).body;
      expect(list).toHaveLength(1);
    });

    it("stores a non-object config as any JSON value", async () => {
      const s = (await ada.get("/api/settings")).body[0];
      const res = await ada.put("/api/settings", { id: s.id, config: ["a", 1, true] });
      expect(res.status).toBe(200);
      expect(res.body.config).toEqual(["a", 1, true]);
      await ada.put("/api/settings", { id: s.id, config: {} });
    });

    it("rejects a lastDashboardId that is not the user's dashboard with 400", async () => {
      const s = (await ada.get("/api/settings")).body[0];
      expectProblem(
        await ada.put("/api/settings", { id: s.id, lastDashboardId: MISSING }),
        400,
        "validation_failed",
      );
    });

    it("answers 404 for an unknown settings id", async () => {
      expectProblem(
        await ada.put("/api/settings", { id: MISSING, onboardingCompleted: true }),
        404,
        "not_found",
      );
    });

    it("re-creates a missing settings row instead of failing", async () => {
      const client = await signedInClient(built.app, "Healed");
      const { settings } = await import("../../src/server/db/schema.js");
      const { eq } = await import("drizzle-orm");
      await built.ctx.database.db.delete(settings).where(eq(settings.userId, client.user!.id));
      const res = await client.get("/api/settings");
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(1);
      expect(res.body[0].onboardingCompleted).toBe(false);
    });
  });

  describe("notifications", () => {
    it("creates with 201 and lists newest first", async () => {
      const client = await signedInClient(built.app, "Notified");
      const first = await client.post("/api/notifications", { type: "message", message: "one" });
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ type: "message", message: "one", userId: client.user!.id });
      expect(first.body.id).toMatch(UUID);
      expect(first.body.createdAt).toMatch(ISO_MS);
      await client.post("/api/notifications", { type: "alert", message: "two" });
      await client.post("/api/notifications", { type: "reminder", message: "three" });
      const list = await client.get("/api/notifications");
      expect(list.body.map((n: { message: string }) => n.message)).toEqual(["three", "two", "one"]);
      expect(list.body[2]).toEqual(first.body);
    });

    it("rejects unknown types and empty or over-long messages", async () => {
      for (const body of [
        { type: "info", message: "x" },
        { type: "Message", message: "x" },
        { type: "message", message: "" },
        { type: "message", message: "x".repeat(2001) },
        { type: "message" },
      ]) {
        expectProblem(await ada.post("/api/notifications", body), 400, "validation_failed");
      }
    });

    it("deletes all of the user's notifications and answers success", async () => {
      const client = await signedInClient(built.app, "Cleaner");
      await client.post("/api/notifications", { type: "message", message: "bye" });
      const res = await client.delete("/api/notifications");
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect((await client.get("/api/notifications")).body).toEqual([]);
    });
  });

  describe("accounts", () => {
    it("lists no accounts for a password user: the credential row is never listed", async () => {
      const res = await ada.get("/api/accounts");
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    });

    it("answers 404 account_not_connected for PUT and DELETE of an unlinked provider", async () => {
      expectProblem(
        await ada.put("/api/accounts", { provider: "codehost", refreshToken: "new-token" }),
        404,
        "account_not_connected",
      );
      expectProblem(await ada.delete("/api/accounts?provider=notes"), 404, "account_not_connected");
    });

    it("rejects providers other than the three", async () => {
      for (const provider of ["google", "github", "Suite", "credential", ""]) {
        expectProblem(
          await ada.put("/api/accounts", { provider, refreshToken: "x" }),
          400,
          "validation_failed",
        );
        expectProblem(await ada.delete(`/api/accounts?provider=${provider}`), 400, "validation_failed");
      }
      expectProblem(await ada.delete("/api/accounts"), 400, "validation_failed");
    });
  });

  describe("authentication is required everywhere", () => {
    const routes: [string, string][] = [
      ["GET", "/api/accounts"],
      ["PUT", "/api/accounts"],
      ["DELETE", "/api/accounts?provider=suite"],
      ["GET", "/api/widgets"],
      ["POST", "/api/widgets"],
      ["PUT", "/api/widgets"],
      ["DELETE", `/api/widgets?id=${MISSING}`],
      ["GET", "/api/dashboards"],
      ["POST", "/api/dashboards"],
      ["PUT", "/api/dashboards"],
      ["DELETE", `/api/dashboards?id=${MISSING}`],
      ["GET", "/api/settings"],
      ["PUT", "/api/settings"],
      ["GET", "/api/notifications"],
      ["POST", "/api/notifications"],
      ["DELETE", "/api/notifications"],
    ];
    it.each(routes)("%s %s without a session is 401", async (method, url) => {
      const anonymous = new TestClient(built.app);
      const res = await anonymous.request({
        method: method as "GET",
        url,
        json: method === "GET" || method === "DELETE" ? undefined : { name: "x" },
      });
      expectProblem(res, 401, "unauthenticated");
    });
  });

  describe("HTTP conventions", () => {
    it("answers 405 with Allow for a method a path does not serve", async () => {
      const res = await ada.request({ method: "PATCH", url: "/api/dashboards", json: { name: "x" } });
      expectProblem(res, 405, "method_not_allowed");
      expect(String(res.headers.allow)).toContain("GET");
      expect(String(res.headers.allow)).toContain("POST");
    });

    it("answers 404 problem+json for unknown API paths", async () => {
      expectProblem(await ada.get("/api/nothing-here"), 404, "not_found");
    });

    it("sends a request id with every response", async () => {
      const res = await ada.get("/api/dashboards");
      expect(res.headers["x-request-id"]).toEqual(expect.any(String));
    });
  });
});
