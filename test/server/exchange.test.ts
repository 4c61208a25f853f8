import { createHmac } from "node:crypto";
import { Writable } from "node:stream";
import { gunzipSync } from "node:zlib";
import { FormatRegistry } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PricesResponse } from "../../src/contract/data.js";
import { type BuiltApp, buildApp } from "../../src/server/app.js";
import type { Config } from "../../src/server/config.js";
import { CANDLES_PER_TIMEFRAME } from "../../src/server/exchange/candles.js";
import { type FakeExchange, startFakeExchange } from "../fakes/exchange.js";
import { candleRow, EXPECTED_CURRENCIES } from "../fakes/exchange-market.js";
import { signedInClient, TestClient } from "../support/client.js";
import { type ModeEnv, prepareMode } from "../support/modes.js";
import { registerSecret } from "../support/secrets.js";

// The API's one timestamp format (DESIGN section 2), for checking answers against the schemas.
FormatRegistry.Set("date-time", (value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value));

const prices = (client: TestClient, pairs: string, timeframe?: string) =>
  client.get(`/api/exchange/prices?pairs=${pairs}${timeframe ? `&timeframe=${timeframe}` : ""}`);
const upstreamFor = async (fake: FakeExchange, pair: string) =>
  (await fake.requests()).filter((r) => r.url.startsWith(`/products/${pair}/`));

describe("exchange market data", () => {
  let mode: ModeEnv;
  let fake: FakeExchange;
  let built: BuiltApp;
  let client: TestClient;

  beforeAll(async () => {
    mode = await prepareMode("embedded");
    fake = await startFakeExchange();
    built = await mode.start({ exchange: fake.exchange });
    client = await signedInClient(built.app);
  });
  afterAll(async () => {
    await mode.teardown();
    await fake.close();
  });
  beforeEach(() => fake.reset());

  it("serves every timeframe's candles oldest first, exactly as the exchange has them", async () => {
    for (const [timeframe, { granularity, count }] of Object.entries(CANDLES_PER_TIMEFRAME)) {
      const res = await prices(client, "BTC-USD", timeframe);
      expect(res.status, timeframe).toBe(200);
      // The route writes its JSON itself, so hold it to the documented schema here.
      expect(Value.Errors(PricesResponse, res.body).First(), timeframe).toBeUndefined();
      const [entry] = res.body;
      expect(entry).toMatchObject({ pair: "BTC-USD", base: "BTC", quote: "USD", timeframe });
      expect(entry.candles, timeframe).toHaveLength(count);
      const times = entry.candles.map((c: { time: string }) => Date.parse(c.time) / 1000);
      for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBe(granularity);
      expect(Date.now() / 1000 - times.at(-1)).toBeLessThan(granularity + 5);
      for (const candle of [entry.candles[0], entry.candles.at(-1)]) {
        const [time, low, high, open, close, volume] = candleRow(
          "BTC-USD",
          Date.parse(candle.time) / 1000,
          granularity,
        );
        expect(candle).toEqual({
          time: new Date(time! * 1000).toISOString(),
          open,
          high,
          low,
          close,
          volume,
        });
      }
      const first = entry.candles[0];
      const last = entry.candles.at(-1);
      expect(entry.price).toBe(last.close);
      expect(entry.changePercent).toBeCloseTo(((last.close - first.open) / first.open) * 100, 9);
    }
    // One upstream call per timeframe, except 1y: 365 daily candles take two pages of at most 300.
    const calls = await upstreamFor(fake, "BTC-USD");
    expect(calls).toHaveLength(8);
    const yearly = calls.filter((r) => r.url.includes("granularity=86400")).slice(-2);
    const spans = yearly.map((r) => {
      const q = new URL(r.url, "http://x").searchParams;
      return (Date.parse(q.get("end")!) - Date.parse(q.get("start")!)) / 86_400_000 + 1;
    });
    expect(spans.sort((a, b) => a - b)).toEqual([65, 300]);
    expect(calls.every((r) => r.status === 200)).toBe(true);
  });

  it("signs every upstream request, query string included, with caching disabled", async () => {
    const res = await prices(client, "ETH-USD", "1h");
    expect(res.status).toBe(200);
    const [call] = await upstreamFor(fake, "ETH-USD");
    // The fake verified the signature over path and query; it answered 200.
    expect(call!.status).toBe(200);
    expect(call!.url).toMatch(/\?granularity=60&start=.+&end=.+/);
    expect(call!.headers["ex-access-key"]).toBe(fake.exchange.clientId);
    expect(call!.headers["ex-access-passphrase"]).toBe(fake.exchange.passphrase);
    expect(call!.headers["ex-access-sign"]).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(Math.abs(Number(call!.headers["ex-access-timestamp"]) - Date.now() / 1000)).toBeLessThan(5);
    expect(call!.headers["cache-control"]).toBe("no-cache");
  });

  it("defaults to BTC-USD, ETH-USD and SOL-USD over 24h", async () => {
    const res = await client.get("/api/exchange/prices");
    expect(res.status).toBe(200);
    expect(res.body.map((e: { pair: string }) => e.pair)).toEqual(["BTC-USD", "ETH-USD", "SOL-USD"]);
    expect(
      res.body.every(
        (e: { timeframe: string; candles: unknown[] }) => e.timeframe === "24h" && e.candles.length === 288,
      ),
    ).toBe(true);
  });

  it("sends the same bytes to everyone asking alike, gzipped for clients that take it", async () => {
    const plain = await prices(client, "SOL-USD,ETH-USD", "1w");
    // Straight through inject: the test client would try to parse the gzipped bytes as JSON.
    const raw = (acceptEncoding: string) =>
      built.app.inject({
        url: "/api/exchange/prices?pairs=SOL-USD,ETH-USD&timeframe=1w",
        headers: { cookie: client.cookie!, "accept-encoding": acceptEncoding },
      });
    const zipped = await raw("br, gzip;q=0.8");
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(plain.text);
    const refused = await raw("gzip;q=0, deflate");
    expect(refused.headers["content-encoding"]).toBeUndefined();
    expect(refused.body).toBe(plain.text);
  });

  it("answers in request order with a per-pair error for a pair the exchange does not have", async () => {
    const res = await prices(client, "ETH-EUR,NOPE-USD,BTC-EUR", "3m");
    expect(res.status).toBe(200);
    expect(res.body.map((e: { pair: string }) => e.pair)).toEqual(["ETH-EUR", "NOPE-USD", "BTC-EUR"]);
    expect(res.body[0].candles).toHaveLength(90);
    expect(Value.Check(PricesResponse, res.body)).toBe(true);
    expect(res.body[1]).toEqual({
      pair: "NOPE-USD",
      error: { status: 404, detail: expect.stringContaining("NOPE-USD") },
    });
    expect(res.body[2].candles).toHaveLength(90);
  });

  it("answers the failure itself when no pair succeeds", async () => {
    const res = await prices(client, "NOPE-EUR");
    expect(res.status).toBe(404);
    expect(res.headers["content-type"]).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ code: "not_found", status: 404 });
  });

  it("lists only online cryptocurrencies, sorted by id, and keeps the list fresh for a while", async () => {
    const first = await client.get("/api/exchange/currencies");
    expect(first.status).toBe(200);
    expect(first.body).toEqual(EXPECTED_CURRENCIES);
    const again = await client.get("/api/exchange/currencies");
    expect(again.body).toEqual(EXPECTED_CURRENCIES);
    expect((await fake.requests()).filter((r) => r.url === "/currencies")).toHaveLength(1);
  });

  it("coalesces 50 concurrent identical requests into one upstream call", async () => {
    await fake.configure({ latencyMs: 200 });
    const responses = await Promise.all(Array.from({ length: 50 }, () => prices(client, "LINK-USD", "1w")));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(new Set(responses.map((r) => r.text)).size).toBe(1);
    expect(await upstreamFor(fake, "LINK-USD")).toHaveLength(1);
    // Within the freshness window a later request costs nothing either.
    expect((await prices(client, "LINK-USD", "1w")).status).toBe(200);
    expect(await upstreamFor(fake, "LINK-USD")).toHaveLength(1);
  });

  it("retries after a 429 honouring Retry-After, and gives up with 502 when it persists", async () => {
    await fake.fail(
      { kind: "status", status: 429, retryAfter: 1 },
      { times: 1, path: "/products/DOGE-USD/" },
    );
    const recovered = await prices(client, "DOGE-USD");
    expect(recovered.status).toBe(200);
    const doge = await upstreamFor(fake, "DOGE-USD");
    expect(doge.map((r) => r.status)).toEqual([429, 200]);
    expect(doge[1]!.at - doge[0]!.at).toBeGreaterThanOrEqual(950);

    await fake.fail(
      { kind: "status", status: 429, message: "Public rate limit exceeded" },
      { path: "/products/LTC-USD/" },
    );
    const started = Date.now();
    const failed = await prices(client, "LTC-USD");
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ code: "upstream_failed" });
    expect(failed.body.detail).toMatch(/429/);
    expect(await upstreamFor(fake, "LTC-USD")).toHaveLength(3);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("answers 504 within the timeout when the exchange stalls, before or during the body", async () => {
    await fake.fail({ kind: "stall" }, { path: "/products/ADA-USD/" });
    await fake.fail({ kind: "stall-body" }, { path: "/products/ADA-EUR/" });
    const started = Date.now();
    const res = await prices(client, "ADA-USD,ADA-EUR,SOL-EUR");
    const elapsed = Date.now() - started;
    expect(res.status).toBe(200);
    expect(res.body[0].error).toEqual({
      status: 504,
      detail: expect.stringMatching(/did not answer within 5 s/),
    });
    expect(res.body[1].error).toEqual({
      status: 504,
      detail: expect.stringMatching(/did not answer within 5 s/),
    });
    expect(res.body[2].candles).toHaveLength(288);
    expect(elapsed).toBeGreaterThanOrEqual(4900);
    expect(elapsed).toBeLessThan(7000);

    const alone = await prices(client, "ADA-USD");
    expect(alone.status).toBe(504);
    expect(alone.body.code).toBe("upstream_timeout");
  });

  it("answers 502 for a body that is not JSON or not candles", async () => {
    const garbage: [string, { body: string; contentType?: string }][] = [
      ["XRP-USD", { body: "<html>Cloudflare says hi</html>", contentType: "text/html" }],
      ["XRP-EUR", { body: '{"candles":[]}' }],
      ["DOT-USD", { body: '[[1700000000,"1","2","3","4","5"]]' }],
      ["DOT-EUR", { body: "[[1700000000,1,2," }],
    ];
    for (const [pair, fault] of garbage) {
      await fake.fail({ kind: "garbage", ...fault }, { path: `/products/${pair}/` });
    }
    const res = await prices(client, `${garbage.map(([p]) => p).join(",")},AVAX-USD`);
    expect(res.status).toBe(200);
    const details = res.body.slice(0, 4).map((e: { error: { status: number; detail: string } }) => e.error);
    expect(details.map((e: { status: number }) => e.status)).toEqual([502, 502, 502, 502]);
    expect(details[0].detail).toMatch(/not JSON/);
    expect(details[1].detail).toMatch(/unexpected shape/);
    expect(details[2].detail).toMatch(/unexpected shape/);
    expect(details[3].detail).toMatch(/not JSON/);
    expect(res.body[4].candles).toHaveLength(288);

    await fake.fail({ kind: "garbage", body: '{"oops":true}' }, { path: "/currencies" });
    // The list above is fresh for minutes; a fresh app has to ask.
    const other = await mode.start({ exchange: fake.exchange });
    const res2 = await (await signedInClient(other.app)).get("/api/exchange/currencies");
    expect(res2.status).toBe(502);
    expect(res2.body).toMatchObject({
      code: "upstream_failed",
      detail: expect.stringMatching(/currency list/),
    });
  });

  it("names a clock skew the exchange refuses", async () => {
    await fake.configure({ skewSeconds: 120 });
    const res = await prices(client, "ATOM-USD");
    expect(res.status).toBe(502);
    expect(res.body.code).toBe("upstream_failed");
    expect(res.body.detail).toMatch(/clock skew/);
    expect((await upstreamFor(fake, "ATOM-USD"))[0]!.status).toBe(401);
  });

  it("validates pairs and timeframe strictly before anything reaches the exchange", async () => {
    const bad = [
      "pairs=btc-usd",
      "pairs=BTCUSD",
      "pairs=BTC-USD-EUR",
      "pairs=BTC-USD%2F..%2Fx",
      "pairs=BTC-US%20D",
      "pairs=BTC-USD%3Fa%3D1",
      "pairs=",
      "pairs=BTC-USD,",
      `pairs=${Array.from({ length: 11 }, () => "BTC-USD").join(",")}`,
      "pairs=BTC-USD&pairs=ETH-USD",
      "timeframe=2d",
      "timeframe=24H",
      "timeframe=",
    ];
    for (const query of bad) {
      const res = await client.get(`/api/exchange/prices?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.headers["content-type"]).toMatch(/application\/problem\+json/);
      expect(res.body.code, query).toBe("validation_failed");
    }
    expect(await fake.requests()).toEqual([]);
  });

  it("needs a session", async () => {
    const anonymous = new TestClient(built.app);
    for (const url of ["/api/exchange/prices", "/api/exchange/currencies"]) {
      const res = await anonymous.get(url);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("unauthenticated");
    }
    expect(await fake.requests()).toEqual([]);
  });

  it("documents both endpoints and every error status in the OpenAPI document", async () => {
    const doc = (await client.get("/api/openapi.json")).body;
    for (const path of ["/api/exchange/prices", "/api/exchange/currencies"]) {
      const get = doc.paths[path].get;
      expect(get.tags).toEqual(["Exchange"]);
      for (const status of ["200", "400", "401", "502", "503", "504"])
        expect(get.responses[status], `${path} ${status}`).toBeDefined();
    }
    const params = doc.paths["/api/exchange/prices"].get.parameters.map((p: { name: string }) => p.name);
    expect(params.sort()).toEqual(["pairs", "timeframe"]);
  });
});

describe("exchange credentials and reachability", () => {
  let mode: ModeEnv;
  let fake: FakeExchange;

  beforeAll(async () => {
    // PostgreSQL: these tests start several apps, which is quicker without an embedded database each.
    mode = await prepareMode("postgres");
    fake = await startFakeExchange();
  });
  afterAll(async () => {
    await mode.teardown();
    await fake.close();
  });

  const priceWith = async (exchange: Partial<Config["exchange"]>) => {
    const built = await mode.start({ exchange: { ...fake.exchange, ...exchange } });
    return prices(await signedInClient(built.app), "UNI-USD");
  };

  it("maps each credential refusal to a 502 naming the cause", async () => {
    const wrongSecret = Buffer.from("another secret entirely").toString("base64");
    registerSecret(wrongSecret);
    const cases: [Partial<Config["exchange"]>, RegExp][] = [
      [{ clientId: "not-our-key" }, /bad API key.*EXCHANGE_CLIENT_ID/],
      [
        { clientId: fake.exchange.clientId, clientSecret: wrongSecret },
        /bad signature.*EXCHANGE_CLIENT_SECRET/,
      ],
      [
        { clientId: fake.exchange.clientId, passphrase: "wrong-passphrase" },
        /bad passphrase.*EXCHANGE_PASSPHRASE/,
      ],
      // No credentials: unsigned, which this exchange refuses as an unknown key.
      [{ clientId: null, clientSecret: null, passphrase: null }, /bad API key/],
    ];
    for (const [exchange, cause] of cases) {
      const res = await priceWith(exchange);
      expect(res.status).toBe(502);
      expect(res.body.code).toBe("upstream_failed");
      expect(res.body.detail).toMatch(cause);
    }
    const statuses = (await fake.requests()).map((r) => r.status);
    expect(statuses).toEqual([401, 401, 401, 401]);
  });

  it("sends unsigned requests without credentials", async () => {
    await fake.reset();
    await fake.configure({ auth: "optional" });
    const built = await mode.start({
      exchange: { url: fake.url, clientId: null, clientSecret: null, passphrase: null },
    });
    const res = await prices(await signedInClient(built.app), "UNI-EUR");
    expect(res.status).toBe(200);
    const [call] = await fake.requests();
    expect(Object.keys(call!.headers).filter((h) => h.startsWith("ex-"))).toEqual([]);
  });

  it("is refused by a fake that is as strict as the real exchange", async () => {
    // Signed here independently of the app's signer, so the checks below test the fake itself.
    const signed = (path: string, secret = fake.exchange.clientSecret) => {
      const timestamp = String(Math.floor(Date.now() / 1000));
      const sign = createHmac("sha256", Buffer.from(secret, "base64"))
        .update(`${timestamp}GET${path}`)
        .digest("base64");
      return fetch(fake.url + path, {
        headers: {
          "EX-ACCESS-KEY": fake.exchange.clientId,
          "EX-ACCESS-SIGN": sign,
          "EX-ACCESS-TIMESTAMP": timestamp,
          "EX-ACCESS-PASSPHRASE": fake.exchange.passphrase,
        },
      });
    };
    await fake.reset();
    const day = 86_400;
    const end = Math.floor(Date.now() / 1000 / day) * day;
    const range = (buckets: number) =>
      `/products/BTC-USD/candles?granularity=86400&start=${end - (buckets - 1) * day}&end=${end}`;
    const ok = await signed(range(300));
    expect(ok.status).toBe(200);
    const rows = (await ok.json()) as number[][];
    expect(rows[0]![0]).toBeGreaterThan(rows[1]![0]!); // newest first
    expect((await signed(range(301))).status).toBe(400);
    expect((await signed("/products/BTC-USD/candles?granularity=120")).status).toBe(400);
    const otherSecret = Buffer.from("x".repeat(32)).toString("base64");
    expect(await (await signed(range(10), otherSecret)).json()).toEqual({ message: "invalid signature" });
    expect((await fetch(fake.url + range(10))).status).toBe(401);
  });

  it("ends waits on the exchange at once when the app closes", async () => {
    await fake.reset();
    await fake.fail({ kind: "stall" });
    const built = await mode.start({ exchange: fake.exchange });
    const user = await signedInClient(built.app);
    const pending = prices(user, "UNI-USD");
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    await built.close();
    const res = await pending;
    expect(Date.now() - started).toBeLessThan(2000);
    expect(res.status).toBe(503);
    await fake.heal();
  });

  it("answers 502 when the exchange cannot be reached", async () => {
    const res = await priceWith({ url: "http://127.0.0.1:1", clientId: fake.exchange.clientId });
    expect(res.status).toBe(502);
    expect(res.body.detail).toMatch(/Could not reach the exchange/);
  });

  it("never writes the secret or passphrase to the log", async () => {
    await fake.reset();
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const built = await buildApp(mode.config({ exchange: fake.exchange, logLevel: "trace" }), { logStream });
    try {
      const user = await signedInClient(built.app);
      expect((await prices(user, "UNI-USD,ATOM-EUR")).status).toBe(200);
      await fake.configure({ skewSeconds: -100 });
      expect((await prices(user, "LINK-EUR")).status).toBe(502);
      await fake.fail({
        kind: "status",
        status: 401,
        message: `invalid signature for ${fake.exchange.clientId}`,
      });
      expect((await prices(user, "AVAX-EUR")).status).toBe(502);
    } finally {
      await built.close();
    }
    const log = lines.join("");
    expect(log).toMatch(/exchange pair failed|upstream problem/);
    expect(log).not.toContain(fake.exchange.clientSecret);
    expect(log).not.toContain(fake.exchange.passphrase);
  });
});
