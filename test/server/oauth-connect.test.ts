import { Writable } from "node:stream";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltApp, buildApp } from "../../src/server/app.js";
import type { Config } from "../../src/server/config.js";
import { user } from "../../src/server/db/schema.js";
import { FakeGithub, VIEWER_LOGIN } from "../fakes/github.js";
import { FakeGoogle } from "../fakes/google.js";
import { FakeNotion, NOTION_OWNER_ID } from "../fakes/notion.js";
import { expireAccessToken, providersConfig, storedAccount } from "../fakes/oauth-accounts.js";
import { type OidcServer, startOidcServer } from "../fakes/oauth-oidc.js";
import { Browser } from "../support/browser.js";
import { uniqueEmail } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";
import { freePort } from "../support/ports.js";
import { findLeak, registerSecret } from "../support/secrets.js";

describe.each(MODES)("connecting a provider through a real OAuth server (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let wrongSecretApp: BuiltApp;
  let op: OidcServer;
  let google: FakeGoogle;
  let github: FakeGithub;
  let notion: FakeNotion;
  let base: string;
  let wrongBase: string;
  const logLines: string[] = [];
  const browsers: Browser[] = [];
  /** Every token version the server ever stored, so the leak checks can look for each. */
  const tokensSeen = new Set<string>();

  async function rememberTokens(userId: string) {
    const row = await storedAccount(built, userId, "suite");
    for (const value of [row?.accessToken, row?.refreshToken, row?.idToken]) {
      if (value) tokensSeen.add(built.ctx.cipher.decrypt(value));
    }
  }

  beforeAll(async () => {
    const [port, wrongPort] = [await freePort(), await freePort()];
    base = `http://127.0.0.1:${port}`;
    wrongBase = `http://127.0.0.1:${wrongPort}`;
    const redirects = (p: string) => [
      `${base}/api/auth/callback/${p}`,
      `${wrongBase}/api/auth/callback/${p}`,
    ];
    op = await startOidcServer({
      suite: { redirectUris: redirects("suite"), clientAuth: "client_secret_post" },
      codehost: { redirectUris: redirects("codehost"), clientAuth: "client_secret_post" },
      // Notion authenticates the client with HTTP Basic at its token endpoint.
      notes: { redirectUris: redirects("notes"), clientAuth: "client_secret_basic" },
    });
    const authorize = (token: string) => op.validAccessToken(token);
    [google, github, notion] = await Promise.all([
      FakeGoogle.start({ authorize }),
      FakeGithub.start({ authorize }),
      FakeNotion.start({ authorize }),
    ]);
    const providers = (secret?: string): Config["providers"] => {
      const all = providersConfig({});
      const endpoints = (name: "suite" | "codehost" | "notes", userInfoUrl: string, apiUrl: string) => ({
        clientId: op.clients[name]!.clientId,
        clientSecret: secret ?? op.clients[name]!.clientSecret,
        authorizationUrl: `${op.issuer}/auth`,
        tokenUrl: `${op.issuer}/token`,
        userInfoUrl,
        apiUrl,
      });
      all.google = endpoints("suite", `${op.issuer}/me`, google.url);
      all.github = endpoints("codehost", `${github.url}/user`, github.url);
      all.notion = endpoints("notes", `${notion.url}/v1/users/me`, notion.url);
      return all;
    };
    mode = await prepareMode(modeName);
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    built = await buildApp(mode.config({ baseUrl: base, logLevel: "debug", providers: providers() }), {
      logStream,
    });
    await built.app.listen({ port, host: "127.0.0.1" });
    // The same deployment with a wrong client secret, on the same database.
    wrongSecretApp = await buildApp(
      mode.config({ baseUrl: wrongBase, providers: providers("not-the-secret") }),
      { database: built.ctx.database },
    );
    await wrongSecretApp.app.listen({ port: wrongPort, host: "127.0.0.1" });
  });

  afterAll(async () => {
    await wrongSecretApp?.close();
    await built?.close();
    await mode.teardown();
    await Promise.all([google?.server.close(), github?.server.close(), notion?.server.close()]);
    await op?.close();
  });

  async function signedUpBrowser(at = base) {
    const browser = new Browser();
    browsers.push(browser);
    const email = uniqueEmail("linker");
    const password = `pw-${email}-Secret1`;
    registerSecret(password);
    const res = await browser.request(`${at}/api/auth/sign-up/email`, {
      method: "POST",
      json: { name: "Linker", email, password },
      origin: at,
    });
    expect(res.status).toBe(200);
    return { browser, userId: res.json().user.id as string, email };
  }

  it("connects Google to the signed-in user (PKCE, state, exact redirect URI, client secret), uses it, disconnects", async () => {
    const { browser, userId, email } = await signedUpBrowser();
    op.nextLogin = { sub: `sub-${userId}`, email, name: "Same Email" };

    const start = await browser.request(`${base}/api/providers/suite/connect?returnTo=/dashboards/1`);
    expect(start.status).toBe(302);
    const authorize = new URL(start.location!);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${op.issuer}/auth`);
    const q = authorize.searchParams;
    expect(q.get("response_type")).toBe("code");
    expect(q.get("client_id")).toBe(op.clients.suite!.clientId);
    expect(q.get("redirect_uri")).toBe(`${base}/api/auth/callback/suite`);
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(q.get("state")).toMatch(/^[\w-]{16,}$/);
    expect(q.get("scope")!.split(" ")).toEqual(
      expect.arrayContaining(["openid", "email", "https://www.googleapis.com/auth/gmail.readonly"]),
    );
    expect(q.get("access_type")).toBe("offline");
    expect(q.get("prompt")).toBe("consent");

    const landed = await browser.follow(start.location!, base);
    expect(landed).toBe(`${base}/dashboards/1?connected=suite`);
    await rememberTokens(userId);

    // Still the same user, same email: linking never signs in as someone else.
    const session = (await browser.request(`${base}/api/auth/get-session`)).json();
    expect(session.user).toMatchObject({ id: userId, email });

    const accounts = await browser.request(`${base}/api/accounts`);
    expect(accounts.status).toBe(200);
    const [linked] = accounts.json();
    expect(accounts.json()).toHaveLength(1);
    expect(linked).toMatchObject({
      providerId: "suite",
      accountId: `sub-${userId}`,
      userId,
      accessToken: null,
      refreshToken: null,
      idToken: null,
    });
    expect(linked.accessTokenExpiresAt).not.toBeNull();
    expect(linked.scope).toContain("openid");

    const row = (await storedAccount(built, userId, "suite"))!;
    expect(row.accessToken!.startsWith("enc:v1:")).toBe(true);
    expect(row.refreshToken!.startsWith("enc:v1:")).toBe(true);

    // The provider API accepts only tokens the OAuth server issued: this call proves the exchange.
    const calendars = await browser.request(`${base}/api/providers/suite/calendars`);
    expect(calendars.status).toBe(200);
    expect(calendars.json()[0].id).toBe("primary");

    // An expired token is refreshed at the OAuth server (client secret, refresh grant) and rotated.
    const before = built.ctx.cipher.decrypt(row.accessToken!);
    await expireAccessToken(built, userId, "suite");
    const labels = await browser.request(`${base}/api/providers/suite/mail/labels`);
    expect(labels.status).toBe(200);
    const after = (await storedAccount(built, userId, "suite"))!;
    expect(built.ctx.cipher.decrypt(after.accessToken!)).not.toBe(before);
    expect(await op.validAccessToken(built.ctx.cipher.decrypt(after.accessToken!))).toBe(true);
    await rememberTokens(userId);

    const list = await browser.request(`${base}/api/providers`);
    expect(list.json()[0]).toMatchObject({ provider: "suite", configured: true, connected: true });

    const removed = await browser.request(`${base}/api/accounts?provider=suite`, {
      method: "DELETE",
      origin: base,
    });
    expect(removed.status).toBe(200);
    const gone = await browser.request(`${base}/api/providers/suite/calendars`);
    expect(gone.status).toBe(404);
    expect(gone.json().code).toBe("account_not_connected");
  });

  it("links to the same user when the provider reports a different email, and creates no user", async () => {
    const { browser, userId, email } = await signedUpBrowser();
    const otherEmail = uniqueEmail("provider-side");
    op.nextLogin = { sub: `other-${userId}`, email: otherEmail, name: "Someone Else" };
    const start = await browser.request(`${base}/api/providers/suite/connect`);
    const landed = await browser.follow(start.location!, base);
    expect(landed).toBe(`${base}/?connected=suite`);
    await rememberTokens(userId);

    const session = (await browser.request(`${base}/api/auth/get-session`)).json();
    expect(session.user).toMatchObject({ id: userId, email });
    const accounts = (await browser.request(`${base}/api/accounts`)).json();
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ providerId: "suite", userId, accountId: `other-${userId}` });
    const strangers = await built.ctx.database.db.select().from(user).where(eq(user.email, otherEmail));
    expect(strangers).toHaveLength(0);

    // Connecting again with another provider account replaces the link (one per provider).
    browser.forget(op.issuer);
    op.nextLogin = { sub: `third-${userId}`, email: otherEmail, name: "Someone Else" };
    const again = await browser.request(`${base}/api/providers/suite/connect`);
    expect(await browser.follow(again.location!, base)).toBe(`${base}/?connected=suite`);
    await rememberTokens(userId);
    const relinked = (await browser.request(`${base}/api/accounts`)).json();
    expect(relinked).toHaveLength(1);
    expect(relinked[0].accountId).toBe(`third-${userId}`);
  });

  it("connects GitHub and Notion the same way, each with the provider's own account id", async () => {
    const { browser, userId } = await signedUpBrowser();
    op.nextLogin = { sub: `gh-${userId}`, email: "gh@provider.test", name: "GH" };
    const gh = await browser.request(`${base}/api/providers/codehost/connect?returnTo=/w`);
    expect(new URL(gh.location!).searchParams.get("scope")).toBe("read:user");
    expect(await browser.follow(gh.location!, base)).toBe(`${base}/w?connected=codehost`);

    browser.forget(op.issuer);
    op.nextLogin = { sub: `no-${userId}`, email: "no@provider.test", name: "NO" };
    const no = await browser.request(`${base}/api/providers/notes/connect?returnTo=/w`);
    expect(new URL(no.location!).searchParams.get("owner")).toBe("user");
    expect(await browser.follow(no.location!, base)).toBe(`${base}/w?connected=notes`);

    const accounts = (await browser.request(`${base}/api/accounts`)).json();
    const byProvider = Object.fromEntries(accounts.map((a: { providerId: string }) => [a.providerId, a]));
    // GitHub's numeric user id and Notion's owner user id, read with the new tokens.
    expect(byProvider.codehost).toMatchObject({ accountId: "4242", userId, accessToken: null });
    expect(byProvider.notes).toMatchObject({ accountId: NOTION_OWNER_ID, userId, accessToken: null });
    for (const p of ["codehost", "notes"] as const) {
      const row = (await storedAccount(built, userId, p))!;
      for (const value of [row.accessToken, row.refreshToken])
        if (value) tokensSeen.add(built.ctx.cipher.decrypt(value));
    }

    const heatmap = await browser.request(`${base}/api/providers/codehost/contributions`);
    expect(heatmap.status).toBe(200);
    expect(heatmap.json().login).toBe(VIEWER_LOGIN);
    const pages = await browser.request(`${base}/api/providers/notes/pages`);
    expect(pages.status).toBe(200);
    expect(pages.json().pages.length).toBeGreaterThan(0);
  });

  it("refuses a callback whose state was tampered with, and links nothing", async () => {
    const { browser, userId } = await signedUpBrowser();
    op.nextLogin = { sub: `tamper-${userId}`, email: "t@provider.test", name: "T" };
    const start = await browser.request(`${base}/api/providers/suite/connect?returnTo=/x`);
    const callback = await browser.follow(
      start.location!,
      base,
      (url) => url.pathname === "/api/auth/callback/suite",
    );
    const forged = new URL(callback);
    expect(forged.searchParams.get("code")).toBeTruthy();
    forged.searchParams.set("state", "forged-state-value-0123456789");
    const res = await browser.request(forged.toString());
    expect(res.status).toBe(302);
    expect(res.location).toMatch(/error=/);
    expect(res.location).not.toContain("connected=suite");
    const rows = await built.ctx.database.db
      .select()
      .from(user)
      .where(and(eq(user.id, userId)));
    expect(rows).toHaveLength(1);
    expect((await browser.request(`${base}/api/accounts`)).json()).toEqual([]);
  });

  it("does not link when the token exchange fails (wrong client secret)", async () => {
    const { browser, userId } = await signedUpBrowser(wrongBase);
    op.nextLogin = { sub: `wrong-${userId}`, email: "w@provider.test", name: "W" };
    const start = await browser.request(`${wrongBase}/api/providers/suite/connect?returnTo=/settings`);
    expect(start.status).toBe(302);
    const landed = new URL(await browser.follow(start.location!, wrongBase));
    expect(landed.pathname).toBe("/settings");
    expect(landed.searchParams.get("connect")).toBe("suite");
    expect(landed.searchParams.get("error")).toBeTruthy();
    expect((await browser.request(`${wrongBase}/api/accounts`)).json()).toEqual([]);
  });

  it("rejects an open redirect in returnTo, a connect without session, and social sign-in", async () => {
    const { browser } = await signedUpBrowser();
    for (const returnTo of ["https://evil.test/", "//evil.test/x", "/\\evil.test", "javascript:alert(1)"]) {
      const res = await browser.request(
        `${base}/api/providers/suite/connect?returnTo=${encodeURIComponent(returnTo)}`,
      );
      expect(res.status, returnTo).toBe(400);
    }
    const anonymous = await new Browser().request(`${base}/api/providers/suite/connect`);
    expect(anonymous.status).toBe(401);
    // Provider accounts only link; they never sign anyone in, and tokens never go to the browser.
    const social = await browser.request(`${base}/api/auth/sign-in/social`, {
      method: "POST",
      json: { provider: "suite" },
      origin: base,
    });
    expect(social.status).toBe(404);
    for (const path of ["/api/auth/get-access-token", "/api/auth/refresh-token"]) {
      const res = await browser.request(`${base}${path}`, {
        method: "POST",
        json: { providerId: "suite" },
        origin: base,
      });
      expect(res.status, path).toBe(404);
    }
  });

  it("never showed a token to the browser or wrote one to the log", () => {
    expect(tokensSeen.size).toBeGreaterThanOrEqual(4);
    for (const token of tokensSeen) registerSecret(token);
    for (const browser of browsers) for (const text of browser.seen) expect(findLeak(text)).toBeNull();
    expect(logLines.length).toBeGreaterThan(20);
    expect(findLeak(logLines.join(""))).toBeNull();
  });
});
