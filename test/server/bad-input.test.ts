import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { signedInClient, type TestClient } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";

/**
 * Every bad input gets a clear 4xx problem+json and changes nothing: malformed JSON, wrong
 * types, arrays and nulls, bad UUIDs, unknown enum values, fractional and huge numbers,
 * prototype keys, oversize bodies, missing or wrong content types.
 */
describe.each(MODES)("bad-input sweep (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let user: TestClient;
  let dashboardId: string;
  let widgetId: string;
  let settingsId: string;

  const snapshot = () => user.snapshot();

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    built = await mode.start();
    user = await signedInClient(built.app, "Sweep");
    dashboardId = (await user.post("/api/dashboards", { name: "Sweep" })).body.id;
    widgetId = (
      await user.post("/api/widgets", {
        dashboardId,
        widgetType: "Clock",
        height: 100,
        width: 100,
        positionX: 0,
        positionY: 0,
      })
    ).body.id;
    settingsId = (await user.get("/api/settings")).body[0].id;
  });
  afterAll(() => mode.teardown());

  const validBodies = () => ({
    "POST /api/dashboards": { name: "ok" },
    "PUT /api/dashboards": { id: dashboardId, name: "ok" },
    "POST /api/widgets": {
      dashboardId,
      widgetType: "Clock",
      height: 10,
      width: 10,
      positionX: 0,
      positionY: 0,
    },
    "PUT /api/widgets": { id: widgetId, height: 10 },
    "PUT /api/settings": { id: settingsId, onboardingCompleted: true },
    "POST /api/notifications": { type: "message", message: "ok" },
    "PUT /api/accounts": { provider: "suite", refreshToken: "token" },
  });

  /** For each route, field mutations that must each be rejected with 400. */
  const mutations = (): Record<string, Record<string, unknown>[]> => ({
    "POST /api/dashboards": [
      { name: 5 },
      { name: null },
      { name: ["ok"] },
      { name: { toString: "x" } },
      { name: true },
      {},
    ],
    "PUT /api/dashboards": [
      { id: "not-a-uuid", name: "x" },
      { id: 7, name: "x" },
      { id: null, name: "x" },
      { id: dashboardId, name: "x", isPublic: "true" },
      { id: dashboardId, name: "x", isPublic: 1 },
      { id: `${dashboardId}'; DROP TABLE dashboards; --`, name: "x" },
    ],
    "POST /api/widgets": [
      { widgetType: "clock" },
      { widgetType: "Toaster" },
      { widgetType: ["Clock"] },
      { widgetType: null },
      { dashboardId: "nope" },
      { dashboardId: null },
      { height: "100" },
      { height: 0 },
      { height: -1 },
      { width: 100001 },
      { positionX: -0.5 },
      { positionY: 1e300 },
      { positionY: null },
      { config: [] },
      { config: "{}" },
      { config: null },
    ],
    "PUT /api/widgets": [
      { id: "1" },
      { height: "10" },
      { width: [10] },
      { positionX: -1 },
      { config: [1, 2] },
      { config: 3 },
    ],
    "PUT /api/settings": [
      { id: "x" },
      { onboardingCompleted: "true" },
      { onboardingCompleted: 1 },
      { onboardingCompleted: null },
      { lastDashboardId: "not-a-uuid" },
      { lastDashboardId: 12 },
    ],
    "POST /api/notifications": [
      { type: "info" },
      { type: "MESSAGE" },
      { type: null },
      { message: 42 },
      { message: ["x"] },
      { message: null },
      { message: "" },
    ],
    "PUT /api/accounts": [
      { provider: "google" },
      { provider: null },
      { refreshToken: 5 },
      { refreshToken: "" },
    ],
  });

  it("rejects each wrong type, null, array, bad UUID, enum and bound with 400 and writes nothing", async () => {
    const before = await snapshot();
    const valid = validBodies();
    for (const [route, list] of Object.entries(mutations())) {
      const [method, url] = route.split(" ") as [string, string];
      for (const change of list) {
        const body = { ...valid[route as keyof typeof valid], ...change };
        if (Object.keys(change).length === 0) for (const k of Object.keys(body)) delete (body as any)[k];
        const res = await user.request({ method: method as "POST", url, json: body });
        const label = `${route} ${JSON.stringify(change)}`;
        expect(res.status, label).toBe(400);
        expect(res.headers["content-type"], label).toMatch(/application\/problem\+json/);
        expect(res.body.code, label).toBe("validation_failed");
        expect(res.body.errors?.length ?? 0, label).toBeGreaterThan(0);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it("names the allowed values of an enum once, in one error for that field", async () => {
    const res = await user.post("/api/notifications", { type: "info", message: "ok" });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { path: "/type", message: 'must be one of: "message", "alert", "reminder"' },
    ]);
    expect(res.body.detail).toBe('The body is invalid: /type must be one of: "message", "alert", "reminder"');
  });

  it("rejects non-JSON bodies, bodies that are not objects, and prototype keys", async () => {
    const before = await snapshot();
    const payloads = [
      "{",
      "not json",
      '{"name": "x",}',
      "[]",
      "null",
      '"a string"',
      "42",
      '{"name":"x","__proto__":{"isAdmin":true}}',
      '{"name":"x","constructor":{"prototype":{"polluted":true}}}',
    ];
    for (const route of Object.keys(validBodies())) {
      const [method, url] = route.split(" ") as [string, string];
      for (const payload of payloads) {
        const res = await user.request({
          method: method as "POST",
          url,
          payload,
          headers: { "content-type": "application/json" },
        });
        const label = `${route} ${payload}`;
        expect(res.status, label).toBe(400);
        expect(res.headers["content-type"], label).toMatch(/application\/problem\+json/);
        expect(["invalid_json", "validation_failed"], label).toContain(res.body.code);
      }
    }
    expect(({} as any).isAdmin).toBeUndefined();
    expect(({} as any).polluted).toBeUndefined();
    expect(await snapshot()).toEqual(before);
  });

  it("answers 413 for a 2 MiB body and 415 for a missing or wrong content type", async () => {
    const before = await snapshot();
    const huge = JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) });
    for (const route of Object.keys(validBodies())) {
      const [method, url] = route.split(" ") as [string, string];
      const big = await user.request({
        method: method as "POST",
        url,
        payload: huge,
        headers: { "content-type": "application/json" },
      });
      expect(big.status, `${route} 2 MiB`).toBe(413);
      expect(big.body.code).toBe("payload_too_large");
      for (const type of [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
      ]) {
        const res = await user.request({
          method: method as "POST",
          url,
          payload: "name=x",
          headers: { "content-type": type },
        });
        expect(res.status, `${route} ${type}`).toBe(415);
        expect(res.body.code).toBe("unsupported_media_type");
      }
      const bare = await user.request({
        method: method as "POST",
        url,
        payload: JSON.stringify({ name: "x" }),
      });
      expect([400, 415], `${route} without content type`).toContain(bare.status);
      expect(bare.headers["content-type"]).toMatch(/application\/problem\+json/);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("rejects bad query strings: bad UUIDs, repeated keys, unknown providers", async () => {
    const urls: [string, string][] = [
      ["GET", "/api/dashboards?id=nope"],
      ["GET", `/api/dashboards?id=${dashboardId}&id=${dashboardId}`],
      ["GET", "/api/widgets?dashboardId=123"],
      ["DELETE", "/api/widgets?id="],
      ["DELETE", "/api/widgets"],
      ["DELETE", "/api/dashboards?id=%00"],
      ["DELETE", "/api/accounts?provider=Google"],
      ["DELETE", "/api/accounts?provider[]=suite"],
    ];
    const before = await snapshot();
    for (const [method, url] of urls) {
      const res = await user.request({ method: method as "GET", url });
      expect(res.status, `${method} ${url}`).toBe(400);
      expect(res.body.code, `${method} ${url}`).toBe("validation_failed");
    }
    expect(await snapshot()).toEqual(before);
  });

  it("never answers 5xx to any of the above", async () => {
    // A broad pass of single-field bodies: some are even valid (a dashboard named "💥"), none may be a 5xx.
    const junk: unknown[] = [
      0,
      -1,
      Number.MAX_VALUE,
      "",
      "💥",
      [],
      [{}],
      { a: { b: { c: [] } } },
      true,
      null,
    ];
    for (const route of Object.keys(validBodies())) {
      const [method, url] = route.split(" ") as [string, string];
      for (const value of junk) {
        for (const field of [
          "id",
          "name",
          "widgetType",
          "type",
          "config",
          "provider",
          "height",
          "dashboardId",
        ]) {
          const res = await user.request({ method: method as "POST", url, json: { [field]: value } });
          expect(res.status, `${route} ${field}=${JSON.stringify(value)}`).toBeLessThan(500);
        }
      }
    }
  });
});
