import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeExchange, startFakeExchange } from "../../../../test/fakes/exchange.js";
import { signedInClient, type TestClient } from "../../../../test/support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../../../../test/support/modes.js";
import { watchReminders } from "../../../../test/support/reminders.js";
import { watchPassOn } from "../../../../test/support/watch-pass.js";
import type { Notification } from "../../../contract/resources.js";
import type { BuiltApp } from "../../../server/app.js";
import { requestWatchPass } from "../../../server/jobs/watch/pass.js";
import { priceAlertWatcher } from "./price-alerts.js";

/** Past the prices' freshness window (15 s): the next pass reads the exchange again. */
const STALE_MS = 16_000;

const cryptoWidget = async (client: TestClient, alerts: unknown[]) =>
  (await client.addWidget("Crypto", { pairs: ["BTC-USD"], timeframe: "1h", alerts }, "Markets")).widgetId;

for (const mode of MODES) {
  describe(`price alerts (${mode})`, () => {
    let env: ModeEnv;
    let fake: FakeExchange;
    let built: BuiltApp;
    const time = { offset: 0 };

    beforeAll(async () => {
      env = await prepareMode(mode);
      fake = await startFakeExchange({ prices: { "BTC-USD": 100, "ETH-USD": 50 } });
      built = await env.start({ exchange: fake.exchange }, { clock: () => Date.now() + time.offset });
    });
    afterAll(async () => {
      await env.teardown();
      await fake.close();
    });

    /** One pass, as the queue's job runs it, after the market moved to `prices`. */
    async function passAt(prices: Record<string, number>) {
      await fake.configure({ prices });
      time.offset += STALE_MS;
      return watchPassOn(built, [priceAlertWatcher(built.ctx.market)]);
    }

    it("fires once per crossing, re-arms after crossing back, and says what happened", async () => {
      const client = await signedInClient(built.app);
      const events = await watchReminders(built, client.user!.id);
      await cryptoWidget(client, [
        { id: "up", pair: "BTC-USD", direction: "above", price: 150 },
        { id: "down", pair: "ETH-USD", direction: "below", price: 40 },
      ]);
      const fired = async (prices: Record<string, number>) =>
        (await passAt(prices)).fired.filter((n) => n.userId === client.user!.id).map((n) => n.message);

      expect(await fired({ "BTC-USD": 100, "ETH-USD": 50 })).toEqual([]);
      expect(await fired({ "BTC-USD": 160, "ETH-USD": 50 })).toEqual(["BTC-USD is above 150 USD (now 160)"]);
      // Still above: nothing new.
      expect(await fired({ "BTC-USD": 170, "ETH-USD": 45 })).toEqual([]);
      // Back below re-arms; the next crossing fires again. ETH falls through its line.
      expect(await fired({ "BTC-USD": 140, "ETH-USD": 39.5 })).toEqual([
        "ETH-USD is below 40 USD (now 39.5)",
      ]);
      expect(await fired({ "BTC-USD": 150, "ETH-USD": 39 })).toEqual(["BTC-USD is above 150 USD (now 150)"]);

      // The same three notifications reached the user's stream and list.
      await events.until(3);
      const list = (await client.get("/api/notifications")).body as Notification[];
      expect(
        list
          .filter((n) => n.type === "reminder")
          .map((n) => n.message)
          .sort(),
      ).toEqual(
        [
          "BTC-USD is above 150 USD (now 150)",
          "BTC-USD is above 150 USD (now 160)",
          "ETH-USD is below 40 USD (now 39.5)",
        ].sort(),
      );
      await events.stop();
    });

    it("reads each pair once per freshness window, however many widgets follow it", async () => {
      const clients = await Promise.all(["Bo", "Cy", "Di"].map((name) => signedInClient(built.app, name)));
      for (const client of clients)
        await cryptoWidget(client, [{ id: "x", pair: "BTC-USD", direction: "above", price: 1_000 }]);
      await fake.reset();
      await passAt({ "BTC-USD": 100 });
      const btc = (await fake.requests()).filter((r) => r.url.startsWith("/products/BTC-USD/"));
      // The widget's 1h timeframe is one page of candles: one request for every widget together.
      expect(btc).toHaveLength(1);
    });

    it("an edited alert starts over, and a removed one is forgotten", async () => {
      const client = await signedInClient(built.app, "Eve");
      const widgetId = await cryptoWidget(client, [
        { id: "e", pair: "BTC-USD", direction: "above", price: 150 },
      ]);
      const mine = async (prices: Record<string, number>) =>
        (await passAt(prices)).fired.filter((n) => n.userId === client.user!.id).map((n) => n.message);
      expect(await mine({ "BTC-USD": 100 })).toEqual([]);
      const edit = (alerts: unknown[]) =>
        client.put("/api/widgets", { id: widgetId, config: { pairs: ["BTC-USD"], timeframe: "1h", alerts } });
      expect((await edit([{ id: "e", pair: "BTC-USD", direction: "above", price: 90 }])).status).toBe(200);
      // The new line is already below the price: no alert until a real crossing.
      expect(await mine({ "BTC-USD": 100 })).toEqual([]);
      expect(await mine({ "BTC-USD": 80 })).toEqual([]);
      expect(await mine({ "BTC-USD": 95 })).toEqual(["BTC-USD is above 90 USD (now 95)"]);
      expect((await edit([])).status).toBe(200);
      expect(await mine({ "BTC-USD": 80 })).toEqual([]);
      expect(await mine({ "BTC-USD": 200 })).toEqual([]);
    });

    it("refuses malformed alerts with 400 and writes nothing", async () => {
      const client = await signedInClient(built.app, "Fay");
      const dashboard = await client.post("/api/dashboards", { name: "Bad" });
      const res = await client.post("/api/widgets", {
        dashboardId: dashboard.body.id,
        widgetType: "Crypto",
        height: 300,
        width: 300,
        positionX: 0,
        positionY: 0,
        config: {
          pairs: ["BTC-USD"],
          alerts: [{ id: "z", pair: "BTC-USD", direction: "sideways", price: -1 }],
        },
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        { path: "/config/alerts/0/direction", message: "must be one of: above, below" },
        { path: "/config/alerts/0/price", message: "must be a positive number" },
      ]);
      expect((await client.get(`/api/widgets?dashboardId=${dashboard.body.id}`)).body).toEqual([]);
    });

    if (mode !== "embedded") {
      it("three instances asking for a pass at once run it once, through the queue", async () => {
        const client = await signedInClient(built.app, "Gus");
        const events = await watchReminders(built, client.user!.id);
        await cryptoWidget(client, [{ id: "g", pair: "BTC-USD", direction: "above", price: 5_000 }]);
        await passAt({ "BTC-USD": 100 });
        await fake.configure({ prices: { "BTC-USD": 6_000 } });
        time.offset += STALE_MS;
        const instances = [
          built,
          await env.start({ exchange: fake.exchange }),
          await env.start({ exchange: fake.exchange }),
        ];
        const queues = await Promise.all(instances.map((b) => b.ctx.jobs.ensure()));
        // All three ask within one period: pg-boss keeps one job for it. An hour-long period, and
        // never in the last seconds of one, so the three requests cannot straddle two periods.
        const PERIOD_MS = 3_600_000;
        const leftInPeriod = PERIOD_MS - (Date.now() % PERIOD_MS);
        if (leftInPeriod < 10_000) await new Promise((resolve) => setTimeout(resolve, leftInPeriod));
        const asked = await Promise.all(queues.map((q) => requestWatchPass(q, PERIOD_MS / 1000)));
        const jobIds = asked.filter((id): id is string => id !== null);
        expect(jobIds).toHaveLength(1);
        await events.until(1);
        expect(events.seen[0]!.notification.message).toBe("BTC-USD is above 5,000 USD (now 6,000)");
        // The one pass has completed: nothing else can fire for this crossing.
        const queue = queues[0]!;
        let job = await queue.boss.getJobById("watch", jobIds[0]!);
        while (job?.state !== "completed") job = await queue.boss.getJobById("watch", jobIds[0]!);
        expect(events.seen).toHaveLength(1);
        await events.stop();
      });
    }
  });
}
