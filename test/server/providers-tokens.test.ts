import { Writable } from "node:stream";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Provider } from "../../src/contract/providers.js";
import { type BuiltApp, buildApp } from "../../src/server/app.js";
import { FakeGithub } from "../fakes/github.js";
import { FakeGoogle } from "../fakes/google.js";
import { FakeNotion } from "../fakes/notion.js";
import { expireAccessToken, providersConfig, seedAccount, storedAccount } from "../fakes/oauth-accounts.js";
import type { FakeServer, TokenAuthority } from "../fakes/oauth-http.js";
import { signedInClient, TestClient } from "../support/client.js";
import { upstreamConfig } from "../support/config.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";
import { findLeak } from "../support/secrets.js";

/** The upstream deadline of these tests: short, so a stalled upstream costs little time. */
const TIMEOUT_MS = 1500;

interface Endpoint {
  provider: Provider;
  method: "GET" | "POST";
  url: (ids: { message: string; page: string }) => string;
  body?: unknown;
}

const start = new Date(Date.now() + 86_400_000).toISOString();
const end = new Date(Date.now() + 90_000_000).toISOString();

/** Every provider data endpoint, so each failure mode is checked on all of them. */
const ENDPOINTS: Endpoint[] = [
  { provider: "suite", method: "GET", url: () => "/api/providers/suite/mail/labels" },
  { provider: "suite", method: "GET", url: () => "/api/providers/suite/mail/messages" },
  { provider: "suite", method: "GET", url: (ids) => `/api/providers/suite/mail/messages/${ids.message}` },
  { provider: "suite", method: "GET", url: () => "/api/providers/suite/calendars" },
  { provider: "suite", method: "GET", url: () => "/api/providers/suite/events?calendars=primary" },
  {
    provider: "suite",
    method: "POST",
    url: () => "/api/providers/suite/events",
    body: { calendarId: "primary", title: "Sync", start, end },
  },
  { provider: "codehost", method: "GET", url: () => "/api/providers/codehost/items" },
  { provider: "codehost", method: "GET", url: () => "/api/providers/codehost/contributions" },
  { provider: "notes", method: "GET", url: () => "/api/providers/notes/pages" },
  { provider: "notes", method: "GET", url: (ids) => `/api/providers/notes/pages/${ids.page}` },
];

describe.each(MODES)("provider tokens and upstream failures (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let google: FakeGoogle;
  let github: FakeGithub;
  let notion: FakeNotion;
  const logLines: string[] = [];
  let fakes: Record<Provider, { server: FakeServer; authority: TokenAuthority }>;
  let ids: { message: string; page: string };

  beforeAll(async () => {
    [google, github, notion] = await Promise.all([
      FakeGoogle.start(),
      FakeGithub.start(),
      FakeNotion.start(),
    ]);
    fakes = { suite: google, codehost: github, notes: notion };
    ids = { message: google.messages[2]!.id, page: notion.docId };
    mode = await prepareMode(modeName);
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    // Built directly (not through mode.start) to capture every log line at debug level.
    built = await buildApp(
      mode.config({
        logLevel: "debug",
        // Dozens of sign-ups from one address in a minute: the brute-force limit is not under test here.
        rateLimitEnabled: false,
        upstream: upstreamConfig({ timeoutMs: TIMEOUT_MS }),
        providers: providersConfig({
          google: { api: google.url, token: google.url, authority: google.authority },
          github: { api: github.url, token: github.url, authority: github.authority },
          notion: { api: notion.url, token: notion.url, authority: notion.authority },
        }),
      }),
      { logStream },
    );
  });
  afterAll(async () => {
    await built.close();
    await mode.teardown();
    await Promise.all([google.server.close(), github.server.close(), notion.server.close()]);
  });

  async function linkedUser(provider: Provider, options?: Parameters<typeof seedAccount>[4]) {
    const client = await signedInClient(built.app);
    const tokens = await seedAccount(built, client.user!.id, provider, fakes[provider].authority, options);
    return { client, tokens };
  }

  const call = (client: TestClient, e: Endpoint) =>
    e.method === "GET" ? client.get(e.url(ids)) : client.post(e.url(ids), e.body);
  const okStatus = (e: Endpoint) => (e.method === "POST" ? 201 : 200);

  it("lists the three providers as configured, and connected once linked", async () => {
    const { client } = await linkedUser("codehost");
    const res = await client.get("/api/providers");
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { provider: "suite", label: "Google", configured: true, connected: false, reconnectRequired: false },
      { provider: "codehost", label: "GitHub", configured: true, connected: true, reconnectRequired: false },
      { provider: "notes", label: "Notion", configured: true, connected: false, reconnectRequired: false },
    ]);
    expect((await new TestClient(built.app).get("/api/providers")).status).toBe(401);
  });

  it("reports providers without credentials as not configured", async () => {
    const bare = await mode.start();
    const client = await signedInClient(bare.app);
    const res = await client.get("/api/providers");
    expect(res.body.map((p: { configured: boolean }) => p.configured)).toEqual([false, false, false]);
    const connect = await client.get("/api/providers/suite/connect");
    expect(connect.status).toBe(404);
    expect(connect.body.code).toBe("provider_not_configured");
  });

  it("stores tokens encrypted, never in plaintext", async () => {
    const { client, tokens } = await linkedUser("suite");
    const rows = await built.ctx.database.db.execute(
      sql`select access_token, refresh_token from account where user_id = ${client.user!.id} and provider_id = 'suite'`,
    );
    const row = ((rows as { rows?: unknown[] }).rows ?? rows) as {
      access_token: string;
      refresh_token: string;
    }[];
    expect(row[0]!.access_token.startsWith("enc:v1:")).toBe(true);
    expect(row[0]!.refresh_token.startsWith("enc:v1:")).toBe(true);
    expect(JSON.stringify(row)).not.toContain(tokens.accessToken);
    expect(JSON.stringify(row)).not.toContain(tokens.refreshToken);
  });

  it("refreshes an expired token before the call, stores the rotated tokens encrypted, then succeeds (every endpoint)", async () => {
    for (const e of ENDPOINTS) {
      const { client, tokens } = await linkedUser(e.provider);
      await expireAccessToken(built, client.user!.id, e.provider);
      const authority = fakes[e.provider].authority;
      const refreshesBefore = authority.refreshCount;
      const res = await call(client, e);
      expect(res.status, e.url(ids)).toBe(okStatus(e));
      expect(authority.refreshCount - refreshesBefore, e.url(ids)).toBe(1);
      // The refresh reached the token endpoint before the API call, with the old refresh token.
      const tokenCall = fakes[e.provider].server.calls("/token").at(-1)!;
      expect(tokenCall.form().get("refresh_token")).toBe(tokens.refreshToken);

      const row = (await storedAccount(built, client.user!.id, e.provider))!;
      expect(row.accessToken!.startsWith("enc:v1:")).toBe(true);
      expect(row.refreshToken!.startsWith("enc:v1:")).toBe(true);
      const access = built.ctx.cipher.decrypt(row.accessToken!);
      const refresh = built.ctx.cipher.decrypt(row.refreshToken!);
      expect(access).not.toBe(tokens.accessToken);
      expect(authority.access.has(access)).toBe(true);
      expect(authority.refresh.has(refresh)).toBe(true);
      expect(row.accessTokenExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 3_000_000);
    }
  });

  it("refreshes once for many concurrent requests (single flight)", async () => {
    const { client } = await linkedUser("suite");
    await expireAccessToken(built, client.user!.id, "suite");
    const before = google.authority.refreshCount;
    const answers = await Promise.all([
      client.get("/api/providers/suite/mail/labels"),
      client.get("/api/providers/suite/calendars"),
      client.get("/api/providers/suite/mail/messages?pageSize=5"),
      client.get("/api/providers/suite/events?calendars=primary"),
      client.get("/api/providers/suite/mail/labels"),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(google.authority.refreshCount - before).toBe(1);
  });

  it("refreshes and retries once when the provider refuses a token it revoked early", async () => {
    const { client } = await linkedUser("notes");
    notion.authority.revokeAccess();
    const res = await client.get("/api/providers/notes/pages");
    expect(res.status).toBe(200);
    const row = (await storedAccount(built, client.user!.id, "notes"))!;
    expect(notion.authority.access.has(built.ctx.cipher.decrypt(row.accessToken!))).toBe(true);
    // Notion's token endpoint takes the client with Basic authentication.
    const tokenCall = notion.server.calls("/token").at(-1)!;
    expect(tokenCall.headers.authorization).toMatch(/^Basic /);
  });

  it("answers 502 reconnect_required (never 401) when the refresh is refused (every endpoint)", async () => {
    for (const e of ENDPOINTS) {
      const { client } = await linkedUser(e.provider);
      await expireAccessToken(built, client.user!.id, e.provider);
      fakes[e.provider].authority.refuse = true;
      try {
        const res = await call(client, e);
        expect(res.status, e.url(ids)).toBe(502);
        expect(res.body.code, e.url(ids)).toBe("reconnect_required");
      } finally {
        fakes[e.provider].authority.refuse = false;
      }
      // The session is untouched: our own endpoints still answer.
      expect((await client.get("/api/accounts")).status).toBe(200);
    }
  });

  it("answers 502 reconnect_required when the token expired and there is no refresh token", async () => {
    const { client } = await linkedUser("codehost", { withRefreshToken: false });
    await expireAccessToken(built, client.user!.id, "codehost");
    const res = await client.get("/api/providers/codehost/items");
    expect(res.status).toBe(502);
    expect(res.body.code).toBe("reconnect_required");
    const list = await client.get("/api/providers");
    expect(list.body[1]).toMatchObject({ provider: "codehost", connected: true, reconnectRequired: true });
  });

  it("answers 502 upstream_failed when the provider answers in another shape or not in JSON (every endpoint)", async () => {
    for (const e of ENDPOINTS) {
      for (const answer of [{ json: [{ surprise: true }] }, { text: "<html>maintenance</html>" }]) {
        const { client } = await linkedUser(e.provider);
        fakes[e.provider].server.fail({ answer });
        const res = await call(client, e);
        expect(res.status, e.url(ids)).toBe(502);
        expect(res.body.code, e.url(ids)).toBe("upstream_failed");
        expect(res.body.detail, e.url(ids)).toMatch(/unexpected shape|not JSON/);
      }
    }
  });

  it("answers 502 upstream_failed when the provider fails (every endpoint)", async () => {
    for (const e of ENDPOINTS) {
      const { client } = await linkedUser(e.provider);
      fakes[e.provider].server.fail({ status: 503 });
      const res = await call(client, e);
      expect(res.status, e.url(ids)).toBe(502);
      expect(res.body.code, e.url(ids)).toBe("upstream_failed");
      // Failures are not cached: the same request succeeds once the provider is back.
      const retry = await call(client, e);
      expect(retry.status, e.url(ids)).toBe(okStatus(e));
    }
  });

  it("answers 504 upstream_timeout when the provider does not answer (every endpoint)", async () => {
    const users = await Promise.all(ENDPOINTS.map((e) => linkedUser(e.provider)));
    for (const provider of ["suite", "codehost", "notes"] as const) {
      const hangs = ENDPOINTS.filter((e) => e.provider === provider).map(() => ({ hang: true }));
      fakes[provider].server.fail(...hangs);
    }
    const started = Date.now();
    const answers = await Promise.all(ENDPOINTS.map((e, i) => call(users[i]!.client, e)));
    for (const [i, res] of answers.entries()) {
      expect(res.status, ENDPOINTS[i]!.url(ids)).toBe(504);
      expect(res.body.code).toBe("upstream_timeout");
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 10_000);
  });

  it("never writes a token or password to the log", async () => {
    const text = logLines.join("");
    expect(logLines.length).toBeGreaterThan(50);
    expect(text).toContain("reconnect_required");
    expect(findLeak(text)).toBeNull();
  });
});
