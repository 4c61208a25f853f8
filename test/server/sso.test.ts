import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { type AccessConfig, ConfigError, loadConfig } from "../../src/server/config.js";
import { account } from "../../src/server/db/schema.js";
import { type OidcAccount, type OidcServer, startOidcServer } from "../fakes/oauth-oidc.js";
import { Browser } from "../support/browser.js";
import { TestClient } from "../support/client.js";
import { testConfig } from "../support/config.js";
import { type ModeEnv, type ModeName, prepareMode } from "../support/modes.js";
import { freePort } from "../support/ports.js";
import { registerSecret } from "../support/secrets.js";

const ADMINS = "tessera-admins";
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
    await new TestClient(strict.app).signUp("Founder", "founder@corp.test");
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

  it("links to an existing account only when the provider says the email is verified", async () => {
    const unverified = person({ email: "taken@corp.test", emailVerified: false });
    const existing = await invited("Taken", "taken@corp.test");
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

    // Sign-up is closed there too; the founder's password account links by verified email.
    const signedIn = await signInWithSso(strictBase, person({ email: "founder@corp.test" }));
    expect(signedIn.me).toMatchObject({ email: "founder@corp.test", role: "admin" });
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
