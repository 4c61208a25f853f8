import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AVATAR_MAX_CHARS } from "../../src/contract/account.js";
import type { BuiltApp } from "../../src/server/app.js";
import { TestClient, uniqueEmail } from "../support/client.js";
import { MODES, type ModeEnv, type ModeName, prepareMode } from "../support/modes.js";
import { expectProblem } from "../support/problems.js";
import { registerSecret } from "../support/secrets.js";

/**
 * Settings › Profile (issue 35): password change (other sessions end, on every instance, cached
 * or not), email change with the password, the picture, the sessions' addresses, and "last
 * active" surviving a sign-out. Every refusal is a 4xx that changes nothing.
 */

// The smallest images of each type, as their magic numbers make them.
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360f8cf0000000301010018dd8db40000000049454e44ae426082",
  "hex",
);
const JPEG = Buffer.from("ffd8ffe000104a46494600010100000100010000ffd9", "hex");
const WEBP = Buffer.concat([
  Buffer.from("RIFF"),
  Buffer.from([26, 0, 0, 0]),
  Buffer.from("WEBPVP8L"),
  Buffer.alloc(14),
]);
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString("base64")}`;

const rows = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

describe.each<ModeName>(MODES)("the account's own settings (%s)", { timeout: 120_000 }, (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  /** A second instance on the same database and bus (PostgreSQL modes): its cache is its own. */
  let second: BuiltApp | null = null;
  let admin: TestClient;

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    built = await mode.start();
    if (modeName !== "embedded") second = await mode.start();
    admin = new TestClient(built.app);
    await admin.signUp("Root");
  });
  afterAll(() => mode.teardown());

  const query = (text: ReturnType<typeof sql>) => built.ctx.database.db.execute(text).then(rows);

  /** A fresh user with their password, signed in on the returned client; the hash is a registered secret. */
  async function person(name = "Ada") {
    const client = new TestClient(built.app);
    const { password, email, id } = await client.signUp(name);
    const [row] = await query(
      sql`SELECT password FROM account WHERE user_id = ${id} AND provider_id = 'credential'`,
    );
    registerSecret(String(row!.password));
    return { client, password, email, id };
  }

  /** Another device signed in as the same person, on `app`. */
  async function device(app: BuiltApp, email: string, password: string, userAgent?: string) {
    const client = new TestClient(app.app);
    const res = await client.post(
      "/api/auth/sign-in/email",
      { email, password },
      userAgent ? { "user-agent": userAgent } : undefined,
    );
    expect(res.status, res.text).toBe(200);
    return client;
  }

  const signIn = async (email: string, password: string) =>
    (await new TestClient(built.app).post("/api/auth/sign-in/email", { email, password })).status;

  it("tells the profile, with whether there is a password, and never a hash", async () => {
    const { client, email, id } = await person("Profiled");
    const res = await client.get("/api/account");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id,
      name: "Profiled",
      email,
      emailVerified: false,
      image: null,
      hasPassword: true,
    });
    // A script may read the profile, never change the credentials.
    const key = await client.post("/api/keys", { name: "script", scopes: ["write"] });
    const asKey = { authorization: `Bearer ${key.body.key}` };
    const scripted = new TestClient(built.app);
    expect((await scripted.get("/api/account", asKey)).body.id).toBe(id);
    for (const [url, body] of [
      ["/api/account/password", { currentPassword: "whatever-it-is", newPassword: "something-new-1" }],
      ["/api/account/email", { newEmail: uniqueEmail(), currentPassword: "whatever-it-is" }],
    ] as const)
      expectProblem(await scripted.post(url, body, asKey), 403, "insufficient_scope");
  });

  it("refuses a wrong current password or a short new one, and changes nothing", async () => {
    const { client, email, password } = await person("Careful");
    const other = await device(built, email, password);
    const wrong = await client.post("/api/account/password", {
      currentPassword: "not-the-password",
      newPassword: "brand-new-password",
    });
    expectProblem(wrong, 400, "wrong_password");
    expect(wrong.body.errors).toEqual([{ path: "/currentPassword", message: expect.any(String) }]);
    expectProblem(
      await client.post("/api/account/password", { currentPassword: password, newPassword: "short" }),
      400,
      "validation_failed",
    );
    expectProblem(
      await client.post("/api/account/password", { currentPassword: password }),
      400,
      "validation_failed",
    );
    expect(await signIn(email, password)).toBe(200);
    expect(await signIn(email, "brand-new-password")).toBe(401);
    expect((await client.get("/api/me")).status).toBe(200);
    expect((await other.get("/api/me")).status).toBe(200);
  });

  it("changes the password: this device stays signed in, every other one is out at once, cached or not", async () => {
    const { client, email, password } = await person("Mover");
    const here = await device(built, email, password);
    const elsewhere = await device(second ?? built, email, password);
    // Each session is resolved once, so it sits in its instance's cache before the change.
    for (const c of [client, here, elsewhere]) expect((await c.get("/api/me")).status).toBe(200);
    const oldCookie = client.cookie;
    const newPassword = "a-new-password-123";
    registerSecret(newPassword);

    const res = await client.post("/api/account/password", { currentPassword: password, newPassword });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ signedOut: 2 });
    expect(JSON.stringify(res.body)).not.toMatch(/token/i);
    // A new cookie for this device: the one that may have been copied ends with the rest.
    expect(client.cookie).not.toBe(oldCookie);
    expect((await client.get("/api/me")).status).toBe(200);
    expectProblem(await client.get("/api/me", { cookie: oldCookie! }), 401, "unauthenticated");
    expectProblem(await here.get("/api/me"), 401, "unauthenticated");
    // The other instance hears of it through the bus; until then its cache would still say yes.
    await expect.poll(async () => (await elsewhere.get("/api/me")).status, { timeout: 5000 }).toBe(401);
    if (second) {
      // The new session works on every instance.
      const there = new TestClient(second.app);
      there.cookie = client.cookie;
      expect((await there.get("/api/me")).status).toBe(200);
    }
    expect(await signIn(email, password)).toBe(401);
    expect(await signIn(email, newPassword)).toBe(200);
    // Its address and browser are recorded like a sign-in's.
    const sessions = (await client.get("/api/sessions")).body as {
      current: boolean;
      ipAddress: string | null;
    }[];
    expect(sessions.find((s) => s.current)?.ipAddress).toBe("127.0.0.1");
  });

  it("serves password and email changes only where the current password is checked", async () => {
    const { client, password } = await person("Direct");
    const res = await client.post("/api/auth/change-password", {
      currentPassword: password,
      newPassword: "changed-behind-our-back",
      revokeOtherSessions: true,
    });
    expectProblem(res, 404, "not_found");
    expect(res.body.detail).toContain("/api/account/password");
    expectProblem(await client.post("/api/auth/change-email", { newEmail: uniqueEmail() }), 404, "not_found");
    expect(await signIn(client.user!.email, password)).toBe(200);
  });

  it("budgets password attempts per user", async () => {
    const { client, password } = await person("Guesser");
    const limit = built.ctx.config.rateLimits.authPerEmail;
    for (let i = 0; i < limit; i++) {
      const res = await client.post("/api/account/email", {
        newEmail: uniqueEmail(),
        currentPassword: `guess-${i}`,
      });
      expectProblem(res, 400, "wrong_password");
    }
    const refused = await client.post("/api/account/password", {
      currentPassword: password,
      newPassword: "x-new-password",
    });
    expectProblem(refused, 429, "rate_limited");
    expect(refused.headers["retry-after"]).toBeDefined();
    expect(await signIn(client.user!.email, password)).toBe(200);
  });

  it("says a single-sign-on-only account has no password, and changes nothing", async () => {
    const { client, email, id } = await person("Federated");
    // As single sign-on makes them: no credential account.
    await query(sql`DELETE FROM account WHERE user_id = ${id} AND provider_id = 'credential'`);
    expect((await client.get("/api/account")).body.hasPassword).toBe(false);
    const change = await client.post("/api/account/password", {
      currentPassword: "anything-at-all",
      newPassword: "a-long-new-password",
    });
    expectProblem(change, 409, "no_password");
    expect(change.body.detail).toMatch(/single sign-on/);
    expectProblem(
      await client.post("/api/account/email", {
        newEmail: uniqueEmail(),
        currentPassword: "anything-at-all",
      }),
      409,
      "no_password",
    );
    expect((await client.get("/api/account")).body.email).toBe(email);
  });

  it("changes the email with the password; the new address is unverified and signs in", async () => {
    const { client, email, password, id } = await person("Moving");
    const other = await person("Neighbour");
    await query(sql`UPDATE "user" SET email_verified = true WHERE id = ${id}`);
    // Cached before the change: the answer after it must not be the cached one.
    expect((await client.get("/api/me")).body.email).toBe(email);

    const wrong = await client.post("/api/account/email", {
      newEmail: uniqueEmail(),
      currentPassword: "nope-nope",
    });
    expectProblem(wrong, 400, "wrong_password");
    const taken = await client.post("/api/account/email", {
      newEmail: `  ${other.email.toUpperCase()} `.trim(),
      currentPassword: password,
    });
    expectProblem(taken, 409, "email_taken");
    expect(taken.body.detail).toMatch(/already uses/);
    expectProblem(
      await client.post("/api/account/email", { newEmail: "not an email", currentPassword: password }),
      400,
      "validation_failed",
    );
    expectProblem(
      await client.post("/api/account/email", { newEmail: email.toUpperCase(), currentPassword: password }),
      400,
      "validation_failed",
    );
    expectProblem(
      await client.post("/api/account/email", {
        newEmail: `${"a".repeat(250)}@x.test`,
        currentPassword: password,
      }),
      400,
      "validation_failed",
    );
    expect((await client.get("/api/account")).body).toMatchObject({ email, emailVerified: true });

    const newEmail = uniqueEmail("moved");
    const res = await client.post("/api/account/email", {
      newEmail: newEmail.toUpperCase(),
      currentPassword: password,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id, email: newEmail, emailVerified: false, hasPassword: true });
    expect((await client.get("/api/me")).body.email).toBe(newEmail);
    expect(await signIn(newEmail, password)).toBe(200);
    expect(await signIn(email, password)).toBe(401);
    // The old address is free again.
    expect((await new TestClient(built.app).trySignUp("Newcomer", email)).status).toBe(200);
  });

  it("takes a small PNG, JPEG or WebP picture whose bytes match, and removes it", async () => {
    const { client } = await person("Pictured");
    for (const [type, bytes] of [
      ["image/jpeg", JPEG],
      ["image/webp", WEBP],
      ["image/png", PNG],
    ] as const) {
      const res = await client.put("/api/account/avatar", { image: dataUrl(type, bytes) });
      expect(res.status, res.text).toBe(200);
      expect(res.body.image).toBe(dataUrl(type, bytes));
    }
    const image = dataUrl("image/png", PNG);
    // At once, although the session was cached with the picture before.
    expect((await client.get("/api/me")).body.image).toBe(image);

    const refusals: [string, unknown][] = [
      [
        "a type that is not allowed",
        { image: `data:image/svg+xml;base64,${Buffer.from("<svg/>").toString("base64")}` },
      ],
      ["bytes of another type", { image: dataUrl("image/webp", PNG) }],
      ["bytes of no image", { image: dataUrl("image/png", Buffer.from("just some text, not a picture")) }],
      ["not a data URL", { image: "https://example.test/me.png" }],
      ["not base64", { image: "data:image/png;base64,iVBOR!!!" }],
      ["cut short", { image: "data:image/png;base64,iVBORw0KGgo" }],
      ["too large", { image: dataUrl("image/png", Buffer.concat([PNG, Buffer.alloc(AVATAR_MAX_CHARS)])) }],
      ["empty", { image: "" }],
      ["not a string", { image: 42 }],
    ];
    for (const [why, body] of refusals) {
      const res = await client.put("/api/account/avatar", body);
      expectProblem(res, 400, "validation_failed");
      expect(res.body.errors?.[0]?.path, why).toBe("/image");
    }
    // better-auth's own update-user would store any string.
    expectProblem(
      await client.post("/api/auth/update-user", { image: "javascript:alert(1)" }),
      400,
      "validation_failed",
    );
    expect((await client.get("/api/account")).body.image).toBe(image);

    const removed = await client.delete("/api/account/avatar");
    expect(removed.status).toBe(200);
    expect(removed.body.image).toBeNull();
    expect((await client.get("/api/me")).body.image).toBeNull();
  });

  it("keeps the picture out of cookies: only answers that name the user carry it", async () => {
    const { client } = await person("Heavy");
    const before = (await client.get("/api/auth/get-session")).text.length;
    const image = dataUrl("image/png", Buffer.concat([PNG, Buffer.alloc(20_000)]));
    // Padded to about 27 KB: the type is told by the first bytes, so the padding passes.
    expect((await client.put("/api/account/avatar", { image })).status).toBe(200);
    const session = await client.get("/api/auth/get-session");
    // `null` became the quoted URL.
    expect(session.text.length - before).toBe(image.length + 2 - "null".length);
    const cookies = [session.headers["set-cookie"] ?? []].flat().map(String);
    for (const cookie of cookies) expect(cookie.length).toBeLessThan(1024);
    expect((await client.get("/api/dashboards")).text).not.toContain("data:image");
  });

  it("records the address and browser each session was signed in from", async () => {
    const { email, password } = await person("Travelling");
    const laptop = await device(
      built,
      email,
      password,
      "Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36",
    );
    // Without TRUST_PROXY a client's X-Forwarded-For is not believed.
    const spoofed = new TestClient(built.app);
    expect(
      (
        await spoofed.post(
          "/api/auth/sign-in/email",
          { email, password },
          { "x-forwarded-for": "203.0.113.9" },
        )
      ).status,
    ).toBe(200);
    const list = (await laptop.get("/api/sessions")).body as {
      current: boolean;
      ipAddress: string | null;
      userAgent: string | null;
    }[];
    expect(list).toHaveLength(3);
    for (const s of list) expect(s.ipAddress).toBe("127.0.0.1");
    expect(list.find((s) => s.current)?.userAgent).toContain("Chrome/130.0");
  });

  it("keeps when a user was last active after they sign out of their only session", async () => {
    const { client, id } = await person("Leaving");
    const lastActive = async () =>
      ((await admin.get("/api/admin/users")).body as { id: string; lastActiveAt: string | null }[]).find(
        (u) => u.id === id,
      )?.lastActiveAt;
    expect(await lastActive()).not.toBeNull();
    const before = Date.now();
    const out = await client.post("/api/auth/sign-out", {});
    expect(out.status, out.text).toBe(200);
    expect(await query(sql`SELECT id FROM session WHERE user_id = ${id}`)).toHaveLength(0);
    const after = await lastActive();
    expect(after).toEqual(expect.any(String));
    expect(Date.parse(after!)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(after!)).toBeLessThanOrEqual(Date.now() + 1000);
  });
});

describe("session addresses behind a proxy", () => {
  let mode: ModeEnv;
  afterAll(() => mode.teardown());

  it("with TRUST_PROXY, records the forwarded client, however many proxies passed it on", async () => {
    mode = await prepareMode("postgres");
    const built = await mode.start({ trustProxy: true });
    const client = new TestClient(built.app);
    const email = uniqueEmail("proxied");
    const signUp = await client.post(
      "/api/auth/sign-up/email",
      { name: "Proxied", email, password: "proxied-password-1" },
      { "x-forwarded-for": "198.51.100.23, 10.0.0.2" },
    );
    expect(signUp.status, signUp.text).toBe(200);
    const list = (await client.get("/api/sessions")).body as { ipAddress: string | null }[];
    expect(list.map((s) => s.ipAddress)).toEqual(["198.51.100.23"]);
  });
});
