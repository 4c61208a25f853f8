import { once } from "node:events";
import { PassThrough } from "node:stream";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltApp, buildApp } from "../../src/server/app.js";
import { ConfigError, loadConfig } from "../../src/server/config.js";
import { signedInClient, TestClient, uniqueEmail } from "../support/client.js";
import { testConfig } from "../support/config.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";
import { registerSecret } from "../support/secrets.js";
import { POSTGRES_ADMIN_URL } from "../support/services.js";

describe.each(MODES)("health, readiness and rate limits (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    built = await mode.start({
      rateLimits: {
        authPerIp: 5,
        authPerEmail: 3,
        signupsPerHour: 100_000,
        authWindowMs: 60_000,
        notificationsPerUser: 4,
        notificationsBurst: 4,
        notificationsWindowMs: 60_000,
        pushTestsPerHour: 10,
      },
    });
  });
  afterAll(() => mode.teardown());

  it("answers /healthz and /readyz", async () => {
    const client = new TestClient(built.app);
    expect((await client.get("/healthz")).status).toBe(200);
    const ready = await client.get("/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body.checks.database).toBe("ok");
    if (modeName === "postgres+redis") expect(ready.body.checks.redis).toBe("ok");
  });

  it("limits sign-in attempts per address and email, so a guesser elsewhere cannot lock the owner out", async () => {
    const victim = new TestClient(built.app);
    const { email, password } = await victim.signUp("Victim", uniqueEmail("victim"));
    const from = (address: string, pw: string) =>
      new TestClient(built.app).request({
        method: "POST",
        url: "/api/auth/sign-in/email",
        json: { email, password: pw },
        remoteAddress: address,
      });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await from("10.0.0.1", "wrong-password")).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const refused = await from("10.0.0.1", "wrong-password");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.body.code).toBe("rate_limited");
    // The owner, from their own address, still gets in.
    expect((await from("10.0.0.200", password)).status).toBe(200);
  });

  it("bounds guessing spread over many addresses at ten times the per-address budget", async () => {
    const { email } = await new TestClient(built.app).signUp("Spread", uniqueEmail("spread"));
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await new TestClient(built.app).request({
        method: "POST",
        url: "/api/auth/sign-in/email",
        json: { email, password: "wrong-password" },
        remoteAddress: `10.1.${Math.floor(i / 2)}.${i}`,
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
  });

  it("counts nothing for the email once the address is refused, and refuses oversized emails before counting", async () => {
    const { email, password } = await new TestClient(built.app).signUp("Quiet", uniqueEmail("quiet"));
    const attempt = (address: string, body: object) =>
      new TestClient(built.app).request({
        method: "POST",
        url: "/api/auth/sign-in/email",
        json: body,
        remoteAddress: address,
      });
    // Spend the address's budget on other emails, then try the victim's: all refused by the address.
    for (let i = 0; i < 5; i++)
      await attempt("10.2.0.1", { email: uniqueEmail("other"), password: "nope-nope" });
    for (let i = 0; i < 5; i++)
      expect((await attempt("10.2.0.1", { email, password: "wrong-password" })).status).toBe(429);
    // The refused attempts were not counted against the email: elsewhere it has its full budget.
    const elsewhere: number[] = [];
    for (let i = 0; i < 3; i++)
      elsewhere.push((await attempt("10.2.0.2", { email, password: "wrong-password" })).status);
    expect(elsewhere).toEqual([401, 401, 401]);

    // A near-megabyte "email" is refused as it is, and costs the address nothing.
    const huge = "a".repeat(1_000_000);
    for (let i = 0; i < 200; i++) {
      const res = await attempt("10.2.0.3", { email: `${huge}${i}@example.test`, password: "x" });
      expect(res.status).toBe(400);
    }
    expect((await attempt("10.2.0.3", { email, password })).status).toBe(200);
  });

  it("limits sign-up and sign-in attempts per client address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await new TestClient(built.app).request({
        method: "POST",
        url: "/api/auth/sign-in/email",
        json: { email: uniqueEmail("nobody"), password: "whatever-it-is" },
        remoteAddress: "10.9.9.9",
      });
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s === 429).length).toBe(2);
    // Another address is not affected.
    const other = await new TestClient(built.app).request({
      method: "POST",
      url: "/api/auth/sign-in/email",
      json: { email: uniqueEmail("nobody"), password: "whatever-it-is" },
      remoteAddress: "10.9.9.10",
    });
    expect(other.status).toBe(401);
  });

  it("limits notification creation per user", async () => {
    const user = await signedInClient(built.app, "Chatty");
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await user.post("/api/notifications", { type: "message", message: `m${i}` })).status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 429, 429]);
    expect((await user.get("/api/notifications")).body).toHaveLength(4);
    // Another user has their own budget.
    const other = await signedInClient(built.app, "Quiet");
    expect((await other.post("/api/notifications", { type: "message", message: "hi" })).status).toBe(201);
  });
});

describe("dependencies going away", () => {
  it("answers 503 problem+json with Retry-After when Redis is unreachable, and /readyz says so", async () => {
    const mode = await prepareMode("postgres+redis");
    // A port where nothing listens: Redis is "down" for this instance only.
    // Rate limits count in Redis too; they are off here so sign-up can reach the session store.
    const built = await mode.start({ redisUrl: "redis://127.0.0.1:1", rateLimitEnabled: false });
    try {
      const user = await signedInClient(built.app, "Stranded");
      const res = await user.post("/api/notifications", { type: "message", message: "lost?" });
      expect(res.status).toBe(503);
      expect(res.headers["retry-after"]).toBeDefined();
      expect(res.body.code).toBe("service_unavailable");
      const ready = await new TestClient(built.app).get("/readyz");
      expect(ready.status).toBe(503);
      expect(ready.body.detail).toContain("redis");
    } finally {
      await mode.teardown();
    }
  }, 60_000);
});

describe("the database going away", () => {
  it("answers 503 problem+json while PostgreSQL refuses connections, and recovers when it is back", async () => {
    const mode = await prepareMode("postgres");
    const built = await mode.start();
    const database = new URL(built.ctx.config.databaseUrl!).pathname.slice(1);
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    try {
      const user = await signedInClient(built.app, "Patient");
      expect((await user.get("/api/dashboards")).status).toBe(200);
      // Refuse new connections and cut the open ones: the pool has nothing left to use.
      await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [
        database,
      ]);
      const down = await user.post("/api/dashboards", { name: "during the outage" });
      expect(down.status).toBe(503);
      expect(down.body.code).toBe("service_unavailable");
      expect(down.headers["retry-after"]).toBeDefined();
      const ready = await new TestClient(built.app).get("/readyz");
      expect(ready.status).toBe(503);
      expect(ready.body.detail).toContain("database");

      await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
      const back = await user.post("/api/dashboards", { name: "after the outage" });
      expect(back.status).toBe(201);
      const names = (await user.get("/api/dashboards")).body.map((d: { name: string }) => d.name);
      expect(names).toEqual(["after the outage"]);
    } finally {
      await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`).catch(() => {});
      await admin.end();
      await mode.teardown();
    }
  }, 60_000);
});

describe("configuration", () => {
  it("stops on a bad value with one line naming the variable", () => {
    const cases: [Record<string, string>, string][] = [
      [{ PORT: "eighty" }, "PORT"],
      [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
      [{ DATABASE_URL: "postgres://x@127.0.0.1/db" }, "AUTH_SECRET"],
      [{ AUTH_SECRET: "short", DATA_DIR: "/tmp/tessera-config-test" }, "AUTH_SECRET"],
      [
        { EXCHANGE_CLIENT_SECRET: "not base64!", DATA_DIR: "/tmp/tessera-config-test" },
        "EXCHANGE_CLIENT_SECRET",
      ],
      [{ TRUST_PROXY: "maybe", DATA_DIR: "/tmp/tessera-config-test" }, "TRUST_PROXY"],
      [{ METRICS_TOKEN: "short", DATA_DIR: "/tmp/tessera-config-test" }, "METRICS_TOKEN"],
    ];
    for (const [env, variable] of cases) {
      let error: unknown;
      try {
        loadConfig(env);
      } catch (e) {
        error = e;
      }
      expect(error, variable).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variable).toBe(variable);
      expect((error as Error).message).not.toContain("\n");
    }
  });
});

describe("logs", () => {
  it("never carry cookies, authorization headers, passwords or tokens", async () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    stream.on("data", (chunk) => lines.push(String(chunk)));
    const built = await buildApp(testConfig({ logLevel: "trace" }), { logStream: stream });
    try {
      const user = new TestClient(built.app);
      const { password } = await user.signUp("Logged");
      registerSecret(user.sessionToken!);
      await user.get("/api/dashboards");
      await new TestClient(built.app).get("/api/dashboards", {
        authorization: `Bearer ${user.sessionToken}`,
      });
      await user.post("/api/auth/sign-in/email", { email: user.user!.email, password });
      await user.put("/api/accounts", { provider: "suite", refreshToken: "refresh-token-in-a-log?" });
      await user.get("/api/auth/callback/suite?code=secret-code-123&state=secret-state-456");
      const text = lines.join("");
      expect(text.length).toBeGreaterThan(0);
      expect(text).toContain("request completed");
      for (const secret of [
        password,
        user.sessionToken!,
        user.cookie!,
        "refresh-token-in-a-log?",
        "secret-code-123",
      ]) {
        expect(text).not.toContain(secret);
      }
    } finally {
      await built.close();
    }
  });
});

describe("request log lines", () => {
  it("one line per request: at info when it failed, at debug when it went well", async () => {
    const stream = new PassThrough();
    const lines: { msg: string; level: number; req?: { url: string }; res?: { statusCode: number } }[] = [];
    stream.on("data", (chunk) => {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
    });
    // At debug every line is written, with its level: info (30) is what the default level keeps.
    const built = await buildApp(testConfig({ logLevel: "debug" }), { logStream: stream });
    try {
      const user = await signedInClient(built.app, "Logged");
      await user.get("/api/dashboards");
      await user.get("/api/dashboards/not-a-uuid");
    } finally {
      await built.close();
    }
    const requests = lines
      .filter((line) => line.req && line.res)
      .map((line) => `${line.level} ${line.res!.statusCode} ${line.req!.url}`);
    expect(requests.filter((line) => line.endsWith(" /api/dashboards"))).toEqual(["20 200 /api/dashboards"]);
    expect(requests.filter((line) => line.endsWith("/not-a-uuid"))).toEqual([
      "30 404 /api/dashboards/not-a-uuid",
    ]);
    expect(lines.some((line) => line.msg === "incoming request")).toBe(false);
  });
});

describe("graceful shutdown", () => {
  it("finishes in-flight requests, then refuses new ones and closes", async () => {
    const built = await buildApp(testConfig());
    await built.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = built.app.server.address() as { port: number };
    const user = await signedInClient(built.app, "Stopper");
    const arrived = once(built.app.server, "request");
    const inFlight = fetch(`http://127.0.0.1:${port}/api/dashboards`, { headers: { cookie: user.cookie! } });
    await arrived;
    const closing = built.close();
    const res = await inFlight;
    expect(res.status).toBe(200);
    await closing;
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    expect(built.app.server.listening).toBe(false);
  });
});
