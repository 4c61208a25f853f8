import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { signedInClient, TestClient, uniqueEmail } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";

const EVIL = "https://evil.example";

describe.each(MODES)("authentication edges (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  beforeAll(async () => {
    mode = await prepareMode(modeName);
    built = await mode.start();
  });
  afterAll(() => mode.teardown());

  it("never lets an Authorization header carry a cookie past the origin check", async () => {
    const client = await signedInClient(built.app, "Cookie");
    const post = (headers: Record<string, string>) =>
      client.request({
        method: "POST",
        url: "/api/dashboards",
        json: { name: "forged" },
        headers: { origin: EVIL, ...headers },
      });
    for (const authorization of ["Bearer not-a-session", "Basic dXNlcjpwYXNz", "Bearer", "tsk_whatever"]) {
      const res = await post({ authorization });
      expect(res.status, authorization).toBe(403);
      expect(res.body.code).toBe("cross_site_request");
    }
    expect((await client.get("/api/dashboards")).body).toEqual([]);
    // A valid bearer credential stands on its own, from anywhere (scripts), without the cookie.
    const script = new TestClient(built.app);
    const res = await script.request({
      method: "POST",
      url: "/api/dashboards",
      json: { name: "from a script" },
      headers: { origin: EVIL, authorization: `Bearer ${client.sessionToken}` },
    });
    expect(res.status).toBe(201);
  });

  it("keeps the session token out of what page scripts can read", async () => {
    const client = await signedInClient(built.app, "Reader");
    const session = await client.get("/api/auth/get-session");
    expect(session.status).toBe(200);
    expect(session.body.session.id).toBeDefined();
    expect(session.body.session.token).toBeUndefined();
    expect(session.text).not.toContain(client.sessionToken!);
    const list = await client.get("/api/auth/list-sessions");
    expect(list.status).toBe(200);
    expect(list.body.length).toBeGreaterThan(0);
    expect(list.body.every((s: { token?: string }) => s.token === undefined)).toBe(true);
    expect(list.text).not.toContain(client.sessionToken!);
  });

  it("keeps only hashes of session tokens in the database, and the raw token still works", async () => {
    const client = await signedInClient(built.app, "Hashed");
    const result = await built.ctx.database.db.execute(
      sql`SELECT token FROM session WHERE user_id = ${client.user!.id}`,
    );
    const rows = (result as unknown as { rows: { token: string }[] }).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token).not.toBe(client.sessionToken);
    expect(rows[0]!.token).toBe(createHash("sha256").update(client.sessionToken!).digest("hex"));
    // Cookie and bearer still sign the user in; the stored hash does not.
    expect((await client.get("/api/dashboards")).status).toBe(200);
    const bearer = (token: string) =>
      new TestClient(built.app).request({
        method: "GET",
        url: "/api/dashboards",
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await bearer(client.sessionToken!)).status).toBe(200);
    expect((await bearer(rows[0]!.token)).status).toBe(401);
    expect((await client.get("/api/auth/get-session")).body.user.id).toBe(client.user!.id);
    // Signing out ends it.
    expect((await client.post("/api/auth/sign-out", {})).status).toBe(200);
    expect((await bearer(client.sessionToken!)).status).toBe(401);
  });

  it("limits sign-ups per address, so the honest 'already exists' answer cannot list accounts", async () => {
    const limited = await mode.start({ rateLimits: { ...built.ctx.config.rateLimits, signupsPerHour: 3 } });
    const signUp = (email: string) =>
      new TestClient(limited.app).request({
        method: "POST",
        url: "/api/auth/sign-up/email",
        json: { name: "Prober", email, password: "long-enough-password-1" },
        remoteAddress: "10.3.0.1",
      });
    const taken = uniqueEmail("taken");
    expect((await signUp(taken)).status).toBe(200);
    const again = await signUp(taken);
    expect(again.status).toBe(422);
    expect(await signUp(uniqueEmail("probe"))).toMatchObject({ status: 200 });
    const refused = await signUp(uniqueEmail("probe"));
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("rate_limited");
  });
});
