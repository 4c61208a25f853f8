import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeFeeds } from "../../src/widgets/feed/fake.js";
import { type StatusSite, startStatusSite } from "../../src/widgets/status/fake.js";
import { FakeWeather } from "../../src/widgets/weather/fake.js";
import { startFakeExchange } from "../fakes/exchange.js";
import { FakeServer } from "../fakes/oauth-http.js";
import { FakePushService } from "../fakes/push-service.js";
import { signedInClient, type TestClient } from "../support/client.js";
import { type CompiledServer, compiled, exchangeEnv, startCompiledServer } from "../support/compiled.js";

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex");

/**
 * Every kind of outside call the server makes, against the compiled server started as `npm start`
 * starts it and configured only by its environment, each answered by an honest fake on 127.0.0.1:
 * what the suites on the TypeScript sources cannot see (a bundled package's exports, a file the
 * bundle forgot) fails here. The providers' OAuth and data calls and single sign-on run against it
 * in the browser suite (e2e/data-widgets, e2e/operators).
 */
describe("outside calls of the compiled server", () => {
  let server: CompiledServer;
  let client: TestClient;
  let feeds: FakeServer;
  let site: FakeServer;
  let status: StatusSite;
  let weather: FakeWeather;
  let exchange: Awaited<ReturnType<typeof startFakeExchange>>;
  let push: FakePushService;

  beforeAll(async () => {
    const artifact = await compiled();
    [feeds, weather, exchange, push, status] = await Promise.all([
      startFakeFeeds(),
      FakeWeather.start(),
      startFakeExchange(),
      FakePushService.start(),
      startStatusSite(204),
    ]);
    site = await FakeServer.start((req) =>
      req.path === "/favicon.ico"
        ? { status: 200, bytes: PNG, headers: { "content-type": "image/png" } }
        : { status: 404, text: "" },
    );
    server = await startCompiledServer({
      server: artifact.server,
      dataTemplate: artifact.dataTemplate,
      env: {
        WEB_DIST: artifact.web,
        // The fakes live on loopback, which a user's address reaches only when the operator says so.
        FETCH_ALLOW_PRIVATE: "127.0.0.1",
        PUSH_ALLOW_INSECURE_ENDPOINTS: "true",
        ALERTS_WATCH_SECONDS: "1",
        WEATHER_API_URL: weather.url,
        GEOCODING_API_URL: weather.url,
        ...exchangeEnv(exchange.exchange),
      },
    });
    client = await signedInClient(server.baseUrl, "Compiled");
  }, 600_000);

  afterAll(async () => {
    await server?.stop();
    await Promise.all([feeds, site, weather?.server, push].map((fake) => fake?.close()));
    await Promise.all([exchange?.close(), status?.stop()]);
  });

  it("serves the web app it was built with", async () => {
    const res = await client.get("/");
    expect(res.status).toBe(200);
    expect(res.text).toContain('<div id="root"');
  });

  it("reads a feed on the local network", async () => {
    const res = await client.get(`/api/feeds?urls=${encodeURIComponent(`${feeds.url}/rss.xml`)}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body[0].title).toBe("Release notes");
    expect(res.body[0].items.length).toBeGreaterThan(0);
  });

  it("fetches a bookmark's icon from a local site", async () => {
    const res = await client.get(`/api/icons/site?url=${encodeURIComponent(`${site.url}/`)}`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers["content-type"]).toBe("image/png");
    expect(res.raw.equals(PNG)).toBe(true);
  });

  it("checks a Status target on the local network on its watch pass", async () => {
    const { widgetId } = await client.addWidget(
      "Status",
      { checks: [{ id: "nas", name: "NAS", url: `${status.url}/health` }] },
      "Lab",
    );
    // The pass runs every second; the answer shows the check once the pass recorded it.
    await expect
      .poll(async () => (await client.get(`/api/status?widgetId=${widgetId}`)).body[0]?.state, {
        timeout: 30_000,
      })
      .toMatchObject({ up: true, httpStatus: 204 });
    expect(status.requests.length).toBeGreaterThan(0);
  });

  it("asks the weather service", async () => {
    const res = await client.get("/api/weather?lat=52.52&lon=13.41");
    expect(res.status, res.text).toBe(200);
    expect(typeof res.body.current.temperature).toBe("number");
  });

  it("asks the exchange with signed requests", async () => {
    const res = await client.get("/api/exchange/prices?pairs=BTC-USD&timeframe=1h");
    expect(res.status, res.text).toBe(200);
    expect(res.body[0]).toMatchObject({ pair: "BTC-USD" });
    expect(typeof res.body[0].price).toBe("number");
    const signed = (await exchange.requests()).filter((r) => r.url.startsWith("/products/BTC-USD"));
    expect(signed.length).toBeGreaterThan(0);
    // The fake refuses a bad signature with 401, so a 200 above already proves it was right.
    expect(signed.every((r) => r.headers["ex-access-key"] === exchange.exchange.clientId)).toBe(true);
    expect(signed.every((r) => r.status === 200)).toBe(true);
  });

  it("delivers a Web Push message, encrypted for the browser, in the person's language", async () => {
    const subscription = push.subscribe();
    const created = await client.post("/api/push/subscriptions", subscription.json);
    expect(created.status, created.text).toBe(201);
    // The server's catalogs load with its first text: this proves the built chunk has them.
    const [settings] = (await client.get("/api/settings")).body;
    expect((await client.put("/api/settings", { id: settings.id, config: { locale: "de" } })).status).toBe(
      200,
    );
    const test = await client.post("/api/push/test", {});
    expect(test.status, test.text).toBeLessThan(300);
    await subscription.until(1);
    expect(JSON.parse(subscription.received[0]!)).toMatchObject({
      title: "Tessera",
      body: "Testbenachrichtigung: Push funktioniert auf diesem Gerät.",
    });
  });
});
