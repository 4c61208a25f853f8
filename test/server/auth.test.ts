import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { TestClient, uniqueEmail } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";

describe.each(MODES)("authentication (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    built = await mode.start();
  });
  afterAll(() => mode.teardown());

  it("signs up with a cookie named exactly `session`, HttpOnly and SameSite=Lax", async () => {
    const client = new TestClient(built.app);
    const email = uniqueEmail();
    const res = await client.post("/api/auth/sign-up/email", {
      name: "Ada",
      email,
      password: "correct horse 1",
    });
    expect(res.status).toBe(200);
    const cookies = [res.headers["set-cookie"]].flat().filter(Boolean) as string[];
    const session = cookies.find((c) => c.startsWith("session="));
    expect(session).toBeDefined();
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(JSON.stringify(res.body)).not.toMatch(/password/i);
  });

  it("creates exactly one settings row by the time sign-up answers", async () => {
    const client = new TestClient(built.app);
    await client.signUp();
    const res = await client.get("/api/settings");
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({
      userId: client.user!.id,
      onboardingCompleted: false,
      lastDashboardId: null,
    });
  });

  it("accepts the session token as a bearer token, for scripts", async () => {
    const client = new TestClient(built.app);
    await client.signUp();
    const anonymous = new TestClient(built.app);
    const res = await anonymous.get("/api/dashboards", { authorization: `Bearer ${client.sessionToken}` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it("rejects a forged cookie and a raw token passed as cookie", async () => {
    const client = new TestClient(built.app);
    await client.signUp();
    const forged = client.cookie!.replace(
      /^session=([^.]+)\..*$/,
      "session=$1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA%3D",
    );
    const anonymous = new TestClient(built.app);
    for (const cookie of [forged, `session=${client.sessionToken}`, "session=", "session=%E0%A4%A"]) {
      const res = await anonymous.get("/api/dashboards", { cookie });
      expect(res.status, cookie).toBe(401);
      expect(res.headers["content-type"]).toMatch(/application\/problem\+json/);
      expect(res.body.code).toBe("unauthenticated");
    }
  });

  it("signs in with email and password and rejects a wrong password with problem+json", async () => {
    const first = new TestClient(built.app);
    const { email, password } = await first.signUp();
    const again = new TestClient(built.app);
    const ok = await again.post("/api/auth/sign-in/email", { email, password });
    expect(ok.status).toBe(200);
    expect((await again.get("/api/settings")).status).toBe(200);

    const wrong = await new TestClient(built.app).post("/api/auth/sign-in/email", {
      email,
      password: "not-it-at-all",
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers["content-type"]).toMatch(/application\/problem\+json/);
    expect(wrong.body).toMatchObject({ status: 401, code: "auth_invalid_email_or_password" });
  });

  it("ends the session on sign-out, even though sessions are cached", async () => {
    const client = new TestClient(built.app);
    await client.signUp();
    const cookie = client.cookie!;
    expect((await client.get("/api/dashboards")).status).toBe(200); // now cached
    const out = await client.post("/api/auth/sign-out", {});
    expect(out.status).toBe(200);
    const after = await new TestClient(built.app).get("/api/dashboards", { cookie });
    expect(after.status).toBe(401);
  });

  it("rejects a cookie-authenticated write from another origin", async () => {
    const client = new TestClient(built.app);
    await client.signUp();
    const res = await client.post("/api/dashboards", { name: "x" }, { origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("cross_site_request");
    expect((await client.get("/api/dashboards")).body).toEqual([]);
  });
});
