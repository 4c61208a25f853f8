import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeExchange, startFakeExchange } from "../../../../test/fakes/exchange.js";
import { signedInClient, TestClient } from "../../../../test/support/client.js";
import { upstreamConfig } from "../../../../test/support/config.js";
import { MODES, type ModeEnv, prepareMode } from "../../../../test/support/modes.js";
import { watchReminders } from "../../../../test/support/reminders.js";
import { watchPassOn } from "../../../../test/support/watch-pass.js";
import type { BuiltApp } from "../../../server/app.js";
import { priceAlertWatcher } from "../../crypto/server/price-alerts.js";
import { type HangingSite, type StatusSite, startHangingSite, startStatusSite } from "../fake.js";
import { PER_USER, statusCheckWatcher } from "./checks.js";

const statusWidget = (client: TestClient, config: unknown) => client.addWidget("Status", config, "Homelab");

/** One pass, as the queue's job runs it; answers the messages fired for `userId`. */
async function pass(built: BuiltApp, userId: string) {
  const { fired } = await watchPassOn(built, [statusCheckWatcher(built.ctx.upstream)]);
  return fired.filter((n) => n.userId === userId).map((n) => n.message);
}

interface Row {
  name: string;
  state: {
    up: boolean;
    httpStatus: number | null;
    latencyMs: number | null;
    changedAt: string;
    error?: { code: string; message: string };
  } | null;
}

for (const mode of MODES) {
  describe(`Status widget (${mode})`, () => {
    let env: ModeEnv;
    let built: BuiltApp;
    let guarded: BuiltApp;
    let ok: StatusSite;
    let failing: StatusSite;
    let flaky: StatusSite;
    let noHead: StatusSite;
    let client: TestClient;

    beforeAll(async () => {
      [ok, failing, flaky, noHead] = await Promise.all([
        startStatusSite(200),
        startStatusSite(503),
        startStatusSite(204),
        startStatusSite(200, { refuseHead: true }),
      ]);
      env = await prepareMode(mode);
      // The sites live on loopback, which only the operator's allow-list opens.
      built = await env.start({ upstream: upstreamConfig({ allowPrivate: ["127.0.0.1"] }) });
      guarded = await env.start({ upstream: upstreamConfig({ allowPrivate: [] }) });
      client = await signedInClient(built.app, "Admin");
    });
    afterAll(async () => {
      await env.teardown();
      await Promise.all([ok, failing, flaky, noHead].map((site) => site.stop()));
    });

    it("records up, down and latency; a change notifies once, never the first check", async () => {
      const userId = client.user!.id;
      const { widgetId } = await statusWidget(client, {
        notify: true,
        checks: [
          { id: "ok", name: "Jellyfin", url: ok.url },
          { id: "bad", name: "Proxy", url: failing.url },
          { id: "flaky", name: "NAS", url: flaky.url },
        ],
      });
      // A second widget listing the same address: still one request per pass.
      await statusWidget(client, { checks: [{ id: "again", url: ok.url }] });
      const states = async () => (await client.get(`/api/status?widgetId=${widgetId}`)).body as Row[];

      expect((await states()).map((r) => r.state)).toEqual([null, null, null]);
      const okBefore = ok.requests.length;
      expect(await pass(built, userId)).toEqual([]);
      expect(ok.requests.slice(okBefore)).toEqual(["HEAD /"]);
      const [up, down, nas] = await states();
      expect(up).toMatchObject({ name: "Jellyfin", state: { up: true, httpStatus: 200 } });
      expect(up!.state!.latencyMs).toBeGreaterThanOrEqual(0);
      expect(down).toMatchObject({ name: "Proxy", state: { up: false, httpStatus: 503 } });
      expect(nas!.state).toMatchObject({ up: true, httpStatus: 204 });
      const firstChange = nas!.state!.changedAt;

      await flaky.stop();
      expect(await pass(built, userId)).toEqual(["NAS is down (unreachable)"]);
      expect(await pass(built, userId)).toEqual([]);
      const stillDown = (await states())[2]!.state!;
      expect(stillDown).toMatchObject({
        up: false,
        httpStatus: null,
        latencyMs: null,
        error: { code: "unreachable" },
      });
      expect(stillDown.changedAt).not.toBe(firstChange);

      await flaky.start();
      failing.status = 502;
      expect(await pass(built, userId)).toEqual(["NAS is back up"]);
      failing.status = 200;
      expect(await pass(built, userId)).toEqual(["Proxy is back up"]);
      failing.status = 502;
      expect(await pass(built, userId)).toEqual(["Proxy is down (HTTP 502)"]);
      failing.status = 503;
    });

    it("stays quiet without notify, and falls back to GET when HEAD is refused", async () => {
      const userId = client.user!.id;
      const { widgetId } = await statusWidget(client, { checks: [{ id: "t", url: noHead.url }] });
      await pass(built, userId);
      expect(noHead.requests.slice(-2)).toEqual(["HEAD /", "GET /"]);
      const [row] = (await client.get(`/api/status?widgetId=${widgetId}`)).body as Row[];
      expect(row).toMatchObject({
        name: `127.0.0.1:${new URL(noHead.url).port}`,
        state: { up: true, httpStatus: 200 },
      });
      noHead.status = 500;
      expect(await pass(built, userId)).toEqual([]);
      noHead.status = 200;
    });

    it("judges each check by its expectStatus when it has one (one request for both)", async () => {
      const userId = client.user!.id;
      const { widgetId } = await statusWidget(client, {
        checks: [
          { id: "want200", name: "Strict", url: ok.url, expectStatus: 200 },
          { id: "want204", name: "Picky", url: ok.url, expectStatus: 204 },
        ],
      });
      await pass(built, userId);
      const rows = (await client.get(`/api/status?widgetId=${widgetId}`)).body as Row[];
      expect(rows.map((r) => [r.name, r.state?.up, r.state?.httpStatus])).toEqual([
        ["Strict", true, 200],
        ["Picky", false, 200],
      ]);
    });

    it("answers only the owner: other users and unknown ids get 404, visitors 401", async () => {
      const { widgetId } = await statusWidget(client, { checks: [{ id: "t", url: ok.url }] });
      const other = await signedInClient(built.app, "Eve");
      const res = await other.get(`/api/status?widgetId=${widgetId}`);
      expect(res.status).toBe(404);
      expect(res.headers["content-type"]).toContain("application/problem+json");
      expect((await client.get("/api/status?widgetId=00000000-0000-4000-8000-000000000000")).status).toBe(
        404,
      );
      expect((await client.get("/api/status?widgetId=nope")).status).toBe(400);
      expect((await new TestClient(built.app).get(`/api/status?widgetId=${widgetId}`)).status).toBe(401);
    });

    it("refuses a notify that is not boolean", async () => {
      const dashboard = await client.post("/api/dashboards", { name: "Bad" });
      const res = await client.post("/api/widgets", {
        dashboardId: dashboard.body.id,
        widgetType: "Status",
        height: 300,
        width: 300,
        positionX: 0,
        positionY: 0,
        config: { checks: [], notify: "yes" },
      });
      expect(res.status).toBe(400);
    });

    it("shows a public dashboard's Status widget to visitors, read-only", async () => {
      const { dashboardId, widgetId } = await statusWidget(client, {
        checks: [{ id: "t", name: "Site", url: ok.url }],
      });
      await pass(built, client.user!.id);
      const path = `/api/public/dashboards/${dashboardId}/widgets/${widgetId}/status`;
      const visitor = new TestClient(built.app);
      expect((await visitor.get(path)).status).toBe(404);
      await client.put("/api/dashboards", { id: dashboardId, name: "Homelab", isPublic: true });
      const res = await visitor.get(path);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject([{ name: "Site", url: ok.url, state: { up: true, httpStatus: 200 } }]);
    });

    it("without the allow-list, records a loopback target as not allowed and sends it nothing", async () => {
      const owner = await signedInClient(guarded.app, "Guarded");
      const { widgetId } = await statusWidget(owner, {
        notify: true,
        checks: [
          { id: "t", name: "Local", url: ok.url },
          { id: "m", name: "Metadata", url: "http://169.254.169.254/latest/meta-data" },
        ],
      });
      const before = ok.requests.length;
      expect(await pass(guarded, owner.user!.id)).toEqual([]);
      expect(await pass(guarded, owner.user!.id)).toEqual([]);
      expect(ok.requests.length).toBe(before);
      const rows = (await owner.get(`/api/status?widgetId=${widgetId}`)).body as Row[];
      for (const row of rows) {
        expect(row.state).toMatchObject({
          up: false,
          httpStatus: null,
          error: { code: "address_not_allowed" },
        });
        expect(row.state!.error!.message).toContain("FETCH_ALLOW_PRIVATE");
      }
    });
  });
}

/** Past the prices' freshness window (15 s): the next pass reads the exchange again. */
const STALE_MS = 16_000;

const cryptoWidget = (client: TestClient, alerts: unknown[]) =>
  client.addWidget("Crypto", { pairs: ["BTC-USD"], timeframe: "1h", alerts }, "Markets");

/** `count` targets on `site`, twenty to a widget (the most one holds). */
async function manyTargets(client: TestClient, site: HangingSite, prefix: string, count: number) {
  for (let first = 0; first < count; first += 20) {
    const checks = Array.from({ length: Math.min(20, count - first) }, (_, i) => ({
      id: `${prefix}${first + i}`,
      url: `${site.url}${prefix}${first + i}`,
    }));
    await statusWidget(client, { notify: true, checks });
  }
}

for (const mode of MODES) {
  describe(`Status checks under a slow-target attack (${mode})`, () => {
    let env: ModeEnv;
    let built: BuiltApp;
    let fast: StatusSite;
    let exchange: FakeExchange;
    const time = { offset: 0 };
    const sites: HangingSite[] = [];
    const hanging = async () => {
      const site = await startHangingSite();
      sites.push(site);
      return site;
    };

    beforeAll(async () => {
      [fast, exchange] = await Promise.all([
        startStatusSite(200),
        startFakeExchange({ prices: { "BTC-USD": 100 } }),
      ]);
      env = await prepareMode(mode);
      built = await env.start(
        {
          exchange: exchange.exchange,
          // A check's own limit (10 s) applies, not the test default's 5 s upstream timeout.
          upstream: upstreamConfig({ allowPrivate: ["127.0.0.1"], timeoutMs: 30_000 }),
        },
        { clock: () => Date.now() + time.offset },
      );
    });
    afterAll(async () => {
      for (const site of sites) site.release();
      await env.teardown();
      await Promise.all([fast.stop(), exchange.close(), ...sites.map((site) => site.stop())]);
    });

    it("one user's never-answering targets hold up neither another user's check nor their price alert", async () => {
      const slow = await hanging();
      const [attacker, bea] = [
        await signedInClient(built.app, "Attacker"),
        await signedInClient(built.app, "Bea"),
      ];
      const { widgetId } = await statusWidget(bea, {
        notify: true,
        checks: [{ id: "blog", name: "Blog", url: fast.url }],
      });
      await cryptoWidget(bea, [{ id: "up", pair: "BTC-USD", direction: "above", price: 150 }]);
      const watchers = [priceAlertWatcher(built.ctx.market), statusCheckWatcher(built.ctx.upstream)];
      // Bea's first pass: the blog is up, the alert armed below its line.
      expect((await watchPassOn(built, watchers)).fired).toEqual([]);

      await manyTargets(attacker, slow, "a", 60);
      fast.status = 503;
      await exchange.configure({ prices: { "BTC-USD": 160 } });
      time.offset += STALE_MS;
      const events = await watchReminders(built, bea.user!.id);
      let passEnded = false;
      const passing = watchPassOn(built, watchers).finally(() => {
        passEnded = true;
      });
      try {
        await slow.received(PER_USER);
        await events.until(2);
        // Bea's change and alert are out while the attacker's checks still hang: she did not wait for them.
        expect(events.seen.map((e) => e.notification.message).sort()).toEqual([
          "BTC-USD is above 150 USD (now 160)",
          "Blog is down (HTTP 503)",
        ]);
        const [row] = (await bea.get(`/api/status?widgetId=${widgetId}`)).body as Row[];
        expect(row!.state).toMatchObject({ up: false, httpStatus: 503 });
        expect(passEnded).toBe(false);
        expect(slow.held).toBe(PER_USER);
      } finally {
        slow.release();
        await events.stop();
      }
      await passing;
      // The attacker never had more than their share of the pass's slots at once.
      expect(slow.mostHeld).toBeLessThanOrEqual(PER_USER);
      fast.status = 200;
    });

    it("keeps a pass within its budget: a user's slow targets wait their turn for the next pass", async () => {
      const slow = await hanging();
      const [attacker, bea] = [
        await signedInClient(built.app, "Attacker2"),
        await signedInClient(built.app, "Bea2"),
      ];
      await manyTargets(attacker, slow, "b", 20);
      const { widgetId } = await statusWidget(bea, { checks: [{ id: "blog", url: fast.url }] });
      const watchers = [statusCheckWatcher(built.ctx.upstream)];
      // A 2 s pass: each check waits 1 s at most, and one user's checks take 2 s in all.
      await watchPassOn(built, watchers, { passBudgetMs: 2_000 });
      // Four at once, each given up after 1 s: the user's 2 s are spent, the other sixteen wait.
      const mine = () => slow.requests.filter((r) => r.startsWith("HEAD /b"));
      expect(mine().sort()).toEqual(["HEAD /b0", "HEAD /b1", "HEAD /b2", "HEAD /b3"]);
      const [row] = (await bea.get(`/api/status?widgetId=${widgetId}`)).body as Row[];
      expect(row!.state).toMatchObject({ up: true, httpStatus: 200 });
      // The next pass starts with the targets never checked.
      time.offset += 30_000;
      await watchPassOn(built, watchers, { passBudgetMs: 2_000 });
      expect(mine().slice(4).sort()).toEqual(["HEAD /b4", "HEAD /b5", "HEAD /b6", "HEAD /b7"]);
    });

    it("checks a target that keeps timing out less and less often, and at once after it answers", async () => {
      const slow = await hanging();
      const owner = await signedInClient(built.app, "Owner");
      const { widgetId } = await statusWidget(owner, {
        notify: true,
        checks: [{ id: "nas", name: "NAS", url: `${slow.url}nas` }],
      });
      const watchers = [statusCheckWatcher(built.ctx.upstream)];
      // A 600 ms pass: each check waits 300 ms at most.
      const pass = async (advanceMs: number) => {
        time.offset += advanceMs;
        const { fired } = await watchPassOn(built, watchers, { passBudgetMs: 600 });
        return fired.filter((n) => n.userId === owner.user!.id).map((n) => n.message);
      };
      const asked = () => slow.requests.filter((r) => r === "HEAD /nas").length;
      await pass(0);
      await pass(30_000);
      expect(asked()).toBe(2);
      const [row] = (await owner.get(`/api/status?widgetId=${widgetId}`)).body as Row[];
      expect(row!.state).toMatchObject({ up: false, error: { code: "timeout" } });
      expect(row!.state).not.toHaveProperty("timeouts");
      // Two timeouts in a row: not again for a minute after the last.
      await pass(30_000);
      expect(asked()).toBe(2);
      await pass(31_000);
      expect(asked()).toBe(3);
      // Three: two minutes.
      await pass(100_000);
      expect(asked()).toBe(3);
      slow.release();
      expect(await pass(21_000)).toEqual(["NAS is back up"]);
      expect(asked()).toBe(4);
      await pass(1_000);
      expect(asked()).toBe(5);
    });
  });
}
