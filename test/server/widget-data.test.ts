import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { RSS } from "../../src/widgets/feed/fake.js";
import { FakeWeather } from "../../src/widgets/weather/fake.js";
import { type FakeExchange, startFakeExchange } from "../fakes/exchange.js";
import { FakeServer } from "../fakes/oauth-http.js";
import { signedInClient, TestClient } from "../support/client.js";
import { upstreamConfig } from "../support/config.js";
import { type ModeEnv, prepareMode } from "../support/modes.js";

/**
 * GET /api/widgets/data and its public twin (DESIGN section 15): the outside data of any widget,
 * built from its stored config only, to whoever may read its dashboard, with how old it is.
 */
describe("widget data", () => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let exchange: FakeExchange;
  let weather: FakeWeather;
  let blog: FakeServer;
  let blogDown = false;
  let owner: TestClient;
  let stranger: TestClient;
  let dashboardId: string;
  const time = { now: Date.parse("2026-11-28T10:00:00.000Z") };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    mode = await prepareMode("embedded");
    exchange = await startFakeExchange();
    weather = await FakeWeather.start();
    blog = await FakeServer.start((req) =>
      blogDown || req.path !== "/rss.xml"
        ? { status: 503, text: "down" }
        : { status: 200, text: RSS, headers: { "content-type": "application/rss+xml" } },
    );
    built = await mode.start(
      {
        exchange: exchange.exchange,
        weatherApiUrl: weather.url,
        geocodingApiUrl: weather.url,
        upstream: upstreamConfig({ allowPrivate: ["127.0.0.1/32"] }),
      },
      { clock: () => time.now },
    );
    owner = await signedInClient(built.app, "Reader");
    stranger = await signedInClient(built.app, "Stranger");
    dashboardId = (await owner.post("/api/dashboards", { name: "Data" })).body.id;
    const add = async (key: string, widgetType: string, config: object) => {
      ids[key] = (await place(dashboardId, widgetType, config)).body.id;
    };
    await add("crypto", "Crypto", { pairs: ["ETH-USD"], timeframe: "1h" });
    await add("weather", "Weather", { location: { name: "Home", latitude: 52.52, longitude: 13.4 } });
    await add("feed", "Feed", { feeds: [{ url: `${blog.url}/rss.xml` }] });
    await add("status", "Status", { checks: [{ id: "blog", name: "Blog", url: `${blog.url}/rss.xml` }] });
    await add("emptyFeed", "Feed", {});
    await add("clock", "Clock", {});
    await add("inbox", "Inbox", {});
  });
  afterAll(async () => {
    await mode.teardown();
    await exchange.close();
    await weather.server.close();
    await blog.close();
  });

  const place = (board: string, widgetType: string, config: object) =>
    owner.post("/api/widgets", {
      dashboardId: board,
      widgetType,
      height: 200,
      width: 200,
      positionX: 0,
      positionY: 0,
      config,
    });
  const data = (client: TestClient, key: string) => client.get(`/api/widgets/data?id=${ids[key]}`);

  it("answers each data widget's own data, built from its stored config, with when it was fetched", async () => {
    const crypto = await data(owner, "crypto");
    expect(crypto.status).toBe(200);
    expect(crypto.body.data.map((p: { pair: string }) => p.pair)).toEqual(["ETH-USD"]);
    expect(crypto.body.data[0].timeframe).toBe("1h");
    expect(crypto.body).toMatchObject({ fetchedAt: new Date(time.now).toISOString(), stale: false });

    const forecast = await data(owner, "weather");
    expect(forecast.status).toBe(200);
    expect(forecast.body.data.current).toBeDefined();

    const feed = await data(owner, "feed");
    expect(feed.status).toBe(200);
    expect(feed.body.data[0].url).toBe(`${blog.url}/rss.xml`);
    expect(feed.body.data[0].items.length).toBeGreaterThan(0);

    // Status data is kept here by the watch pass: no upstream answer behind it, so it is as of now.
    const status = await data(owner, "status");
    expect(status.status).toBe(200);
    expect(status.body.data.map((t: { id: string }) => t.id)).toEqual(["blog"]);
    expect(status.body).toMatchObject({ fetchedAt: new Date(time.now).toISOString(), stale: false });
  });

  it("says an answer is stale, and how old, when the upstream fails and an older copy stands in", async () => {
    const fetchedAt = new Date(time.now).toISOString();
    expect((await data(owner, "feed")).body).toMatchObject({ fetchedAt, stale: false });
    blogDown = true;
    try {
      // Past the feed's freshness window (CACHE_FEED_SECONDS, 900 s): asked again, and it fails.
      time.now += 901_000;
      const stale = await data(owner, "feed");
      expect(stale.status).toBe(200);
      expect(stale.body).toMatchObject({ fetchedAt, stale: true });
      expect(stale.body.data[0].items.length).toBeGreaterThan(0);
    } finally {
      blogDown = false;
    }
  });

  it("is 404 for another user's widget, a widget without outside data, and a config that asks for nothing", async () => {
    const theirs = await data(stranger, "crypto");
    expect(theirs.status).toBe(404);
    expect(theirs.headers["content-type"]).toMatch(/^application\/problem\+json/);
    const clock = await data(owner, "clock");
    expect(clock.status).toBe(404);
    expect(clock.body.detail).toContain("Clock");
    expect((await data(owner, "emptyFeed")).status).toBe(404);
    expect((await owner.get("/api/widgets/data?id=not-a-uuid")).status).toBe(400);
    expect((await owner.get("/api/widgets/data")).status).toBe(400);
    expect((await new TestClient(built.app).get(`/api/widgets/data?id=${ids.crypto}`)).status).toBe(401);
  });

  it("serves visitors of a public dashboard the same data, and nothing of a private widget or board", async () => {
    const visitor = new TestClient(built.app);
    const publicData = (key: string) =>
      visitor.get(`/api/public/dashboards/${dashboardId}/widgets/${ids[key]}/data`);
    expect((await publicData("crypto")).status).toBe(404);

    await owner.put("/api/dashboards", { id: dashboardId, name: "Data", isPublic: true });
    try {
      const crypto = await publicData("crypto");
      expect(crypto.status).toBe(200);
      expect(crypto.body.data.map((p: { pair: string }) => p.pair)).toEqual(["ETH-USD"]);
      expect(typeof crypto.body.stale).toBe("boolean");
      expect((await publicData("weather")).body.data.current).toBeDefined();
      // Private types (the owner's accounts) and types without outside data are not there.
      expect((await publicData("inbox")).status).toBe(404);
      expect((await publicData("clock")).status).toBe(404);
      // A widget id from another dashboard is not reached through this one.
      const other = (await owner.post("/api/dashboards", { name: "Other" })).body.id;
      const elsewhere = (await place(other, "Crypto", { pairs: ["BTC-USD"] })).body.id;
      expect(
        (await visitor.get(`/api/public/dashboards/${dashboardId}/widgets/${elsewhere}/data`)).status,
      ).toBe(404);
    } finally {
      await owner.put("/api/dashboards", { id: dashboardId, name: "Data", isPublic: false });
    }
  });
});
