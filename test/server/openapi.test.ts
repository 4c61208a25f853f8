import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { TestClient } from "../support/client.js";
import { type ModeEnv, prepareMode } from "../support/modes.js";

describe("OpenAPI document", () => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let doc: any;

  beforeAll(async () => {
    mode = await prepareMode("embedded");
    built = await mode.start();
    const res = await new TestClient(built.app).get("/api/openapi.json");
    expect(res.status).toBe(200);
    doc = res.body;
  });
  afterAll(() => mode.teardown());

  it("has request and response schemas that compile for every route (the server compiles each on first use)", () => {
    // Only /api/openapi.json has answered yet: every other route's validators and serializers compile here.
    expect(built.compileSchemas()).toBeGreaterThan(150);
    expect(built.compileSchemas()).toBe(0);
  });

  it("is OpenAPI 3.1 with every spec path and method", () => {
    expect(doc.openapi).toBe("3.1.0");
    const expected: Record<string, string[]> = {
      "/api/accounts": ["get", "put", "delete"],
      "/api/widgets": ["get", "post", "put", "patch", "delete"],
      "/api/dashboards": ["get", "post", "put", "delete"],
      "/api/settings": ["get", "put"],
      "/api/notifications": ["get", "post", "delete"],
    };
    for (const [path, methods] of Object.entries(expected)) {
      expect(Object.keys(doc.paths[path] ?? {}).sort(), path).toEqual([...methods].sort());
    }
  });

  it("documents success and error responses of every operation, errors as problem details", () => {
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        const statuses = Object.keys(operation.responses ?? {});
        const label = `${method.toUpperCase()} ${path}`;
        expect(
          statuses.some((s) => /^[23]/.test(s)),
          label,
        ).toBe(true);
        const errors = statuses.filter((s) => Number(s) >= 400);
        expect(errors.length, label).toBeGreaterThan(0);
        // Every operation needs a session unless it declares itself public (`security: []`).
        const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
        if (!isPublic) expect(statuses, label).toContain("401");
        for (const status of errors) {
          const content = operation.responses[status].content ?? {};
          const schema = JSON.stringify(Object.values<any>(content)[0]?.schema ?? {});
          expect(schema, `${label} ${status}`).toMatch(/Problem/);
        }
      }
    }
  });

  it("holds every operation to what it documents: without a session, 401 unless it is public", async () => {
    const uuid = "0190a0a0-0000-7000-8000-000000000000";
    const params: Record<string, string> = { id: uuid, widgetId: uuid, provider: "suite" };
    let checked = 0;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        const url = path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? "x");
        const res = await built.app.inject({
          method: method.toUpperCase() as "GET",
          url,
          ...(method === "get" || method === "delete" ? {} : { payload: {} }),
        });
        const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
        const label = `${method.toUpperCase()} ${path}: ${res.statusCode}`;
        if (isPublic) expect(res.statusCode, label).not.toBe(401);
        else expect(res.json().code, label).toBe("unauthenticated");
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it("renders the document at /api/docs", async () => {
    const res = await new TestClient(built.app).get("/api/docs/");
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/swagger/i);
  });
});
