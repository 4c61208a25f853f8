import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import type { Config } from "../../src/server/config.js";
import { ProblemError } from "../../src/server/http/errors.js";
import { FakeServer } from "../fakes/oauth-http.js";
import { TestClient, uniqueEmail } from "../support/client.js";
import { testConfig } from "../support/config.js";
import { MODES, type ModeEnv, type ModeName, prepareMode } from "../support/modes.js";
import { expectProblem } from "../support/problems.js";
import { registerSecret } from "../support/secrets.js";

/**
 * Instance settings (admin page): sign-up mode, the private networks user-given URLs may reach,
 * the starting dashboard of new accounts. The test config sets SIGNUP_MODE; here nothing is set,
 * so the admin page decides, except where a test sets the environment on purpose.
 */
const unset = (more: Partial<Config> = {}): Partial<Config> => {
  const base = testConfig();
  return {
    access: { ...base.access, signupMode: null },
    upstream: { ...base.upstream, allowPrivate: [] },
    rateLimitEnabled: false,
    ...more,
  };
};

const anonymous = (app: BuiltApp) => new TestClient(app.app);

async function signUp(app: BuiltApp, name: string) {
  const client = new TestClient(app.app);
  const res = await client.trySignUp(name);
  return { client, res };
}

/** A fake site on 127.0.0.1, and whether the app's guarded fetch reaches it. */
async function reaches(app: BuiltApp, site: FakeServer): Promise<boolean> {
  try {
    const res = await app.ctx.upstream.fetch({
      url: `${site.url}/health`,
      service: "a site",
      what: "a page",
    });
    return res.status === 200;
  } catch (error) {
    if (error instanceof ProblemError && error.code === "address_not_allowed") return false;
    throw error;
  }
}

/** A widget on a dashboard, as the API creates it. */
const widget = (dashboardId: string, widgetType: string, config: unknown, positionY = 0) => ({
  dashboardId,
  widgetType,
  height: 200,
  width: 300,
  positionX: 0,
  positionY,
  config,
});

describe.each<ModeName>(MODES)("instance settings (%s)", { timeout: 120_000 }, (modeName) => {
  let mode: ModeEnv;
  let app: BuiltApp;
  let admin: TestClient;
  let member: TestClient;
  let site: FakeServer;
  const logs: string[] = [];

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    site = await FakeServer.start(() => ({ status: 200, text: "ok" }));
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        logs.push(String(chunk));
        done();
      },
    });
    app = await mode.start(unset({ logLevel: "warn" }), { logStream });
    const first = await signUp(app, "Founder");
    expect(first.res.status, first.res.text).toBe(200);
    admin = first.client;
    expect((await admin.get("/api/me")).body.role).toBe("admin");
    // A member, let in through an invite (the default mode).
    const invite = await admin.post("/api/admin/invites", {});
    member = new TestClient(app.app);
    const joined = await member.trySignUp("Member", undefined, { inviteToken: invite.body.token });
    expect(joined.status, joined.text).toBe(200);
  });
  afterAll(async () => {
    await mode.teardown();
    await site?.close();
  });

  const storedRows = async () =>
    Number(
      (
        (await app.ctx.database.db.execute(
          sql`SELECT count(*)::int AS n FROM instance_settings`,
        )) as unknown as {
          rows: { n: number }[];
        }
      ).rows[0]!.n,
    );

  it("answers each setting's value, source and editability to admins only", async () => {
    const res = await admin.get("/api/admin/settings");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      signupMode: { value: "invite", source: "default", editable: true, variable: "SIGNUP_MODE" },
      privateNetworks: { value: [], source: "default", editable: true, variable: "FETCH_ALLOW_PRIVATE" },
      starterDashboard: { value: null, source: "default", editable: true, variable: null, name: null },
    });
    for (const res of [
      await member.get("/api/admin/settings"),
      await member.put("/api/admin/settings", { signupMode: "open" }),
    ])
      expectProblem(res, 403, "forbidden");
    for (const res of [
      await anonymous(app).get("/api/admin/settings"),
      await anonymous(app).put("/api/admin/settings", { signupMode: "open" }),
    ])
      expectProblem(res, 401, "unauthenticated");
    expect(await storedRows()).toBe(0);
  });

  it("refuses bad values with the path of each, and saves nothing of the request", async () => {
    const before = (await admin.get("/api/admin/settings")).body;
    const networks = await admin.put("/api/admin/settings", {
      signupMode: "open",
      privateNetworks: ["nas.lan", "192.168.1.0/33", "10.0.0.7", "bad host", "10.1"],
    });
    expectProblem(networks, 400, "validation_failed");
    expect(networks.body.errors.map((e: { path: string }) => e.path)).toEqual([
      "/privateNetworks/1",
      "/privateNetworks/3",
      "/privateNetworks/4",
    ]);
    for (const [body, path] of [
      [{ signupMode: "everyone" }, "/signupMode"],
      [{ signupMode: 1 }, "/signupMode"],
      [{ privateNetworks: "10.0.0.0/8" }, "/privateNetworks"],
      [{ privateNetworks: [""] }, "/privateNetworks/0"],
      [{ privateNetworks: Array.from({ length: 101 }, (_, i) => `h${i}.lan`) }, "/privateNetworks"],
      [{ starterDashboard: "not-a-uuid" }, "/starterDashboard"],
      // A dashboard that does not exist (admins can open every one that does).
      [{ signupMode: "open", starterDashboard: "0190a000-0000-7000-8000-000000000000" }, "/starterDashboard"],
    ] as const) {
      const res = await admin.put("/api/admin/settings", body);
      expectProblem(res, 400, "validation_failed");
      expect(
        res.body.errors.map((e: { path: string }) => e.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expect((await admin.get("/api/admin/settings")).body).toEqual(before);
    expect(await storedRows()).toBe(0);
    expect((await anonymous(app).get("/api/instance")).body.signupMode).toBe("invite");
  });

  it("applies a change of sign-up mode to the very next sign-up", async () => {
    const save = async (signupMode: string) => {
      const res = await admin.put("/api/admin/settings", { signupMode });
      expect(res.status, res.text).toBe(200);
      expect(res.body.signupMode).toEqual({
        value: signupMode,
        source: "admin",
        editable: true,
        variable: "SIGNUP_MODE",
      });
      expect((await anonymous(app).get("/api/instance")).body.signupMode).toBe(signupMode);
    };

    await save("closed");
    expectProblem((await signUp(app, "Shutout")).res, 403, "signup_disabled");
    await save("open");
    expect((await signUp(app, "Walkin")).res.status).toBe(200);
    await save("invite");
    expectProblem((await signUp(app, "Uninvited")).res, 403, "invite_required");
    // The directory hides the user list while anyone may join (sharing reads the same mode).
    expect((await member.get("/api/directory")).body.users.length).toBeGreaterThan(1);
    await save("open");
    expect((await member.get("/api/directory")).body.users).toEqual([]);
    await save("invite");
  });

  it("lets admins create accounts in every mode, the only way in when sign-up is closed", async () => {
    expect((await admin.put("/api/admin/settings", { signupMode: "closed" })).status).toBe(200);
    const email = uniqueEmail("made");
    const made = await admin.post("/api/admin/users", { name: "Made by admin", email });
    expect(made.status, made.text).toBe(201);
    expect(made.body.user).toMatchObject({ name: "Made by admin", email, role: "member", disabled: false });
    expect(made.body.password).toMatch(/^[\w-]{20,}$/);
    registerSecret(made.body.password);

    const newcomer = new TestClient(app.app);
    const signIn = await newcomer.post("/api/auth/sign-in/email", { email, password: made.body.password });
    expect(signIn.status, signIn.text).toBe(200);
    expect((await newcomer.get("/api/me")).body).toMatchObject({ email, role: "member" });
    expect((await newcomer.get("/api/settings")).status).toBe(200);

    // A chosen password is the admin's to hand over: not answered back.
    const deputyEmail = uniqueEmail("deputy");
    const password = "chosen-by-the-admin-1";
    registerSecret(password);
    const deputy = await admin.post("/api/admin/users", {
      name: "Deputy",
      email: deputyEmail,
      password,
      role: "admin",
    });
    expect(deputy.status, deputy.text).toBe(201);
    expect(deputy.body).toMatchObject({ user: { role: "admin" }, password: null });
    const signedIn = new TestClient(app.app);
    expect((await signedIn.post("/api/auth/sign-in/email", { email: deputyEmail, password })).status).toBe(
      200,
    );
    expect((await signedIn.get("/api/me")).body.role).toBe("admin");

    const users = async () => (await admin.get("/api/admin/users")).body.length;
    const count = await users();
    expectProblem(
      await admin.post("/api/admin/users", { name: "Twice", email: email.toUpperCase() }),
      409,
      "email_taken",
    );
    for (const body of [
      { name: "No email" },
      { name: "Bad", email: "not-an-address" },
      { name: " ", email: uniqueEmail("blank") },
      { name: "Short", email: uniqueEmail("short"), password: "short" },
      { name: "Owner", email: uniqueEmail("owner"), role: "owner" },
    ])
      expectProblem(await admin.post("/api/admin/users", body), 400, "validation_failed");
    expectProblem(
      await member.post("/api/admin/users", { name: "Sneaky", email: uniqueEmail("sneaky") }),
      403,
      "forbidden",
    );
    expect(await users()).toBe(count);
    // better-auth's own endpoint stays closed to HTTP.
    expect(
      (await admin.post("/api/auth/admin/create-user", { name: "X", email: uniqueEmail("x") })).status,
    ).toBe(404);
    expect((await admin.put("/api/admin/settings", { signupMode: "invite" })).status).toBe(200);
  });

  it("lets the address guard reach a private address once an admin allows it, and not after", async () => {
    expect(await reaches(app, site)).toBe(false);
    const saved = await admin.put("/api/admin/settings", { privateNetworks: [" 127.0.0.1 ", "NAS.lan"] });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.privateNetworks).toMatchObject({ value: ["127.0.0.1", "nas.lan"], source: "admin" });
    expect(await reaches(app, site)).toBe(true);
    expect(await reaches(app, site)).toBe(true);

    expect((await admin.put("/api/admin/settings", { privateNetworks: ["10.0.0.0/8"] })).status).toBe(200);
    expect(await reaches(app, site)).toBe(false);
    expect((await admin.put("/api/admin/settings", { privateNetworks: [] })).status).toBe(200);
  });

  it("copies the starting dashboard into each account created afterwards, without account settings", async () => {
    const start = await admin.post("/api/dashboards", { name: "Team start" });
    const id = start.body.id as string;
    for (const body of [
      widget(id, "Clock", { showSeconds: false, hourFormat: "24" }),
      widget(id, "Inbox", { labels: ["Label_42"], notifyNewMail: true }, 220),
    ])
      expect((await admin.post("/api/widgets", body)).status).toBe(201);
    const saved = await admin.put("/api/admin/settings", { starterDashboard: id, signupMode: "open" });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.starterDashboard).toMatchObject({ value: id, source: "admin", name: "Team start" });

    const { client: newcomer, res } = await signUp(app, "Newcomer");
    expect(res.status, res.text).toBe(200);
    const dashboards = (await newcomer.get("/api/dashboards")).body;
    expect(dashboards).toHaveLength(1);
    expect(dashboards[0]).toMatchObject({ name: "Team start", userId: newcomer.user!.id });
    expect(dashboards[0].id).not.toBe(id);
    const copied = (await newcomer.get(`/api/widgets?dashboardId=${dashboards[0].id}`)).body;
    expect(copied.map((w: { widgetType: string }) => w.widgetType).sort()).toEqual(["Clock", "Inbox"]);
    expect(copied.find((w: { widgetType: string }) => w.widgetType === "Clock").config).toMatchObject({
      showSeconds: false,
      hourFormat: "24",
    });
    // The admin's mail labels and alert stay with the admin.
    expect(copied.find((w: { widgetType: string }) => w.widgetType === "Inbox").config).not.toMatchObject({
      labels: ["Label_42"],
    });
    expect(
      copied.find((w: { widgetType: string }) => w.widgetType === "Inbox").config.notifyNewMail,
    ).not.toBe(true);
    // The source is the admin's still, unchanged.
    expect((await admin.get(`/api/widgets?dashboardId=${id}`)).body).toHaveLength(2);

    // Accounts admins create get it too.
    const made = await admin.post("/api/admin/users", { name: "Made", email: uniqueEmail("made") });
    const madeClient = new TestClient(app.app);
    registerSecret(made.body.password);
    await madeClient.post("/api/auth/sign-in/email", {
      email: made.body.user.email,
      password: made.body.password,
    });
    expect((await madeClient.get("/api/dashboards")).body.map((d: { name: string }) => d.name)).toEqual([
      "Team start",
    ]);
  });

  it("never fails a sign-up over the starting dashboard: a copy that cannot be made is logged", async () => {
    const broken = await admin.post("/api/dashboards", { name: "Broken start" });
    const id = broken.body.id as string;
    expect((await admin.post("/api/widgets", widget(id, "Clock", {}))).status).toBe(201);
    // A widget type this build does not know: the copy is refused as its import would be.
    await app.ctx.database.db.execute(
      sql`UPDATE widgets SET widget_type = 'Gone' WHERE dashboard_id = ${id}`,
    );
    expect((await admin.put("/api/admin/settings", { starterDashboard: id })).status).toBe(200);
    const { client, res } = await signUp(app, "Unlucky");
    expect(res.status, res.text).toBe(200);
    expect((await client.get("/api/dashboards")).body).toEqual([]);
    expect(logs.join("")).toMatch(/could not copy the starting dashboard/);

    // A starting dashboard deleted since is none: shown so, and new accounts start empty.
    const gone = await admin.post("/api/dashboards", { name: "Soon gone" });
    expect((await admin.put("/api/admin/settings", { starterDashboard: gone.body.id })).status).toBe(200);
    expect((await admin.delete(`/api/dashboards?id=${gone.body.id}`)).status).toBe(200);
    expect((await admin.get("/api/admin/settings")).body.starterDashboard).toMatchObject({
      value: null,
      name: null,
    });
    const late = await signUp(app, "Late");
    expect(late.res.status).toBe(200);
    expect((await late.client.get("/api/dashboards")).body).toEqual([]);

    const cleared = await admin.put("/api/admin/settings", { starterDashboard: null, signupMode: "invite" });
    expect(cleared.body.starterDashboard).toMatchObject({ value: null, source: "default" });
  });

  it("lets the environment win: the value, its source, and a refusal to change it", async () => {
    // Its own database: the environment's instance must not share the other tests' choices.
    const own = await prepareMode(modeName);
    try {
      const envApp = await own.start({
        access: { ...testConfig().access, signupMode: "closed" },
        upstream: { ...testConfig().upstream, allowPrivate: ["127.0.0.1/32"] },
        rateLimitEnabled: false,
      });
      const boss = (await signUp(envApp, "Boss")).client;
      expect((await boss.get("/api/me")).body.role).toBe("admin");
      // An admin's earlier choice is kept, but the environment wins over it.
      await envApp.ctx.database.db.execute(
        sql`INSERT INTO instance_settings (name, value) VALUES ('signupMode', '"open"'::jsonb)`,
      );
      const view = await boss.get("/api/admin/settings");
      expect(view.body.signupMode).toEqual({
        value: "closed",
        source: "environment",
        editable: false,
        variable: "SIGNUP_MODE",
      });
      expect(view.body.privateNetworks).toMatchObject({
        value: ["127.0.0.1/32"],
        source: "environment",
        editable: false,
      });
      expectProblem((await signUp(envApp, "Stranger")).res, 403, "signup_disabled");
      expect(await reaches(envApp, site)).toBe(true);

      for (const body of [{ signupMode: "open" }, { privateNetworks: ["nas.lan"] }]) {
        const res = await boss.put("/api/admin/settings", body);
        expectProblem(res, 409, "set_by_environment");
        expect(res.body.detail).toMatch(/environment/);
        expect(res.body.errors[0].path).toBe(`/${Object.keys(body)[0]}`);
      }
      // Sending what the environment already says changes nothing, and is no error.
      const same = await boss.put("/api/admin/settings", {
        signupMode: "closed",
        privateNetworks: ["127.0.0.1/32"],
      });
      expect(same.status, same.text).toBe(200);
      const rows = (await envApp.ctx.database.db.execute(
        sql`SELECT name, value FROM instance_settings ORDER BY name`,
      )) as unknown as { rows: { name: string; value: unknown }[] };
      expect(rows.rows).toEqual([{ name: "signupMode", value: "open" }]);
      expect((await anonymous(envApp).get("/api/instance")).body.signupMode).toBe("closed");
    } finally {
      await own.teardown();
    }
  });

  it("keeps the settings across a restart", async () => {
    const dataDir = modeName === "embedded" ? mkdtempSync(path.join(tmpdir(), "tessera-settings-")) : null;
    const own = await prepareMode(modeName);
    const more = unset(dataDir ? { pgliteDir: dataDir } : {});
    try {
      let first: BuiltApp | null = await own.start(more);
      const boss = (await signUp(first, "Keeper")).client;
      const board = await boss.post("/api/dashboards", { name: "Kept start" });
      const saved = await boss.put("/api/admin/settings", {
        signupMode: "closed",
        privateNetworks: ["127.0.0.1"],
        starterDashboard: board.body.id,
      });
      expect(saved.status, saved.text).toBe(200);
      await first.close();
      first = null;

      const again = await own.start(more);
      const after = new TestClient(again.app);
      after.cookie = boss.cookie;
      const view = (await after.get("/api/admin/settings")).body;
      expect(view).toMatchObject({
        signupMode: { value: "closed", source: "admin" },
        privateNetworks: { value: ["127.0.0.1"], source: "admin" },
        starterDashboard: { value: board.body.id, name: "Kept start" },
      });
      expectProblem((await signUp(again, "Afterwards")).res, 403, "signup_disabled");
      expect(await reaches(again, site)).toBe(true);
    } finally {
      await own.teardown();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }
  });

  // Embedded mode is one process on one data directory: there is no second instance to tell.
  if (modeName !== "embedded")
    it("applies a change made on one instance on another at once", async () => {
      // Both clocks stand still: their settings never grow old, so only the bus can bring news.
      const frozen = () => Date.parse("2026-11-28T12:00:00Z");
      const own = await prepareMode(modeName);
      try {
        const one = await own.start(unset(), { clock: frozen });
        const two = await own.start(unset(), { clock: frozen });
        // A save reaches the instances listening by then (the others read it within 10 s).
        await two.ctx.instanceSettings.listening;
        const boss = (await signUp(one, "Chief")).client;
        expect((await anonymous(two).get("/api/instance")).body.signupMode).toBe("invite");
        expect(await reaches(two, site)).toBe(false);

        const res = await boss.put("/api/admin/settings", {
          signupMode: "open",
          privateNetworks: ["127.0.0.1"],
        });
        expect(res.status, res.text).toBe(200);
        await vi.waitFor(
          async () => {
            expect((await anonymous(two).get("/api/instance")).body.signupMode).toBe("open");
            expect(await reaches(two, site)).toBe(true);
          },
          { timeout: 5_000, interval: 20 },
        );
        expect((await signUp(two, "Joiner")).res.status).toBe(200);

        expect(
          (await boss.put("/api/admin/settings", { signupMode: "closed", privateNetworks: [] })).status,
        ).toBe(200);
        // Sign-up reads the stored mode itself, whatever the instance has heard yet.
        expectProblem((await signUp(two, "Toolate")).res, 403, "signup_disabled");
        expect((await signUp(one, "Toolate")).res.status).toBe(403);
        const three = await own.start(unset(), { clock: frozen });
        await three.ctx.instanceSettings.listening;
        expect((await anonymous(three).get("/api/instance")).body.signupMode).toBe("closed");
        await boss.put("/api/admin/settings", { privateNetworks: ["127.0.0.1"] });
        await vi.waitFor(async () => expect(await reaches(three, site)).toBe(true), {
          timeout: 5_000,
          interval: 20,
        });
      } finally {
        await own.teardown();
      }
    });
});
