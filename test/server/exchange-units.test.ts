import { createHmac } from "node:crypto";
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/server/config.js";
import { CANDLES_PER_TIMEFRAME, pageWindows, toSeries } from "../../src/server/exchange/candles.js";
import { onlineCrypto } from "../../src/server/exchange/currencies.js";
import { createSigner } from "../../src/server/exchange/signer.js";
import { createThrottle, memorySlotStore, redisSlotStore } from "../../src/server/exchange/throttle.js";
import { CurrencyList } from "../../src/server/upstream/sources/exchange.js";
import { CURRENCIES, EXPECTED_CURRENCIES } from "../fakes/exchange-market.js";
import { createRedisNamespace } from "../support/services.js";

describe("exchange signer", () => {
  const secret = Buffer.from("the exchange's raw secret bytes \x00\xff").toString("base64");
  const credentials = { key: "key-1", secret, passphrase: "pass-1" };
  const at = Date.UTC(2025, 0, 2, 3, 4, 5, 678);

  it("signs timestamp + METHOD + path with query + body with the decoded secret", () => {
    const sign = createSigner(credentials, () => at);
    const path = "/products/BTC-USD/candles?granularity=300&start=2025-01-01T00%3A00%3A00.000Z";
    const headers = sign("get", path);
    const expected = createHmac("sha256", Buffer.from(secret, "base64"))
      .update(`1735787045GET${path}`)
      .digest("base64");
    expect(headers).toEqual({
      "EX-ACCESS-KEY": "key-1",
      "EX-ACCESS-SIGN": expected,
      "EX-ACCESS-TIMESTAMP": "1735787045",
      "EX-ACCESS-PASSPHRASE": "pass-1",
    });
    // The query is part of what is signed, and so is a body.
    expect(sign("GET", "/products/BTC-USD/candles")["EX-ACCESS-SIGN"]).not.toBe(expected);
    const withBody = createHmac("sha256", Buffer.from(secret, "base64"))
      .update('1735787045POST/orders{"a":1}')
      .digest("base64");
    expect(sign("POST", "/orders", '{"a":1}')["EX-ACCESS-SIGN"]).toBe(withBody);
  });

  it("takes a fresh timestamp for every request", () => {
    let now = at;
    const sign = createSigner(credentials, () => now);
    const first = sign("GET", "/currencies");
    now += 2000;
    const second = sign("GET", "/currencies");
    expect(Number(second["EX-ACCESS-TIMESTAMP"]) - Number(first["EX-ACCESS-TIMESTAMP"])).toBe(2);
    expect(second["EX-ACCESS-SIGN"]).not.toBe(first["EX-ACCESS-SIGN"]);
  });

  it("sends no headers without credentials", () => {
    expect(createSigner(null)("GET", "/currencies")).toEqual({});
  });

  it("a secret that is not base64 stops start-up, naming the variable", () => {
    const env = {
      AUTH_SECRET: "x".repeat(40),
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32).toString("base64"),
      DATABASE_URL: "postgres://unused@127.0.0.1/unused",
      EXCHANGE_CLIENT_SECRET: "not base64!",
    };
    expect(loadConfig({ ...env, EXCHANGE_CLIENT_SECRET: secret }).exchange.clientSecret).toBe(secret);
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(/^EXCHANGE_CLIENT_SECRET: /);
  });
});

describe("candle windows and series", () => {
  const now = Date.UTC(2025, 5, 1, 12, 34, 56);

  it.each(Object.entries(CANDLES_PER_TIMEFRAME))(
    "%s pages cover exactly its candles, none over 300",
    (name, tf) => {
      const windows = pageWindows(name as keyof typeof CANDLES_PER_TIMEFRAME, now);
      expect(windows).toHaveLength(Math.ceil(tf.count / 300));
      let total = 0;
      for (const [i, w] of windows.entries()) {
        const count = (w.end - w.start) / tf.granularity + 1;
        expect(count).toBeLessThanOrEqual(300);
        if (i > 0) expect(w.start).toBe(windows[i - 1]!.end + tf.granularity);
        total += count;
      }
      expect(total).toBe(tf.count);
      expect(windows.at(-1)!.end).toBe(Math.floor(now / 1000 / tf.granularity) * tf.granularity);
    },
  );

  it("sorts ascending, drops duplicates and rows outside the range, and computes price and change", () => {
    const row = (t: number, open: number, close: number) => [t, open - 1, close + 1, open, close, 2];
    const series = toSeries(
      [row(400, 40, 41), row(300, 30, 31), row(200, 20, 21), row(300, 30, 31), row(100, 9, 9)],
      {
        start: 200,
        end: 400,
      },
    )!;
    expect(series.candles.map((c) => c.time)).toEqual([
      new Date(200_000).toISOString(),
      new Date(300_000).toISOString(),
      new Date(400_000).toISOString(),
    ]);
    expect(series.candles[0]).toEqual({
      time: new Date(200_000).toISOString(),
      open: 20,
      high: 22,
      low: 19,
      close: 21,
      volume: 2,
    });
    expect(series.price).toBe(41);
    expect(series.changePercent).toBeCloseTo(((41 - 20) / 20) * 100, 10);
    expect(toSeries([], { start: 0, end: 1 })).toBeNull();
  });
});

describe("currency list", () => {
  it("keeps online crypto only, sorted by id", () => {
    const answer = { service: "the exchange", what: "the currency list" };
    expect(onlineCrypto(CurrencyList.parse(CURRENCIES, answer))).toEqual(EXPECTED_CURRENCIES);
    expect(EXPECTED_CURRENCIES.map((c) => c.id)).toEqual([
      "00",
      "ADA",
      "ATOM",
      "AVAX",
      "BTC",
      "DOGE",
      "DOT",
      "ETH",
      "LINK",
      "LTC",
      "SOL",
      "UNI",
      "XRP",
    ]);
  });

  it("rejects bodies that are not a currency list", () => {
    const answer = { service: "the exchange", what: "the currency list" };
    for (const body of [{ message: "hi" }, "text", [1, 2], [{ name: "no id" }], null]) {
      expect(() => CurrencyList.parse(body, answer)).toThrow(/the currency list in an unexpected shape/);
    }
  });
});

describe("upstream slots", () => {
  const limits = { limit: 3, windowMs: 1000, lateMs: 2000, leaseMs: 5000, maxQueue: 2, maxWaitMs: 3000 };

  it("holds a slot until a window after the answer, serves the queue in order, and bounds it", async () => {
    let now = 0;
    const store = memorySlotStore(() => now);
    for (const token of ["a", "b", "c"]) expect((await store.take(token, limits)).state).toBe("granted");
    expect((await store.take("w1", limits)).state).toBe("queued");
    expect((await store.take("w2", limits)).state).toBe("queued");
    expect(await store.take("w3", limits)).toMatchObject({ state: "refused" });

    now = 400;
    await store.release("a", limits.windowMs);
    now = 1399;
    expect((await store.take("w2", limits)).state).toBe("queued");
    expect((await store.take("w1", limits)).state).toBe("queued");
    now = 1400;
    // One slot is free: it goes to the first in line, not to whoever asks first.
    expect((await store.take("w2", limits)).state).toBe("queued");
    expect((await store.take("w1", limits)).state).toBe("granted");
    // A holder that never gives its slot back loses it after the lease.
    now = 5000;
    expect((await store.take("w2", limits)).state).toBe("granted");
  });

  it("shares slots and queue between instances through Redis", async () => {
    const namespace = await createRedisNamespace();
    const [one, two] = [new Redis(namespace.url), new Redis(namespace.url)];
    try {
      const a = redisSlotStore(one, namespace.prefix);
      const b = redisSlotStore(two, namespace.prefix);
      for (const token of ["a", "b", "c"]) expect((await a.take(token, limits)).state).toBe("granted");
      expect((await b.take("w1", limits)).state).toBe("queued");
      expect((await a.take("w2", limits)).state).toBe("queued");
      expect((await b.take("w3", limits)).state).toBe("refused");
      await b.release("a", 300);
      expect((await a.take("w2", limits)).state).toBe("queued");
      await new Promise((r) => setTimeout(r, 320));
      expect((await a.take("w2", limits)).state).toBe("queued");
      expect((await b.take("w1", limits)).state).toBe("granted");
      await a.leave("w2");
      expect((await b.take("w3", limits)).state).toBe("queued");
    } finally {
      one.disconnect();
      two.disconnect();
      await namespace.cleanup();
    }
  });

  it("answers 503 when the shared store cannot be reached", async () => {
    const broken = { ...memorySlotStore(), take: () => Promise.reject(new Error("Connection is closed.")) };
    const error = await createThrottle(broken)(new AbortController().signal).catch((e) => e);
    expect(error).toMatchObject({ status: 503, code: "service_unavailable" });
    expect(error.extra.retryAfterSeconds).toBeGreaterThan(0);
  });

  it("lets a waiter go only a window after an answer came back", async () => {
    const throttle = createThrottle(memorySlotStore(), { ...limits, windowMs: 300, maxQueue: 5 });
    const signal = new AbortController().signal;
    const held = await Promise.all([throttle(signal), throttle(signal), throttle(signal)]);
    let fourthAt = 0;
    const fourth = throttle(signal).then((release) => {
      fourthAt = Date.now();
      return release;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(fourthAt).toBe(0);
    const releasedAt = Date.now();
    held[0]!("answered");
    (await fourth)("answered");
    expect(fourthAt - releasedAt).toBeGreaterThanOrEqual(295);
    for (const release of held) release("answered");
  });

  it("holds the slot of a request that got no answer its late margin longer (it may still arrive)", async () => {
    let now = 0;
    const clock = { now: () => now, sleep: async () => {} };
    const store = memorySlotStore(() => now);
    const throttle = createThrottle(store, { ...limits, maxQueue: 5 }, clock);
    const signal = new AbortController().signal;
    const [timedOut, answered, third] = await Promise.all([
      throttle(signal),
      throttle(signal),
      throttle(signal),
    ]);
    now = 100;
    timedOut!("unanswered");
    answered!("answered");
    const free = async (token: string) => (await store.take(token, limits)).state;
    now = 100 + limits.windowMs;
    expect(await free("w1")).toBe("granted");
    expect(await free("w2")).toBe("queued");
    now = 100 + limits.windowMs + limits.lateMs - 1;
    expect(await free("w2")).toBe("queued");
    now = 100 + limits.windowMs + limits.lateMs;
    expect(await free("w2")).toBe("granted");
    third!("answered");
  });
});
