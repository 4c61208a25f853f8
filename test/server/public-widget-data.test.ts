import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { cryptoWidget } from "../../src/widgets/crypto/contract.js";
import { FakeWeather } from "../../src/widgets/weather/fake.js";
import { type FakeExchange, startFakeExchange } from "../fakes/exchange.js";
import { signedInClient, TestClient } from "../support/client.js";
import { type ModeEnv, prepareMode } from "../support/modes.js";

/** Live data for Crypto and Weather widgets on public dashboards, for visitors without a session. */
describe("public widget data", () => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let exchange: FakeExchange;
  let weather: FakeWeather;
  let owner: TestClient;
  let dashboardId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    mode = await prepareMode("embedded");
    exchange = await startFakeExchange();
    weather = await FakeWeather.start();
    built = await mode.start({
      exchange: exchange.exchange,
      weatherApiUrl: weather.url,
      geocodingApiUrl: weather.url,
    });
    owner = await signedInClient(built.app, "Sharer");
    dashboardId = (await owner.post("/api/dashboards", { name: "Public data" })).body.id;
    const add = async (key: string, widgetType: string, config: object) => {
      const res = await owner.post("/api/widgets", {
        dashboardId,
        widgetType,
        height: 200,
        width: 200,
        positionX: 0,
        positionY: 0,
        config,
      });
      ids[key] = res.body.id;
    };
    await add("crypto", "Crypto", { pairs: ["ETH-USD", "not a pair", 7], timeframe: "1h" });
    await add("cryptoDefaults", "Crypto", { pairs: "BTC-USD", timeframe: "forever" });
    // The original app's key for the list, as dashboards from it still hold.
    await add("cryptoLegacy", "Crypto", { products: ["sol-usd", "ETH-EUR", "SOL-USD"], timeframe: "1w" });
    await add("cryptoNone", "Crypto", { pairs: ["not a pair"] });
    await add("weather", "Weather", {
      location: { name: "Home", latitude: 52.520008, longitude: 13.404954 },
      unit: "fahrenheit",
    });
    await add("weatherNowhere", "Weather", {});
    await add("clock", "Clock", {});
    await owner.put("/api/dashboards", { id: dashboardId, name: "Public data", isPublic: true });
  });
  afterAll(async () => {
    await mode.teardown();
    await exchange.close();
    await weather.server.close();
  });

  const url = (widget: string, kind: string) =>
    `/api/public/dashboards/${dashboardId}/widgets/${ids[widget]}/${kind}`;

  it("serves a Crypto widget's prices for its stored pairs and timeframe, ignoring invalid entries", async () => {
    const res = await new TestClient(built.app).get(url("crypto", "prices"));
    expect(res.status).toBe(200);
    expect(res.body.map((p: { pair: string }) => p.pair)).toEqual(["ETH-USD"]);
    expect(res.body[0].timeframe).toBe("1h");
    expect(res.body[0].candles).toHaveLength(60);
  });

  it("falls back to the default pairs and timeframe for a malformed config", async () => {
    const res = await new TestClient(built.app).get(url("cryptoDefaults", "prices"));
    expect(res.status).toBe(200);
    expect(res.body.map((p: { pair: string }) => p.pair)).toEqual(["BTC-USD", "ETH-USD", "SOL-USD"]);
    expect(res.body[0].timeframe).toBe("24h");
  });

  it("shows a legacy Crypto widget's pairs to visitors exactly as its owner's app reads them", async () => {
    const stored = (await owner.get(`/api/widgets?dashboardId=${dashboardId}`)).body.find(
      (w: { id: string }) => w.id === ids.cryptoLegacy,
    ).config;
    expect(stored).toEqual({ products: ["sol-usd", "ETH-EUR", "SOL-USD"], timeframe: "1w" });
    // What the owner's dashboard shows: the web app reads configs with the contract's parser.
    const ownerSees = cryptoWidget.parse(stored);
    expect(ownerSees).toEqual({ pairs: ["SOL-USD", "ETH-EUR"], timeframe: "1w" });

    const visitor = new TestClient(built.app);
    const prices = await visitor.get(url("cryptoLegacy", "prices"));
    expect(prices.status).toBe(200);
    expect(prices.body.map((p: { pair: string }) => p.pair)).toEqual(ownerSees.pairs);
    expect(prices.body.map((p: { timeframe: string }) => p.timeframe)).toEqual(["1w", "1w"]);
    const board = await visitor.get(`/api/public/dashboards/${dashboardId}`);
    const shown = board.body.widgets.find((w: { id: string }) => w.id === ids.cryptoLegacy);
    expect(shown.config).toEqual(ownerSees);
  });

  it("answers 404 for a Crypto widget following no pair, as its owner's widget asks for none", async () => {
    const before = (await exchange.requests()).length;
    const res = await new TestClient(built.app).get(url("cryptoNone", "prices"));
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("not_found");
    expect((await exchange.requests()).length).toBe(before);
  });

  it("serves a Weather widget's forecast at its coarse location and unit", async () => {
    const res = await new TestClient(built.app).get(url("weather", "weather"));
    expect(res.status).toBe(200);
    expect(res.body.unit).toBe("fahrenheit");
    const sent = weather.server.calls("/v1/forecast").at(-1)!;
    expect(sent.query.get("latitude")).toBe("52.52");
    expect(sent.query.get("longitude")).toBe("13.4");
  });

  it("answers 404 for a Weather widget without a location, a widget of another type, or another kind", async () => {
    const visitor = new TestClient(built.app);
    expect((await visitor.get(url("weatherNowhere", "weather"))).status).toBe(404);
    expect((await visitor.get(url("clock", "weather"))).status).toBe(404);
    expect((await visitor.get(url("weather", "prices"))).status).toBe(404);
    expect((await visitor.get(url("crypto", "weather"))).status).toBe(404);
    expect((await visitor.get(`/api/public/dashboards/${dashboardId}/widgets/nope/prices`)).status).toBe(400);
  });

  it("answers 404 once the dashboard is private again, and for another dashboard's widget", async () => {
    const other = (await owner.post("/api/dashboards", { name: "Other" })).body;
    await owner.put("/api/dashboards", { id: other.id, name: "Other", isPublic: true });
    const visitor = new TestClient(built.app);
    expect(
      (await visitor.get(`/api/public/dashboards/${other.id}/widgets/${ids.crypto}/prices`)).status,
    ).toBe(404);

    await owner.put("/api/dashboards", { id: dashboardId, name: "Public data", isPublic: false });
    try {
      const res = await visitor.get(url("crypto", "prices"));
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("not_found");
    } finally {
      await owner.put("/api/dashboards", { id: dashboardId, name: "Public data", isPublic: true });
    }
  });

  it("limits each visitor address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 125; i++) {
      const res = await new TestClient(built.app).request({
        method: "GET",
        url: url("weather", "weather"),
        remoteAddress: "10.1.2.3",
      });
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(120);
    expect(statuses.at(-1)).toBe(429);
    const elsewhere = await new TestClient(built.app).request({
      method: "GET",
      url: url("weather", "weather"),
      remoteAddress: "10.1.2.4",
    });
    expect(elsewhere.status).toBe(200);
  });
});
