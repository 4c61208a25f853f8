import { Writable } from "node:stream";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import webpush from "web-push";
import type { BuiltApp } from "../../src/server/app.js";
import type { Config } from "../../src/server/config.js";
import { loadConfig } from "../../src/server/config.js";
import { pushSubscriptions, session, vapidKeys } from "../../src/server/db/schema.js";
import type { ProblemError } from "../../src/server/http/errors.js";
import { checkSubscription } from "../../src/server/push/subscriptions.js";
import { parseAllowList } from "../../src/server/upstream/address-guard.js";
import { FakePushService, type FakeSubscription } from "../fakes/push-service.js";
import { TestClient as Client, signedInClient, type TestClient } from "../support/client.js";
import { MODES, type ModeEnv, type ModeName, prepareMode } from "../support/modes.js";
import { registerSecret } from "../support/secrets.js";

const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

/** Waits for a condition the app reaches on its own (a row deleted); checks every 50 ms. */
async function until(what: string, check: () => Promise<boolean>, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The fake's subscription with its secrets registered: any response carrying them fails. */
function browser(fake: FakePushService): FakeSubscription {
  const sub = fake.subscribe();
  registerSecret(sub.json.keys.p256dh);
  registerSecret(sub.json.keys.auth);
  registerSecret(new URL(sub.json.endpoint).pathname);
  return sub;
}

async function subscribe(client: TestClient, sub: FakeSubscription) {
  const res = await client.post("/api/push/subscriptions", sub.json);
  expect(res.status, res.text).toBe(201);
  return res;
}

for (const mode of MODES as ModeName[]) {
  describe(`Web Push (${mode})`, () => {
    let env: ModeEnv;
    let built: BuiltApp;
    let fake: FakePushService;
    let publicKey: string;
    const logs: string[] = [];
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        logs.push(String(chunk));
        done();
      },
    });
    const overrides = (config: Config): Partial<Config> => ({
      logLevel: "info",
      // The fake push service listens on plain http on loopback; browsers give https endpoints.
      push: { ...config.push, allowInsecureEndpoints: true },
      upstream: { ...config.upstream, allowPrivate: ["127.0.0.1"] },
      rateLimits: { ...config.rateLimits, pushTestsPerHour: 3 },
    });

    beforeAll(async () => {
      env = await prepareMode(mode);
      fake = await FakePushService.start();
      built = await env.start(overrides(env.config()), { logStream });
      // Embedded starts the queue at the first write that needs it, and a write retried after a
      // countdown's target has passed schedules nothing; these tests are about push, not that.
      await built.ctx.jobs.ensure();
      const key = await new Client(built.app).get("/api/push/key");
      expect(key.status).toBe(401);
      const client = await signedInClient(built.app);
      publicKey = (await client.get("/api/push/key")).body.publicKey;
      fake.expectVapidKey(publicKey);
      const [row] = await built.ctx.database.db.select().from(vapidKeys);
      registerSecret(built.ctx.cipher.decrypt(row!.privateKey));
    });
    afterAll(async () => {
      await env.teardown();
      await fake.close();
      // Endpoints are capability URLs and the keys are secrets: neither is ever logged.
      const text = logs.join("");
      expect(text).not.toMatch(/\/wpush\/v2\//);
      expect(text).not.toMatch(/p256dh|"auth":/);
      expect(fake.refusals).toEqual([]);
    });

    it("serves one VAPID public key, generated once and kept encrypted in the database", async () => {
      expect(Buffer.from(publicKey, "base64url")).toHaveLength(65);
      const rows = await built.ctx.database.db.select().from(vapidKeys);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.publicKey).toBe(publicKey);
      expect(rows[0]!.privateKey).toMatch(/^enc:v1:/);
      if (mode !== "embedded") {
        // A second instance on the same database signs with the same pair.
        const other = await env.start(overrides(env.config()), { logStream });
        const client = await signedInClient(other.app, "Other");
        expect((await client.get("/api/push/key")).body.publicKey).toBe(publicKey);
      }
    });

    it("refuses malformed subscriptions with 400 and writes nothing", async () => {
      const client = await signedInClient(built.app);
      const good = browser(fake).json;
      const key65 = Buffer.alloc(65, 4).toString("base64url");
      const bad: unknown[] = [
        {},
        { endpoint: good.endpoint },
        { ...good, endpoint: "not a url" },
        { ...good, endpoint: "ftp://push.example/abc" },
        { ...good, endpoint: "http://push.example.com/abc" },
        { ...good, endpoint: "https://user:pw@push.example.com/abc" },
        { ...good, endpoint: `https://push.example.com/${"a".repeat(2100)}` },
        { ...good, endpoint: 42 },
        { ...good, keys: { p256dh: good.keys.p256dh } },
        { ...good, keys: { ...good.keys, p256dh: Buffer.alloc(64, 4).toString("base64url") } },
        { ...good, keys: { ...good.keys, p256dh: Buffer.alloc(65, 2).toString("base64url") } },
        { ...good, keys: { ...good.keys, p256dh: `${key65.slice(0, -2)}+/` } },
        { ...good, keys: { ...good.keys, auth: Buffer.alloc(15).toString("base64url") } },
        { ...good, keys: { ...good.keys, auth: Buffer.alloc(17).toString("base64url") } },
        { ...good, keys: { ...good.keys, auth: 16 } },
        { ...good, keys: "x" },
      ];
      for (const body of bad) {
        const res = await client.post("/api/push/subscriptions", body);
        expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(400);
        expect(String(res.headers["content-type"])).toMatch(/application\/problem\+json/);
      }
      expect((await client.get("/api/push/subscriptions")).body).toEqual([]);
      const rows = await built.ctx.database.db
        .select({ id: pushSubscriptions.id })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, client.user!.id));
      expect(rows).toEqual([]);
    });

    it("refuses endpoints on private, loopback and link-local addresses unless FETCH_ALLOW_PRIVATE names them", async () => {
      const client = await signedInClient(built.app);
      const good = browser(fake).json;
      const port = new URL(good.endpoint).port;
      // FETCH_ALLOW_PRIVATE is 127.0.0.1 here (the fake push service): only that address passes.
      for (const endpoint of [
        "https://127.0.0.2/wpush/abc",
        `http://[::1]:${port}/wpush/abc`,
        "https://[::1]/wpush/abc",
        "https://[::ffff:127.0.0.1]/wpush/abc",
        "https://10.1.2.3/wpush/abc",
        "https://192.168.1.20/wpush/abc",
        "https://169.254.169.254/latest/meta-data",
        "https://[fe80::1]/wpush/abc",
        "https://[fd00::1]/wpush/abc",
        "https://0.0.0.0/wpush/abc",
      ]) {
        const res = await client.post("/api/push/subscriptions", { ...good, endpoint });
        expect(res.status, endpoint).toBe(400);
        expect(res.body.code, endpoint).toBe("address_not_allowed");
        expect(res.body.detail, endpoint).toMatch(/FETCH_ALLOW_PRIVATE/);
      }
      expect((await client.get("/api/push/subscriptions")).body).toEqual([]);
      // The allowed address, and a name (looked up by the guard at each send, not here), pass.
      await subscribe(client, browser(fake));
      const named = await client.post("/api/push/subscriptions", {
        ...good,
        endpoint: "https://push.example.com/wpush/abc",
      });
      expect(named.status, named.text).toBe(201);
      expect((await client.get("/api/push/subscriptions")).body).toHaveLength(2);
    });

    it("lets a user manage only their own subscriptions; API keys cannot", async () => {
      const ada = await signedInClient(built.app, "Ada");
      const bob = await signedInClient(built.app, "Bob");
      const sub = browser(fake);
      const created = await subscribe(ada, sub);
      expect(created.body).toMatchObject({ service: fake.origin });
      expect(created.text).not.toContain(sub.json.keys.auth);
      const again = await ada.post("/api/push/subscriptions", sub.json);
      expect(again.status).toBe(200);
      expect(again.body.id).toBe(created.body.id);
      const endpoint = encodeURIComponent(sub.json.endpoint);
      expect((await bob.delete(`/api/push/subscriptions?endpoint=${endpoint}`)).status).toBe(404);
      expect((await ada.get("/api/push/subscriptions")).body).toHaveLength(1);
      // The same browser profile now signed in as Bob: the subscription is his.
      expect((await bob.post("/api/push/subscriptions", sub.json)).status).toBe(200);
      expect((await ada.get("/api/push/subscriptions")).body).toEqual([]);
      expect((await bob.get("/api/push/subscriptions")).body).toHaveLength(1);
      expect((await ada.delete(`/api/push/subscriptions?endpoint=${endpoint}`)).status).toBe(404);
      expect((await bob.delete(`/api/push/subscriptions?endpoint=${endpoint}`)).status).toBe(200);
      expect((await bob.get("/api/push/subscriptions")).body).toEqual([]);

      const key = await ada.post("/api/keys", { name: "script", scopes: ["write"] });
      registerSecret(key.body.key);
      const asKey = new Client(built.app);
      const res = await asKey.post("/api/push/subscriptions", browser(fake).json, {
        authorization: `Bearer ${key.body.key}`,
        origin: "",
      });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("insufficient_scope");
    });

    it("pushes a fired countdown once to each subscribed browser, encrypted for it", async () => {
      const client = await signedInClient(built.app);
      const phone = browser(fake);
      const laptop = browser(fake);
      await subscribe(client, phone);
      await subscribe(client, laptop);
      const dashboardId = (await client.post("/api/dashboards", { name: "Push" })).body.id;
      const widget = await client.post("/api/widgets", {
        dashboardId,
        widgetType: "Countdown",
        height: 100,
        width: 100,
        positionX: 0,
        positionY: 0,
        config: { title: "Tea", emoji: "🍵", target: inMs(2000), notify: true },
      });
      expect(widget.status, widget.text).toBe(201);
      const [one] = await phone.until(1);
      const [two] = await laptop.until(1);
      for (const text of [one, two]) {
        const message = JSON.parse(text!);
        expect(message).toMatchObject({
          title: "Tessera",
          body: "🍵 Tea has ended",
          url: `/d/${dashboardId}`,
        });
        expect(message.tag).toContain(widget.body.id);
      }
      // Every push job of this alert is settled, and each browser was asked exactly once.
      await until(
        "the push jobs to complete",
        async () => (await pushJobs(built, "active", "created", "retry")) === 0,
      );
      expect(phone.attempts).toBe(1);
      expect(laptop.attempts).toBe(1);
      expect(phone.received).toHaveLength(1);
      expect(laptop.received).toHaveLength(1);
    });

    it("queues a test push to each subscription (202), retries a 500, drops a 410 subscription", async () => {
      const client = await signedInClient(built.app);
      expect((await client.post("/api/push/test")).body).toEqual({ subscriptions: 0 });
      const flaky = browser(fake);
      const gone = browser(fake);
      await subscribe(client, flaky);
      await subscribe(client, gone);
      flaky.failNext(1);
      gone.gone();
      const res = await client.post("/api/push/test");
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ subscriptions: 2 });
      const [text] = await flaky.until(1);
      expect(JSON.parse(text!)).toMatchObject({
        title: "Tessera",
        body: "Test notification: push works on this device.",
        url: "/",
      });
      expect(flaky.attempts).toBe(2);
      await until("the gone subscription to be removed", async () => {
        const rows = await built.ctx.database.db.select({ id: pushSubscriptions.id }).from(pushSubscriptions);
        return (await client.get("/api/push/subscriptions")).body.length === 1 && rows.length > 0;
      });
      expect(gone.attempts).toBe(1);
      expect(gone.received).toEqual([]);
      await until(
        "the push jobs to complete",
        async () => (await pushJobs(built, "active", "created", "retry")) === 0,
      );
      expect(flaky.received).toHaveLength(1);
    });

    it("limits test pushes per user (RATE_LIMIT_PUSH_TESTS_PER_HOUR): a refused one queues nothing", async () => {
      const client = await signedInClient(built.app);
      const device = browser(fake);
      await subscribe(client, device);
      for (let i = 0; i < 3; i++) expect((await client.post("/api/push/test")).status).toBe(202);
      const refused = await client.post("/api/push/test");
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe("rate_limited");
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      // Another user's budget is their own.
      const other = await signedInClient(built.app, "Other");
      expect((await other.post("/api/push/test")).status).toBe(202);
      await device.until(3);
      await until(
        "the push jobs to complete",
        async () => (await pushJobs(built, "active", "created", "retry")) === 0,
      );
      expect(device.received).toHaveLength(3);
    });

    it("deletes a device's subscription when that device signs out or its session is revoked", async () => {
      const phone = new Client(built.app);
      const { email, password } = await phone.signUp("Mobile");
      const laptop = new Client(built.app);
      expect((await laptop.post("/api/auth/sign-in/email", { email, password })).status).toBe(200);
      const onPhone = browser(fake);
      const onLaptop = browser(fake);
      await subscribe(phone, onPhone);
      await subscribe(laptop, onLaptop);
      const stored = async () =>
        (
          await built.ctx.database.db
            .select({ endpoint: pushSubscriptions.endpoint })
            .from(pushSubscriptions)
            .where(eq(pushSubscriptions.userId, phone.user!.id))
        ).map((row) => row.endpoint);
      expect((await stored()).sort()).toEqual([onPhone.json.endpoint, onLaptop.json.endpoint].sort());

      // Signed out from the laptop (Settings > Devices): the phone's subscription goes with it.
      const sessions = (await laptop.get("/api/sessions")).body as { id: string; current: boolean }[];
      const phoneSession = sessions.find((s) => !s.current)!;
      expect((await laptop.delete(`/api/sessions?id=${phoneSession.id}`)).status).toBe(204);
      expect(await stored()).toEqual([onLaptop.json.endpoint]);

      // The laptop signs out: nothing of this user is pushed to that browser any more.
      expect((await laptop.post("/api/auth/sign-out", {})).status).toBe(200);
      expect(await stored()).toEqual([]);
      const again = new Client(built.app);
      expect((await again.post("/api/auth/sign-in/email", { email, password })).status).toBe(200);
      expect((await again.post("/api/push/test")).body).toEqual({ subscriptions: 0 });
    });

    it("answers 401 and stores nothing when the session ended after it was cached", async () => {
      const client = await signedInClient(built.app);
      // Resolved once, so this instance's cache holds the session.
      expect((await client.get("/api/push/subscriptions")).status).toBe(200);
      // Ended behind the cache's back (as on another instance before its revocation arrives).
      await built.ctx.database.db.delete(session).where(eq(session.userId, client.user!.id));
      const res = await client.post("/api/push/subscriptions", browser(fake).json);
      expect(res.status, res.text).toBe(401);
      expect(res.body.code).toBe("unauthenticated");
      const rows = await built.ctx.database.db
        .select({ id: pushSubscriptions.id })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, client.user!.id));
      expect(rows).toEqual([]);
    });

    it("waits out a 429's Retry-After, then delivers once", async () => {
      const client = await signedInClient(built.app);
      const busy = browser(fake);
      await subscribe(client, busy);
      busy.rateLimitNext(2);
      expect((await client.post("/api/push/test")).body).toEqual({ subscriptions: 1 });
      await busy.until(1);
      expect(busy.attempts).toBe(2);
      // The second try came no sooner than the push service asked (the queue polls every 0.5 s).
      expect(busy.arrivals[1]! - busy.arrivals[0]!).toBeGreaterThanOrEqual(1900);
      expect(busy.received).toHaveLength(1);
    });
  });
}

describe("push endpoint addresses (as the delivery's address guard judges them)", () => {
  const keys = {
    p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString("base64url"),
    auth: Buffer.alloc(16, 2).toString("base64url"),
  };
  const refusal = (endpoint: string, allow: string[], insecure = false) => {
    try {
      checkSubscription({ endpoint, keys }, insecure, parseAllowList(allow));
      return null;
    } catch (error) {
      return (error as ProblemError).code;
    }
  };

  it("refuses loopback, private and link-local hosts, localhost names included, unless allowed", () => {
    for (const endpoint of [
      "https://127.0.0.1/w",
      "https://localhost/w",
      "https://LOCALHOST./w",
      "https://push.localhost/w",
      "https://[::1]/w",
      "https://10.0.0.8/w",
      "https://[fe80::1]/w",
    ])
      expect(refusal(endpoint, []), endpoint).toBe("address_not_allowed");
    expect(refusal("https://fcm.googleapis.com/fcm/send/x", [])).toBeNull();
    expect(refusal("https://updates.push.services.mozilla.com/wpush/v2/x", [])).toBeNull();
    expect(refusal("https://8.8.8.8/w", [])).toBeNull();
    // FETCH_ALLOW_PRIVATE: a network, an address, a name.
    expect(refusal("https://10.0.0.8/w", ["10.0.0.0/8"])).toBeNull();
    expect(refusal("https://localhost/w", ["127.0.0.1"])).toBeNull();
    expect(refusal("http://127.0.0.1:8080/w", ["127.0.0.1"], true)).toBeNull();
    expect(refusal("https://push.lan/w", ["push.lan"])).toBeNull();
    expect(refusal("https://[::1]/w", ["127.0.0.1"])).toBe("address_not_allowed");
    // Shape problems are reported as such first.
    expect(refusal("http://10.0.0.8/w", ["10.0.0.0/8"])).toBe("validation_failed");
  });
});

describe("Web Push configuration", () => {
  const base = {
    AUTH_SECRET: "test-secret-test-secret-test-secret-0123456789",
    TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
    DATA_DIR: "/nonexistent-not-used",
  };
  it("takes both VAPID keys or neither, checked for size; subject from BASE_URL", () => {
    const keys = webpush.generateVAPIDKeys();
    expect(
      loadConfig({ ...base, VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey }).push,
    ).toMatchObject({ vapidPublicKey: keys.publicKey, vapidPrivateKey: keys.privateKey });
    expect(() => loadConfig({ ...base, VAPID_PUBLIC_KEY: keys.publicKey })).toThrow(/VAPID_PRIVATE_KEY/);
    expect(() => loadConfig({ ...base, VAPID_PRIVATE_KEY: keys.privateKey })).toThrow(/VAPID_PUBLIC_KEY/);
    expect(() =>
      loadConfig({ ...base, VAPID_PUBLIC_KEY: keys.privateKey, VAPID_PRIVATE_KEY: keys.privateKey }),
    ).toThrow(/VAPID_PUBLIC_KEY: must be a 65-byte/);
    expect(loadConfig({ ...base, BASE_URL: "https://dash.example.com" }).push.vapidSubject).toBe(
      "https://dash.example.com",
    );
    expect(loadConfig({ ...base, BASE_URL: "http://nas.lan:3000" }).push.vapidSubject).toBe(
      "mailto:push@nas.lan",
    );
    expect(() => loadConfig({ ...base, VAPID_SUBJECT: "http://x.example" })).toThrow(/VAPID_SUBJECT/);
    expect(loadConfig(base).push.allowInsecureEndpoints).toBe(false);
    expect(loadConfig(base).rateLimits.pushTestsPerHour).toBe(10);
    expect(loadConfig({ ...base, RATE_LIMIT_PUSH_TESTS_PER_HOUR: "3" }).rateLimits.pushTestsPerHour).toBe(3);
    for (const bad of ["0", "-1", "x"])
      expect(() => loadConfig({ ...base, RATE_LIMIT_PUSH_TESTS_PER_HOUR: bad })).toThrow(
        /RATE_LIMIT_PUSH_TESTS_PER_HOUR/,
      );
  });

  it("signs with the operator's keys when they are set", async () => {
    const env = await prepareMode("embedded");
    try {
      const keys = webpush.generateVAPIDKeys();
      registerSecret(keys.privateKey);
      const config = env.config();
      const built = await env.start({
        push: { ...config.push, vapidPublicKey: keys.publicKey, vapidPrivateKey: keys.privateKey },
      });
      const client = await signedInClient(built.app);
      expect((await client.get("/api/push/key")).body).toEqual({ publicKey: keys.publicKey });
      expect(await built.ctx.database.db.select().from(vapidKeys)).toEqual([]);
    } finally {
      await env.teardown();
    }
  });
});

/** Push jobs in the given states, from pg-boss's table. */
async function pushJobs(built: BuiltApp, ...states: string[]) {
  const result = (await built.ctx.database.db.execute(
    sql`select count(*)::int as count from pgboss.job where name = 'push' and state::text in (${sql.join(
      states.map((s) => sql`${s}`),
      sql`, `,
    )})`,
  )) as unknown as { rows: { count: number }[] };
  return result.rows[0]!.count;
}
