import { createHash } from "node:crypto";
import { Writable } from "node:stream";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiKeyScope } from "../../src/contract/operators.js";
import type { BuiltApp } from "../../src/server/app.js";
import { signedInClient, TestClient } from "../support/client.js";
import { testConfig } from "../support/config.js";
import { type ModeEnv, prepareMode } from "../support/modes.js";
import { registerSecret } from "../support/secrets.js";

const UUID = "0190a0a0-0000-7000-8000-000000000000";

/**
 * What DESIGN section 9 says each route allows an API key, written out here independently of
 * the server's own declarations: session-only routes, the one notifications:write route, and
 * for every other route the method (reads need `read`, everything else `write`). The table test
 * walks the OpenAPI document, so a new route is checked the day it is added.
 */
const SESSION_ONLY = [
  /^\/api\/admin\//,
  /^\/api\/keys$/,
  /^\/api\/sessions$/,
  /^\/api\/bootstrap$/,
  /^(PUT|DELETE) \/api\/accounts$/,
  // Changing the password or the sign-in address needs a person (and their password).
  /^\/api\/account\/(password|email)$/,
  // A push subscription belongs to the browser that made it; the test push is its settings button.
  /^\/api\/push\/subscriptions$/,
  /^POST \/api\/push\/test$/,
];
function expectedScope(method: string, path: string): ApiKeyScope | "session" {
  if (SESSION_ONLY.some((rule) => rule.test(path) || rule.test(`${method} ${path}`))) return "session";
  if (method === "POST" && path === "/api/notifications") return "notifications:write";
  return method === "GET" ? "read" : "write";
}
const grants = (scopes: ApiKeyScope[], needed: ApiKeyScope) =>
  scopes.includes(needed) || scopes.includes("write");

describe("API keys (postgres+redis)", () => {
  let mode: ModeEnv;
  let one: BuiltApp;
  let two: BuiltApp;
  let owner: TestClient;
  const logs: string[] = [];

  beforeAll(async () => {
    mode = await prepareMode("postgres+redis");
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        logs.push(String(chunk));
        done();
      },
    });
    one = await mode.start({ logLevel: "trace", rateLimitEnabled: false }, { logStream });
    two = await mode.start({ rateLimitEnabled: false });
    owner = await signedInClient(one.app, "Scripter");
  });
  afterAll(() => mode.teardown());

  async function createKey(scopes: ApiKeyScope[], name = "cron") {
    const res = await owner.post("/api/keys", { name, scopes });
    expect(res.status, res.text).toBe(201);
    registerSecret(res.body.key);
    return res.body as { id: string; key: string; start: string };
  }
  const asKey = (app: BuiltApp, key: string) => {
    const client = new TestClient(app.app);
    const auth = { authorization: `Bearer ${key}` };
    return {
      get: (url: string) => client.get(url, auth),
      post: (url: string, body: unknown) => client.post(url, body, { ...auth, origin: "" }),
      request: (method: string, url: string, body?: unknown) =>
        client.request({ method: method as "GET", url, json: body, headers: { ...auth, origin: "" } }),
    };
  };

  it("shows a key once, lists it without the key, and keeps only its hash", async () => {
    const created = await owner.post("/api/keys", {
      name: "uptime monitor",
      scopes: ["notifications:write"],
    });
    expect(created.status).toBe(201);
    const { key, id, start } = created.body;
    registerSecret(key);
    expect(key).toMatch(/^tsk_[A-Za-z]{64}$/);
    expect(key.startsWith(start.replace("…", ""))).toBe(true);
    expect(created.body).toMatchObject({
      name: "uptime monitor",
      scopes: ["notifications:write"],
      lastUsedAt: null,
    });

    const list = await owner.get("/api/keys");
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(key);
    expect(list.body.find((k: { id: string }) => k.id === id)).toMatchObject({
      name: "uptime monitor",
      start,
    });

    const result = (await one.ctx.database.db.execute(sql`SELECT * FROM apikey WHERE id = ${id}`)) as unknown;
    const rows = (result as { rows: Record<string, unknown>[] }).rows;
    expect(JSON.stringify(rows)).not.toContain(key.slice(4));
    expect(rows[0]!.key).toBe(createHash("sha256").update(key).digest("base64url"));

    const posted = await asKey(two, key).post("/api/notifications", {
      type: "alert",
      message: "disk full",
    });
    expect(posted.status, posted.text).toBe(201);
    expect((await owner.get("/api/notifications")).body[0].message).toBe("disk full");
    const used = (await owner.get("/api/keys")).body.find((k: { id: string }) => k.id === id);
    expect(Date.parse(used.lastUsedAt)).toBeGreaterThan(0);

    // Not in any log line, though the app logged at trace level throughout.
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.join("\n")).not.toContain(key.slice(4));
  });

  it("validates what it is sent and refuses unknown or bad keys with 401", async () => {
    for (const body of [
      { name: "", scopes: ["read"] },
      { name: "x", scopes: [] },
      { name: "x", scopes: ["admin"] },
      { name: "x", scopes: ["read", "read"] },
      { name: "x", scopes: ["read"], expiresInDays: 0 },
      { name: "x".repeat(101), scopes: ["read"] },
    ]) {
      const res = await owner.post("/api/keys", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    for (const bad of ["tsk_nope", `tsk_${"A".repeat(64)}`, "tsk_", `tsk_${"x".repeat(500)}`]) {
      const res = await asKey(one, bad).get("/api/dashboards");
      expect(res.status, bad).toBe(401);
      expect(res.body.code).toBe("unauthenticated");
      expect(res.body.detail, bad).toMatch(/^This API key is not valid/);
    }
    expect((await owner.delete(`/api/keys?id=${UUID}`)).status).toBe(404);
    const other = await signedInClient(one.app, "Other");
    const mine = await createKey(["read"], "mine");
    expect((await other.delete(`/api/keys?id=${mine.id}`)).status).toBe(404);
    expect((await asKey(one, mine.key).get("/api/dashboards")).status).toBe(200);
  });

  it("tells a revoked or expired key apart from no credentials at all", async () => {
    const notValid = /^This API key is not valid: it may have been revoked or expired/;
    const none = await new TestClient(one.app).get("/api/dashboards");
    expect(none.status).toBe(401);
    expect(none.body.detail).toMatch(/^Sign in first/);

    const revoked = await createKey(["read"], "revoked");
    expect((await asKey(one, revoked.key).get("/api/dashboards")).status).toBe(200);
    expect((await owner.delete(`/api/keys?id=${revoked.id}`)).status).toBe(204);
    // Twice, on both instances: the answer does not change once the row is gone.
    for (const app of [one, two, one]) {
      const res = await asKey(app, revoked.key).get("/api/dashboards");
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: "unauthenticated", detail: expect.stringMatching(notValid) });
      expect(res.headers["www-authenticate"]).toBe('Bearer error="invalid_token"');
    }

    const expired = await createKey(["write"], "expired");
    await one.ctx.database.db.execute(
      sql`UPDATE apikey SET expires_at = now() - interval '1 minute' WHERE id = ${expired.id}`,
    );
    for (let i = 0; i < 2; i++) {
      const res = await asKey(two, expired.key).post("/api/notifications", { type: "alert", message: "x" });
      expect(res.status).toBe(401);
      expect(res.body.detail).toMatch(notValid);
    }

    // A refused key does not hide the session of a browser that also sent its cookie.
    const both = await new TestClient(one.app).get("/api/dashboards", {
      authorization: `Bearer ${revoked.key}`,
      cookie: owner.cookie!,
    });
    expect(both.status).toBe(200);
  });

  it("holds every route of the OpenAPI document to each scope", async () => {
    const doc = (await new TestClient(one.app).get("/api/openapi.json")).body;
    const keys = {
      read: await createKey(["read"], "read"),
      write: await createKey(["write"], "write"),
      notify: await createKey(["notifications:write"], "notify"),
    };
    let checked = 0;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [lower, operation] of Object.entries<any>(item)) {
        if (Array.isArray(operation.security) && operation.security.length === 0) continue;
        const method = lower.toUpperCase();
        const url = path.replace(/\{\w+\}/g, "x");
        const expected = expectedScope(method, path);
        for (const [scopes, key] of [
          [["read"], keys.read.key],
          [["write"], keys.write.key],
          [["notifications:write"], keys.notify.key],
        ] as [ApiKeyScope[], string][]) {
          const res = await asKey(one, key).request(
            method,
            url,
            method === "GET" || method === "DELETE" ? undefined : {},
          );
          const label = `${method} ${path} with ${scopes}: ${res.status} ${res.text.slice(0, 120)}`;
          if (expected === "session" || !grants(scopes, expected)) {
            expect(res.status, label).toBe(403);
            expect(res.body.code, label).toBe("insufficient_scope");
          } else {
            // Allowed through: whatever the route then says, it is not about who is asking.
            expect([401, 403], label).not.toContain(res.status);
          }
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("revokes at once on every instance, and ends the key's realtime stream", async () => {
    const { id, key } = await createKey(["read"]);
    expect((await asKey(two, key).get("/api/dashboards")).status).toBe(200);
    const base = await two.app.listen({ port: 0, host: "127.0.0.1" });
    const { SseClient } = await import("../../bench/realtime/sse-client.js");
    const stream = await SseClient.open(`${base}/api/realtime`, { authorization: `Bearer ${key}` });
    expect(stream.status).toBe(200);

    expect((await owner.delete(`/api/keys?id=${id}`)).status).toBe(204);
    expect((await asKey(two, key).get("/api/dashboards")).status).toBe(401);
    await stream.until(() => stream.ended, 1000, "the revoked key's stream to end");
    expect((await owner.get("/api/keys")).body.some((k: { id: string }) => k.id === id)).toBe(false);
  });

  it("spends each key's own rate budget", async () => {
    const limited = await mode.start({
      access: { ...testConfig().access, apiKeyBurst: 3, apiKeyPerMinute: 1 },
    });
    const scripter = await signedInClient(limited.app, "Limited");
    const make = async () => {
      const res = await scripter.post("/api/keys", { name: "busy", scopes: ["read"] });
      registerSecret(res.body.key);
      return res.body.key as string;
    };
    const [first, second] = [await make(), await make()];
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await asKey(limited, first).get("/api/dashboards")).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // Another key of the same user, and the user's own session, are not held back.
    expect((await asKey(limited, second).get("/api/dashboards")).status).toBe(200);
    expect((await scripter.get("/api/dashboards")).status).toBe(200);
  });
});
