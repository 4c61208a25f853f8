import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import type { AccessConfig, SignupMode } from "../../src/server/config.js";
import { TestClient, uniqueEmail } from "../support/client.js";
import { testConfig } from "../support/config.js";
import { type ModeEnv, type ModeName, prepareMode } from "../support/modes.js";

const access = (more: Partial<AccessConfig>): AccessConfig => ({ ...testConfig().access, ...more });

async function signUp(app: BuiltApp, name: string, extra: { email?: string; inviteToken?: string } = {}) {
  const client = new TestClient(app.app);
  const email = extra.email ?? uniqueEmail(name.toLowerCase());
  const res = await client.trySignUp(name, email, { inviteToken: extra.inviteToken });
  return { client, res, email };
}

const userCount = async (app: BuiltApp) =>
  Number(((await app.ctx.database.db.execute(sql`SELECT count(*)::int AS n FROM "user"`)) as any).rows[0].n);

/** DESIGN section 8's sign-up matrix on the embedded database and on PostgreSQL. */
describe.each<ModeName>(["embedded", "postgres"])(
  "who may sign up (%s)",
  { timeout: 120_000 },
  (modeName) => {
    let mode: ModeEnv;
    const cleanups: (() => Promise<void>)[] = [];
    beforeAll(async () => {
      mode = await prepareMode(modeName);
    });
    afterAll(async () => {
      for (const cleanup of cleanups) await cleanup();
      await mode.teardown();
    });

    /**
     * One instance per sign-up mode, shared by the tests below (each embedded start is a fresh
     * in-memory database, the slow part on a loaded machine), with its admin and an invite factory.
     */
    const instances = new Map<AccessConfig["signupMode"], ReturnType<typeof newInstance>>();
    function instance(signupMode: AccessConfig["signupMode"]) {
      const made = instances.get(signupMode) ?? newInstance(signupMode);
      instances.set(signupMode, made);
      return made;
    }
    async function newInstance(signupMode: AccessConfig["signupMode"]) {
      let now = Date.parse("2026-11-26T10:00:00Z");
      // Embedded mode opens a fresh in-memory database per app; PostgreSQL apps share theirs, so
      // each instance here gets its own database.
      const own = modeName === "embedded" ? mode : await prepareMode(modeName);
      if (own !== mode) cleanups.push(() => own.teardown());
      const app = await own.start({ access: access({ signupMode }) }, { clock: () => now });
      const first = await signUp(app, "Founder");
      expect(first.res.status, first.res.text).toBe(200);
      const invite = async (body: Record<string, unknown> = {}) => {
        const res = await first.client.post("/api/admin/invites", body);
        expect(res.status, res.text).toBe(201);
        return res.body as { id: string; token: string; url: string; role: string };
      };
      return { app, admin: first.client, invite, advance: (ms: number) => (now += ms) };
    }
    it.each(["invite", "open", "closed"] as const)(
      "%s: the first account of an empty instance is the admin",
      async (signupMode) => {
        const { admin } = await instance(signupMode);
        const me = await admin.get("/api/me");
        expect(me.status).toBe(200);
        expect(me.body.role).toBe("admin");
      },
    );

    it("invite mode: no invite, used, expired and other-email invites are refused and create nobody", async () => {
      const { app, invite, advance } = await instance("invite");
      const before = await userCount(app);

      const none = await signUp(app, "Nobody");
      expect(none.res.status).toBe(403);
      expect(none.res.body.code).toBe("invite_required");
      expect(none.res.headers["content-type"]).toContain("application/problem+json");

      const made = await invite({ role: "member" });
      expect(made.url).toBe(`${testConfig().baseUrl}/signup?invite=${made.token}`);
      const used = await signUp(app, "Invited", { inviteToken: made.token });
      expect(used.res.status, used.res.text).toBe(200);
      expect((await used.client.get("/api/me")).body.role).toBe("member");
      const again = await signUp(app, "Second", { inviteToken: made.token });
      expect(again.res.status).toBe(403);
      expect(again.res.body).toMatchObject({
        code: "invite_required",
        detail: expect.stringMatching(/already been used/),
      });

      const bound = await invite({ email: "bound@example.test" });
      const wrong = await signUp(app, "Wrong", { inviteToken: bound.token });
      expect(wrong.res.body).toMatchObject({
        code: "invite_required",
        detail: "This invite is for another email address: bound@example.test",
      });
      const right = await signUp(app, "Right", { inviteToken: bound.token, email: "Bound@example.test" });
      expect(right.res.status, right.res.text).toBe(200);

      const short = await invite({ expiresInHours: 1 });
      advance(2 * 3_600_000);
      const late = await signUp(app, "Late", { inviteToken: short.token });
      expect(late.res.body).toMatchObject({
        code: "invite_required",
        detail: expect.stringMatching(/expired/),
      });

      const bogus = await signUp(app, "Bogus", { inviteToken: "not-an-invite" });
      expect(bogus.res.body).toMatchObject({
        code: "invite_required",
        detail: expect.stringMatching(/not valid/),
      });

      expect(await userCount(app)).toBe(before + 2);
    });

    /** Each mode against each kind of invite: what DESIGN section 8 decides. */
    const CASES = ["none", "valid", "used", "expired", "other-email"] as const;
    const EXPECTED: Record<SignupMode, Record<(typeof CASES)[number], number | string>> = {
      invite: {
        none: "invite_required",
        valid: 200,
        used: "invite_required",
        expired: "invite_required",
        "other-email": "invite_required",
      },
      // Open admits anyone; an invite, when valid, still grants its role.
      open: { none: 200, valid: 200, used: 200, expired: 200, "other-email": 200 },
      closed: {
        none: "signup_disabled",
        valid: "signup_disabled",
        used: "signup_disabled",
        expired: "signup_disabled",
        "other-email": "signup_disabled",
      },
    };
    it.each(["invite", "open", "closed"] as const)("the sign-up matrix in %s mode", async (signupMode) => {
      const { app, invite, advance } = await instance(signupMode);
      const tokens: Record<string, string | undefined> = { none: undefined };
      if (signupMode !== "closed") {
        tokens.valid = (await invite({ role: "admin" })).token;
        const used = (await invite()).token;
        expect((await signUp(app, "Spender", { inviteToken: used })).res.status).toBe(200);
        tokens.used = used;
        tokens["other-email"] = (await invite({ email: "someone-else@example.test" })).token;
        tokens.expired = (await invite({ expiresInHours: 1 })).token;
      } else {
        for (const kind of CASES.slice(1)) tokens[kind] = "an-invite-closed-mode-never-reads";
      }
      advance(2 * 3_600_000);
      for (const kind of CASES) {
        const before = await userCount(app);
        const { res, client } = await signUp(app, `Case${kind.replace("-", "")}`, {
          inviteToken: tokens[kind],
        });
        const expected = EXPECTED[signupMode][kind];
        const label = `${signupMode} x ${kind}: ${res.text}`;
        if (expected === 200) {
          expect(res.status, label).toBe(200);
          expect(await userCount(app)).toBe(before + 1);
          const role = (await client.get("/api/me")).body.role;
          expect(role, label).toBe(kind === "valid" ? "admin" : "member");
        } else {
          expect(res.status, label).toBe(403);
          expect(res.body.code, label).toBe(expected);
          expect(await userCount(app), label).toBe(before);
        }
      }
    });

    it("tells the sign-up page whether an invite is usable and which address it admits", async () => {
      const { app, invite, advance } = await instance("invite");
      const visitor = new TestClient(app.app);
      const lookUp = async (token: string) => {
        const res = await visitor.get(`/api/invites/lookup?token=${encodeURIComponent(token)}`);
        expect(res.status, res.text).toBe(200);
        return res.body;
      };
      const bound = await invite({ email: "Named@Example.test", role: "admin" });
      expect(await lookUp(bound.token)).toEqual({ status: "open", email: "named@example.test" });
      const anyone = await invite();
      expect(await lookUp(anyone.token)).toEqual({ status: "open", email: null });
      expect(await lookUp("not-an-invite")).toEqual({ status: "unknown", email: null });

      // Spent: the page says so before anyone types, and no longer names whom it let in.
      const spent = await signUp(app, "Named", { inviteToken: bound.token, email: "named@example.test" });
      expect(spent.res.status, spent.res.text).toBe(200);
      expect(await lookUp(bound.token)).toEqual({ status: "used", email: null });
      const short = await invite({ expiresInHours: 1, email: "late@example.test" });
      advance(2 * 3_600_000);
      expect(await lookUp(short.token)).toEqual({ status: "expired", email: null });

      for (const query of ["", "?token=", `?token=${"x".repeat(201)}`]) {
        const res = await visitor.get(`/api/invites/lookup${query}`);
        expect(res.status, query).toBe(400);
      }
    });

    it("lists open invites without their tokens, and revokes them", async () => {
      const { app, admin, invite } = await instance("invite");
      const made = await invite({ role: "admin", email: "boss@example.test" });
      const list = await admin.get("/api/admin/invites");
      expect(list.status).toBe(200);
      expect(list.text).not.toContain(made.token);
      const listed = list.body.find((i: { id: string }) => i.id === made.id);
      expect(listed).toMatchObject({ email: "boss@example.test", role: "admin" });

      const revokable = await invite();
      expect((await admin.delete(`/api/admin/invites?id=${made.id}`)).status).toBe(204);
      expect((await admin.delete(`/api/admin/invites?id=${made.id}`)).status).toBe(404);
      expect((await admin.get("/api/admin/invites")).body.some((i: { id: string }) => i.id === made.id)).toBe(
        false,
      );
      const revoked = await signUp(app, "Boss", { inviteToken: made.token, email: "boss@example.test" });
      expect(revoked.res.status).toBe(403);
      const ok = await signUp(app, "Member", { inviteToken: revokable.token });
      expect(ok.res.status).toBe(200);
    });

    it("open mode admits anyone; closed mode admits nobody, invite or not", async () => {
      const open = await instance("open");
      expect((await signUp(open.app, "Walkin")).res.status).toBe(200);

      const closed = await instance("closed");
      const made = await closed.invite();
      const before = await userCount(closed.app);
      for (const attempt of [
        await signUp(closed.app, "Walkin"),
        await signUp(closed.app, "Invited", { inviteToken: made.token }),
      ]) {
        expect(attempt.res.status).toBe(403);
        expect(attempt.res.body.code).toBe("signup_disabled");
      }
      expect(await userCount(closed.app)).toBe(before);
    });

    it("a refused sign-up reads the same whether or not its email has an account", async () => {
      for (const signupMode of ["invite", "closed"] as const) {
        const { app, admin, invite } = await instance(signupMode);
        const registered = admin.user!.email;
        const spent = (await invite()).token;
        await signUp(app, "Spender", { inviteToken: spent });
        const tokens = [undefined, "not-an-invite", spent, (await invite({ email: "x@example.test" })).token];
        const before = await userCount(app);
        for (const inviteToken of tokens) {
          const label = `${signupMode}, invite ${inviteToken === spent ? "used" : inviteToken}`;
          const taken = await signUp(app, "Probe", { email: registered, inviteToken });
          const free = await signUp(app, "Probe", { email: uniqueEmail("probe"), inviteToken });
          expect(taken.res.status, `${label}: ${taken.res.text}`).toBe(403);
          expect(taken.res.body, label).toEqual(free.res.body);
        }
        expect(await userCount(app)).toBe(before);
      }
      // Where sign-up is open to the request, it says the email is taken (README: under a budget).
      const open = await instance("open");
      const taken = await signUp(open.app, "Again", { email: open.admin.user!.email });
      expect(taken.res.status).toBe(422);
    });

    it("sign-ups racing on an empty instance: exactly one admin", { timeout: 90_000 }, async () => {
      // Open mode admits all four, one as admin; invite mode admits only the winner (PostgreSQL
      // only: each embedded start is a fresh in-memory database, heavy on a loaded machine).
      const signupModes = modeName === "embedded" ? (["open"] as const) : (["open", "invite"] as const);
      for (const signupMode of signupModes) {
        const own = modeName === "embedded" ? mode : await prepareMode(modeName);
        if (own !== mode) cleanups.push(() => own.teardown());
        const app = await own.start({ access: access({ signupMode }) });
        const results = await Promise.all(["Ann", "Ben", "Cat", "Dan"].map((name) => signUp(app, name)));
        const roles: string[] = [];
        for (const { client, res } of results) {
          if (res.status === 200) roles.push((await client.get("/api/me")).body.role);
          else expect(res.body.code, res.text).toBe("invite_required");
        }
        expect(
          roles.filter((role) => role === "admin"),
          `${signupMode}: ${roles}`,
        ).toHaveLength(1);
        if (signupMode === "open") expect(roles).toHaveLength(4);
      }
    });
  },
);

describe("the invite lookup's budget", () => {
  it("is spent per client address, like sign-in attempts", async () => {
    const mode = await prepareMode("embedded");
    try {
      const app = await mode.start({
        rateLimits: { ...testConfig().rateLimits, authPerIp: 3 },
      });
      const visitor = new TestClient(app.app);
      for (let i = 0; i < 3; i++)
        expect((await visitor.get("/api/invites/lookup?token=guess")).status).toBe(200);
      const refused = await visitor.get("/api/invites/lookup?token=guess");
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe("rate_limited");
      expect(refused.headers["retry-after"]).toBeDefined();
    } finally {
      await mode.teardown();
    }
  });
});

describe("administering users (postgres+redis, two instances)", () => {
  let mode: ModeEnv;
  let one: BuiltApp;
  let two: BuiltApp;
  let admin: TestClient;

  beforeAll(async () => {
    mode = await prepareMode("postgres+redis");
    one = await mode.start({ access: access({ signupMode: "open" }), rateLimitEnabled: false });
    two = await mode.start({ access: access({ signupMode: "open" }), rateLimitEnabled: false });
    admin = (await signUp(one, "Chief")).client;
  });
  afterAll(() => mode.teardown());

  it("refuses members on /api/admin/* with 403 forbidden, and changes nothing", async () => {
    const { client: member } = await signUp(one, "Plain");
    for (const [method, url, body] of [
      ["GET", "/api/admin/users"],
      ["PUT", "/api/admin/users", { id: member.user!.id, role: "admin" }],
      ["DELETE", `/api/admin/users?id=${admin.user!.id}`],
      ["POST", "/api/admin/invites", {}],
      ["GET", "/api/admin/invites"],
    ] as const) {
      const res = await member.request({ method, url, json: body });
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.code).toBe("forbidden");
    }
    // Nor through better-auth's own endpoints: the admin plugin's are closed, and a user cannot
    // write their own role.
    for (const path of [
      "/api/auth/admin/set-role",
      "/api/auth/admin/list-users",
      "/api/auth/api-key/create",
    ]) {
      const res = await member.post(path, { userId: member.user!.id, role: "admin", name: "k" });
      expect(res.status, path).toBe(404);
    }
    await member.post("/api/auth/update-user", { role: "admin", banned: false });
    expect((await member.get("/api/me")).body.role).toBe("member");
    expect((await new TestClient(one.app).get("/api/admin/users")).status).toBe(401);
  });

  it("lists users with role, disabled and last activity; validates what it is sent", async () => {
    const list = await admin.get("/api/admin/users");
    expect(list.status).toBe(200);
    const me = list.body.find((u: { id: string }) => u.id === admin.user!.id);
    expect(me).toMatchObject({ role: "admin", disabled: false, email: admin.user!.email });
    expect(Date.parse(me.lastActiveAt)).toBeGreaterThan(Date.parse(me.createdAt) - 1);
    expect(list.text).not.toMatch(/password|banReason/);

    for (const body of [
      { id: admin.user!.id },
      { id: admin.user!.id, role: "owner" },
      { id: 5, role: "member" },
    ]) {
      const res = await admin.put("/api/admin/users", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await admin.put("/api/admin/users", { id: "nobody", role: "member" })).status).toBe(404);
  });

  it("never leaves the instance without an admin: 409 last_admin on demote, disable and delete", async () => {
    const id = admin.user!.id;
    for (const res of [
      await admin.put("/api/admin/users", { id, role: "member" }),
      await admin.put("/api/admin/users", { id, disabled: true }),
      await admin.delete(`/api/admin/users?id=${id}`),
    ]) {
      expect(res.status).toBe(409);
      expect(res.body.code).toBe("last_admin");
    }
    expect((await admin.get("/api/me")).body.role).toBe("admin");

    // With a second admin, one may step down; then the other is the last.
    const { client: deputy } = await signUp(one, "Deputy");
    expect((await admin.put("/api/admin/users", { id: deputy.user!.id, role: "admin" })).body.role).toBe(
      "admin",
    );
    expect((await deputy.put("/api/admin/users", { id, role: "member" })).status).toBe(200);
    expect((await admin.get("/api/me")).body.role).toBe("member");
    expect((await admin.get("/api/admin/users")).status).toBe(403);
    expect((await deputy.put("/api/admin/users", { id: deputy.user!.id, role: "member" })).status).toBe(409);
    expect((await deputy.put("/api/admin/users", { id, role: "admin" })).status).toBe(200);
  });

  it("disabling ends the user's sessions, cached sessions and realtime streams on every instance", async () => {
    const { client: target } = await signUp(one, "Target");
    const onTwo = new TestClient(two.app);
    onTwo.cookie = target.cookie;
    // Cached on instance two.
    expect((await onTwo.get("/api/dashboards")).status).toBe(200);
    const base = await two.app.listen({ port: 0, host: "127.0.0.1" });
    const { SseClient } = await import("../../bench/realtime/sse-client.js");
    const stream = await SseClient.open(`${base}/api/realtime`, { cookie: target.cookie! });
    expect(stream.status).toBe(200);

    const started = Date.now();
    const res = await admin.put("/api/admin/users", { id: target.user!.id, disabled: true });
    expect(res.status).toBe(200);
    expect(res.body.disabled).toBe(true);
    await stream.until(() => stream.ended, 1000, "the disabled user's stream to end");
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await onTwo.get("/api/dashboards")).status).toBe(401);
    expect((await target.get("/api/dashboards")).status).toBe(401);

    // Nor can they sign in again until re-enabled.
    const signIn = await new TestClient(one.app).post("/api/auth/sign-in/email", {
      email: target.user!.email,
      password: `pw-${target.user!.email}-Secret1`,
    });
    expect(signIn.status).toBe(403);
    expect((await admin.put("/api/admin/users", { id: target.user!.id, disabled: false })).status).toBe(200);
    const back = await new TestClient(one.app).post("/api/auth/sign-in/email", {
      email: target.user!.email,
      password: `pw-${target.user!.email}-Secret1`,
    });
    expect(back.status).toBe(200);
  });

  it("disabling a user keeps when they were last active, and no session", async () => {
    const { client: target, email } = await signUp(one, "Lapsed");
    await target.get("/api/dashboards");
    const lastOf = async () =>
      (await admin.get("/api/admin/users")).body.find((u: { id: string }) => u.id === target.user!.id)
        .lastActiveAt as string | null;
    const before = await lastOf();
    expect(Date.parse(before!)).toBeGreaterThan(0);
    // A second device, older than the first: the record kept is the latest.
    const other = new TestClient(one.app);
    await other.post("/api/auth/sign-in/email", { email, password: `pw-${email}-Secret1` });
    const db = one.ctx.database.db;
    await db.execute(
      sql`UPDATE session SET updated_at = updated_at - interval '1 day'
          WHERE user_id = ${target.user!.id}
            AND created_at = (SELECT max(created_at) FROM session WHERE user_id = ${target.user!.id})`,
    );
    const rowsOf = async () =>
      (
        (await db.execute(
          sql`SELECT token, expires_at, ip_address, user_agent FROM session WHERE user_id = ${target.user!.id}`,
        )) as any
      ).rows as { token: string; expires_at: string; ip_address: string | null; user_agent: string | null }[];
    expect(await rowsOf()).toHaveLength(2);

    for (let i = 0; i < 2; i++) {
      const res = await admin.put("/api/admin/users", { id: target.user!.id, disabled: true });
      expect(res.status).toBe(200);
      expect(res.body.lastActiveAt).toBe(before);
      expect(await lastOf()).toBe(before);
    }
    // Every session went (with it the browsers' push subscriptions); the time stayed on the user.
    expect(await rowsOf()).toEqual([]);
    expect((await target.get("/api/dashboards")).status).toBe(401);
    expect((await other.get("/api/dashboards")).status).toBe(401);

    // Back in: a fresh session, the only device.
    expect((await admin.put("/api/admin/users", { id: target.user!.id, disabled: false })).status).toBe(200);
    expect(await lastOf()).toBe(before);
    const back = new TestClient(one.app);
    expect(
      (await back.post("/api/auth/sign-in/email", { email, password: `pw-${email}-Secret1` })).status,
    ).toBe(200);
    const devices = await back.get("/api/sessions");
    expect(devices.body).toHaveLength(1);
    expect(devices.body[0].current).toBe(true);
    expect(Date.parse((await lastOf())!)).toBeGreaterThanOrEqual(Date.parse(before!));
  });

  it("deleting a user removes everything they own in one go, and their access at once", async () => {
    const { client: leaving } = await signUp(one, "Leaving");
    const dashboard = await leaving.post("/api/dashboards", { name: "Mine" });
    await leaving.post("/api/widgets", {
      dashboardId: dashboard.body.id,
      widgetType: "Clock",
      height: 100,
      width: 100,
      positionX: 0,
      positionY: 0,
    });
    await leaving.post("/api/notifications", { type: "reminder", message: "kept in Redis" });
    const key = await leaving.post("/api/keys", { name: "cron", scopes: ["read"] });
    expect(key.status).toBe(201);

    const id = leaving.user!.id;
    expect((await admin.delete(`/api/admin/users?id=${id}`)).status).toBe(204);
    expect((await leaving.get("/api/dashboards")).status).toBe(401);
    expect(
      (await new TestClient(two.app).get("/api/dashboards", { authorization: `Bearer ${key.body.key}` }))
        .status,
    ).toBe(401);
    const db = one.ctx.database.db;
    for (const table of ["dashboards", "widgets", "settings", "session", "account", "apikey"]) {
      const column = table === "apikey" ? "reference_id" : "user_id";
      const rows = (
        (await db.execute(
          sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE ${sql.identifier(column)} = ${id}`,
        )) as any
      ).rows;
      expect(rows[0].n, table).toBe(0);
    }
    expect(await one.ctx.notifications.latest(id)).toEqual([]);
    expect((await admin.delete(`/api/admin/users?id=${id}`)).status).toBe(404);
  });
});
