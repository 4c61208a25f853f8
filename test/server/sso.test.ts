import { and, desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { type AccessConfig, ConfigError, loadConfig } from "../../src/server/config.js";
import { account, auditEvents, user } from "../../src/server/db/schema.js";
import { type OidcAccount, type OidcServer, startOidcServer } from "../fakes/oauth-oidc.js";
import { Browser } from "../support/browser.js";
import { TestClient } from "../support/client.js";
import { testConfig } from "../support/config.js";
import { type ModeEnv, type ModeName, prepareMode } from "../support/modes.js";
import { freePort } from "../support/ports.js";
import { registerSecret } from "../support/secrets.js";

const ADMINS = "tessera-admins";
const EVIL = "https://evil.example";
let people = 0;
const person = (more: Partial<OidcAccount> = {}): OidcAccount => {
  const n = ++people;
  return {
    sub: `sso-${n}-${Date.now()}`,
    email: `sso${n}-${Date.now()}@corp.test`,
    name: `Person ${n}`,
    ...more,
  };
};

/** Single sign-on against oidc-provider on 127.0.0.1 (DESIGN section 12). */
describe.each<ModeName>(["embedded", "postgres"])("single sign-on (%s)", { timeout: 120_000 }, (modeName) => {
  let mode: ModeEnv;
  let op: OidcServer;
  let app: BuiltApp;
  let base: string;
  let strictBase: string;
  let strict: BuiltApp;
  let now = Date.parse("2026-11-26T10:00:00Z");
  let founder: TestClient;
  /** The strict instance's first account, made with a password (so its email is not proven). */
  let strictFounder: { id: string; password: string };

  /** A password account made through an invite (the instance is invite-only). */
  async function invited(name: string, email: string) {
    const invite = await founder.post("/api/admin/invites", { email }, { origin: base });
    const res = await new TestClient(app.app).trySignUp(name, email, {
      inviteToken: invite.body.token,
      origin: base,
    });
    expect(res.status, res.text).toBe(200);
    return res.body.user as { id: string };
  }

  const providersOf = async (built: BuiltApp, userId: string) =>
    (await built.ctx.database.db.select().from(account).where(eq(account.userId, userId)))
      .map((row) => row.providerId)
      .sort();
  const usersWith = async (built: BuiltApp, email: string) =>
    built.ctx.database.db.select().from(user).where(eq(user.email, email.toLowerCase()));

  /** A browser signed in with a password, as someone at the sign-in form. */
  async function passwordBrowser(target: string, email: string, password: string) {
    const browser = new Browser();
    const res = await browser.request(`${target}/api/auth/sign-in/email`, {
      method: "POST",
      json: { email, password },
      origin: target,
    });
    expect(res.status, res.text).toBe(200);
    return browser;
  }

  /** A password account made through an invite bound to no email. */
  async function passwordAccount(name: string) {
    const invite = await founder.post("/api/admin/invites", {}, { origin: base });
    const email = `${name.toLowerCase()}-${Date.now()}@corp.test`;
    const password = `pw-${email}-Secret1`;
    const res = await new TestClient(app.app).trySignUp(name, email, {
      inviteToken: invite.body.token,
      password,
      origin: base,
    });
    expect(res.status, res.text).toBe(200);
    return { id: (res.body.user as { id: string }).id, email, password };
  }

  /** What Settings does: asks better-auth to link single sign-on to the signed-in account. */
  const startLink = (browser: Browser, target: string, origin = target) =>
    browser.request(`${target}/api/auth/link-social`, {
      method: "POST",
      json: {
        provider: "oidc",
        callbackURL: "/?settings=sessions&sso=linked",
        errorCallbackURL: "/?settings=sessions&sso=failed",
      },
      origin,
    });

  /** The whole link flow as `who` at the provider; answers where the browser ended up. */
  async function linkThroughProvider(browser: Browser, target: string, who: OidcAccount) {
    op.nextLogin = who;
    const start = await startLink(browser, target);
    expect(start.status, start.text).toBe(200);
    expect(new URL(start.json().url).origin).toBe(op.issuer);
    return new URL(await browser.follow(start.json().url, target));
  }

  const oidcAccess = (
    more: Partial<NonNullable<AccessConfig["oidc"]>>,
    signupMode: AccessConfig["signupMode"],
  ) => ({
    ...testConfig().access,
    signupMode,
    oidc: {
      providerId: "oidc" as const,
      issuer: op.issuer,
      clientId: op.clients.tessera!.clientId,
      clientSecret: op.clients.tessera!.clientSecret,
      displayName: "Corp SSO",
      scopes: ["openid", "email", "profile", "groups"],
      autoSignUp: true,
      adminGroup: ADMINS,
      ...more,
    },
  });

  /** The whole browser flow; answers where it ended and the browser, holding any session. */
  async function signInWithSso(target: string, who: OidcAccount, options: { stopAtCallback?: boolean } = {}) {
    op.nextLogin = who;
    const browser = new Browser();
    const start = await browser.request(`${target}/api/auth/sign-in/social`, {
      method: "POST",
      json: { provider: "oidc", callbackURL: "/", errorCallbackURL: "/signin" },
      origin: target,
    });
    expect(start.status, start.text).toBe(200);
    const authorize = new URL(start.json().url);
    expect(authorize.origin).toBe(op.issuer);
    for (const param of ["state", "nonce", "code_challenge"])
      expect(authorize.searchParams.get(param)).toBeTruthy();
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    const end = await browser.follow(
      authorize.toString(),
      target,
      options.stopAtCallback ? (url) => url.pathname === "/api/auth/callback/oidc" : undefined,
    );
    const me = await browser.request(`${target}/api/me`);
    return { end: new URL(end), browser, me: me.status === 200 ? me.json() : null, meStatus: me.status };
  }

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    const [appPort, strictPort, idpPort] = [await freePort(), await freePort(), await freePort()];
    base = `http://127.0.0.1:${appPort}`;
    strictBase = `http://127.0.0.1:${strictPort}`;
    // The app starts while the identity provider is down: start-up must not wait on it.
    const issuer = `http://127.0.0.1:${idpPort}`;
    const early = await mode.start({
      baseUrl: base,
      access: { ...testConfig().access, oidc: { ...oidcAccessFor(issuer) } },
    });
    const down = await new TestClient(early.app).get("/api/instance");
    expect(down.body.sso).toEqual({ providerId: "oidc", displayName: "Corp SSO", available: false });
    await early.close();

    op = await startOidcServer(
      {
        tessera: {
          redirectUris: [`${base}/api/auth/callback/oidc`, `${strictBase}/api/auth/callback/oidc`],
          clientAuth: "client_secret_post",
        },
      },
      idpPort,
    );
    registerSecret(op.clients.tessera!.clientSecret);
    app = await mode.start({ baseUrl: base, access: oidcAccess({}, "invite") }, { clock: () => now });
    await app.app.listen({ port: appPort, host: "127.0.0.1" });
    // A password account exists first (the instance's admin), so SSO users are not "first".
    founder = new TestClient(app.app);
    await founder.signUp("Founder", "founder@corp.test");
    const own = modeName === "embedded" ? mode : await prepareMode(modeName);
    strict = await own.start({ baseUrl: strictBase, access: oidcAccess({ autoSignUp: false }, "closed") });
    await strict.app.listen({ port: strictPort, host: "127.0.0.1" });
    strictFounder = await new TestClient(strict.app).signUp("Founder", "founder@corp.test");
    if (own !== mode) cleanup = () => own.teardown();
  });
  let cleanup = async () => {};
  afterAll(async () => {
    await cleanup();
    await mode?.teardown();
    await op?.close();
  });

  function oidcAccessFor(issuer: string) {
    return {
      providerId: "oidc" as const,
      issuer,
      clientId: "not-yet",
      clientSecret: "not-yet",
      displayName: "Corp SSO",
      scopes: ["openid"],
      autoSignUp: true,
      adminGroup: null,
    };
  }

  it("says when the provider is reachable again, without a restart", async () => {
    now += 10_000;
    const up = await new TestClient(app.app).get("/api/instance");
    expect(up.body).toMatchObject({ signupMode: "invite", passwordLogin: true, sso: { available: true } });
  });

  it("creates a member on first sign-in when OIDC_AUTO_SIGNUP is on, with no invite", async () => {
    const who = person();
    const { end, me } = await signInWithSso(base, who);
    expect(end.pathname).toBe("/");
    expect(me).toMatchObject({ email: who.email, name: who.name, role: "member" });
    // Signing in again is the same user.
    const again = await signInWithSso(base, who);
    expect(again.me.id).toBe(me.id);
  });

  it("maps the admin group to the admin role", async () => {
    const { me } = await signInWithSso(base, person({ groups: ["staff", ADMINS] }));
    expect(me.role).toBe("admin");
  });

  it("links an account made from an invite bound to its email, once the provider says the email is verified", async () => {
    const unverified = person({ email: "taken@corp.test", emailVerified: false });
    const existing = await invited("Taken", "taken@corp.test");
    // The admin bound the invite to the address: that proves it, as single sign-on would.
    expect((await usersWith(app, "taken@corp.test"))[0]?.emailVerified).toBe(true);
    const refused = await signInWithSso(base, unverified);
    expect(refused.end.pathname).toBe("/signin");
    expect(refused.end.searchParams.get("error")).toBeTruthy();
    expect(refused.meStatus).toBe(401);
    const linked = await app.ctx.database.db
      .select()
      .from(account)
      .where(and(eq(account.userId, existing.id), eq(account.providerId, "oidc")));
    expect(linked).toHaveLength(0);

    const verified = await signInWithSso(base, { ...unverified, emailVerified: true });
    expect(verified.me.id).toBe(existing.id);
  });

  it("never hands a pre-registered password account to whoever later signs in through the provider with its email", async () => {
    // The attack: an invite bound to no email (open sign-up is the same) and a colleague's address.
    const colleague = person({ email: `colleague-${Date.now()}@corp.test` });
    const invite = await founder.post("/api/admin/invites", {}, { origin: base });
    const attacker = new TestClient(app.app);
    const password = "attacker-chosen-Secret1";
    const squat = await attacker.trySignUp("Colleague", colleague.email, {
      inviteToken: invite.body.token,
      password,
      origin: base,
    });
    expect(squat.status, squat.text).toBe(200);
    const squatter = squat.body.user as { id: string };
    // Saying the email is verified through better-auth's own endpoint proves nothing either.
    await attacker.post("/api/auth/update-user", { emailVerified: true }, { origin: base });
    expect((await usersWith(app, colleague.email))[0]?.emailVerified).toBe(false);

    const refused = await signInWithSso(base, colleague);
    expect(refused.end.pathname).toBe("/signin");
    expect(refused.end.searchParams.get("error")).toBe("account_not_linked");
    expect(refused.meStatus).toBe(401);
    // Not linked, and no second account with the same email either.
    expect(await providersOf(app, squatter.id)).toEqual(["credential"]);
    expect(await usersWith(app, colleague.email)).toHaveLength(1);
    // Trying again changes nothing: the attacker's password still opens only an account the
    // colleague's identity-provider login never reaches.
    expect((await signInWithSso(base, colleague)).meStatus).toBe(401);
    const back = await passwordBrowser(base, colleague.email, password);
    const me = await back.request(`${base}/api/me`);
    expect(me.json().id).toBe(squatter.id);
    expect(await providersOf(app, squatter.id)).toEqual(["credential"]);
  });

  it("refuses a tampered ID token, a replayed nonce and a replayed callback", async () => {
    op.tamperIdTokens = true;
    try {
      const tampered = await signInWithSso(base, person());
      expect(tampered.end.pathname).toBe("/signin");
      expect(tampered.meStatus).toBe(401);
    } finally {
      op.tamperIdTokens = false;
    }

    await signInWithSso(base, person());
    const earlier = op.lastNonce!;
    op.nonceOverride = earlier;
    try {
      const replayed = await signInWithSso(base, person());
      expect(replayed.end.pathname).toBe("/signin");
      expect(replayed.meStatus).toBe(401);
    } finally {
      op.nonceOverride = null;
    }

    const flow = await signInWithSso(base, person(), { stopAtCallback: true });
    const callback = flow.end.toString();
    const first = await flow.browser.request(callback);
    expect(new URL(first.location!).pathname).toBe("/");
    const second = await flow.browser.request(callback);
    expect(new URL(second.location!).pathname).toBe("/signin");
  });

  it("with OIDC_AUTO_SIGNUP off, refuses new people (signup_disabled) and still signs known ones in", async () => {
    const users = async () =>
      Number(
        ((await strict.ctx.database.db.execute(sql`SELECT count(*)::int AS n FROM "user"`)) as any).rows[0].n,
      );
    const before = await users();
    const stranger = await signInWithSso(strictBase, person());
    expect(stranger.end.searchParams.get("error")).toBe("signup_disabled");
    expect(stranger.meStatus).toBe(401);
    expect(await users()).toBe(before);

    // The founder's account was made with a password on an empty instance: nothing proves its
    // email, so a sign-in through the provider with that email is refused, not linked.
    const unproven = await signInWithSso(strictBase, person({ email: "founder@corp.test" }));
    expect(unproven.end.searchParams.get("error")).toBe("account_not_linked");
    expect(unproven.meStatus).toBe(401);
    expect(await providersOf(strict, strictFounder.id)).toEqual(["credential"]);
    expect(await users()).toBe(before);

    // Linked by its owner from a signed-in session, it signs in through the provider (as admin).
    const who = person({ email: "founder@corp.test" });
    const owner = await passwordBrowser(strictBase, "founder@corp.test", strictFounder.password);
    expect((await linkThroughProvider(owner, strictBase, who)).searchParams.get("sso")).toBe("linked");
    const signedIn = await signInWithSso(strictBase, who);
    expect(signedIn.me).toMatchObject({ id: strictFounder.id, email: "founder@corp.test", role: "admin" });
  });

  it("links single sign-on to a password account when its signed-in owner asks, and signs in through it", async () => {
    const one = await passwordAccount("Linker");
    const owner = await passwordBrowser(base, one.email, one.password);
    const forged = await startLink(owner, base, EVIL);
    expect(forged.status).toBe(403);
    expect(forged.json().code).toBe("cross_site_request");

    // The identity-provider login may carry another address: the owner chose to link it.
    const who = person();
    const end = await linkThroughProvider(owner, base, who);
    expect(end.searchParams.get("sso"), end.toString()).toBe("linked");
    expect(await providersOf(app, one.id)).toEqual(["credential", "oidc"]);
    const listed = await owner.request(`${base}/api/auth/list-accounts`);
    expect(
      listed
        .json()
        .map((a: { providerId: string }) => a.providerId)
        .sort(),
    ).toEqual(["credential", "oidc"]);
    const viaSso = await signInWithSso(base, who);
    expect(viaSso.me).toMatchObject({ id: one.id, email: one.email });

    // That identity-provider login cannot be linked to a second account as well.
    const two = await passwordAccount("Second");
    const failed = await linkThroughProvider(await passwordBrowser(base, two.email, two.password), base, who);
    expect(failed.searchParams.get("sso")).toBe("failed");
    expect(failed.searchParams.get("error")).toBe("account_already_linked_to_different_user");
    expect(await providersOf(app, two.id)).toEqual(["credential"]);
  });

  it("records single sign-on sign-ins and refusals in the audit log, and no link as a sign-in", async () => {
    const ssoEntries = async () =>
      (await app.ctx.database.db.select().from(auditEvents).orderBy(desc(auditEvents.id))).filter(
        (e) => (e.detail as { method?: unknown }).method === "sso",
      );
    const before = (await ssoEntries()).length;

    const who = person();
    const signedIn = await signInWithSso(base, who);
    expect(signedIn.meStatus).toBe(200);
    op.tamperIdTokens = true;
    try {
      expect((await signInWithSso(base, person())).meStatus).toBe(401);
    } finally {
      op.tamperIdTokens = false;
    }
    const [failed, ok, ...older] = await ssoEntries();
    expect(older).toHaveLength(before);
    expect(ok).toMatchObject({
      action: "auth.signed_in",
      actorId: signedIn.me.id,
      target: `user:${signedIn.me.id}`,
      detail: { method: "sso", email: who.email },
    });
    // Nothing the provider said was proven, so nobody is named.
    expect(failed).toMatchObject({
      action: "auth.sign_in_failed",
      actorId: null,
      actorName: "Unknown",
      target: "sso:oidc",
      detail: { method: "sso", email: null },
    });

    // Linking from a signed-in session goes through the same callback and is not a sign-in.
    const one = await passwordAccount("Auditor");
    const end = await linkThroughProvider(
      await passwordBrowser(base, one.email, one.password),
      base,
      person(),
    );
    expect(end.searchParams.get("sso")).toBe("linked");
    expect(await ssoEntries()).toHaveLength(before + 2);
  });

  it("refuses to start single sign-on or a link for a page on another site", async () => {
    const client = new TestClient(app.app);
    const body = { provider: "oidc", callbackURL: "/", errorCallbackURL: "/signin" };
    for (const path of ["/api/auth/sign-in/social", "/api/auth/link-social"]) {
      const forged: Record<string, string>[] = [
        { origin: EVIL },
        { origin: "", "sec-fetch-site": "cross-site" },
      ];
      for (const headers of forged) {
        const res = await client.post(path, body, headers);
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(res.headers["content-type"]).toContain("application/problem+json");
        expect(res.body).toMatchObject({ status: 403, code: "cross_site_request" });
      }
    }
    // This site's own page still starts it.
    expect((await client.post("/api/auth/sign-in/social", body, { origin: base })).status).toBe(200);
  });

  it("closes social sign-in to anything but the SSO redirect flow", async () => {
    const client = new TestClient(app.app);
    for (const body of [
      { provider: "suite", callbackURL: "/" },
      { provider: "oidc", idToken: { token: "x.y.z" } },
    ]) {
      const res = await client.post("/api/auth/sign-in/social", body, { origin: base });
      expect(res.status, JSON.stringify(body)).toBe(404);
    }
  });
});

describe("password sign-in switched off", () => {
  let mode: ModeEnv;
  beforeAll(async () => {
    mode = await prepareMode("embedded");
  });
  afterAll(() => mode.teardown());

  it("refuses email sign-up and sign-in with 403 password_login_disabled", async () => {
    const app = await mode.start({
      access: {
        ...testConfig().access,
        passwordLogin: false,
        oidc: {
          providerId: "oidc",
          issuer: "http://127.0.0.1:9",
          clientId: "c",
          clientSecret: "s",
          displayName: "SSO",
          scopes: ["openid"],
          autoSignUp: true,
          adminGroup: null,
        },
      },
    });
    const client = new TestClient(app.app);
    for (const path of ["/api/auth/sign-up/email", "/api/auth/sign-in/email"]) {
      const res = await client.post(path, { name: "N", email: "n@example.test", password: "password-123" });
      expect(res.status, path).toBe(403);
      expect(res.body.code).toBe("password_login_disabled");
    }
    expect((await client.get("/api/instance")).body).toMatchObject({ passwordLogin: false, hasUsers: false });
  });

  it("stops start-up with one line naming a malformed OIDC_ISSUER, or a missing client", () => {
    const env = {
      AUTH_SECRET: "x".repeat(40),
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32).toString("base64"),
      DATA_DIR: "/tmp/tessera-config-test",
    };
    expect(() => loadConfig({ ...env, OIDC_ISSUER: "not a url" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, OIDC_ISSUER: "not a url" })).toThrow(/^OIDC_ISSUER: /);
    expect(() => loadConfig({ ...env, OIDC_ISSUER: "https://id.example" })).toThrow(/^OIDC_CLIENT_ID: /);
    expect(() => loadConfig({ ...env, PASSWORD_LOGIN: "false" })).toThrow(/^PASSWORD_LOGIN: /);
    expect(() => loadConfig({ ...env, SIGNUP_MODE: "everyone" })).toThrow(/^SIGNUP_MODE: /);
  });
});
