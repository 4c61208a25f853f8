import { afterEach, describe, expect, it } from "vitest";
import { switchLanguage } from "../../../web/i18n/i18n";
import type { PairResult } from "../../../web/lib/data-api";
import { TIMEFRAMES } from "../../../web/lib/data-api";
import { type CryptoConfig, cryptoWidget, MAX_PAIRS, MAX_PRICE_ALERTS, type PriceAlert } from "../contract";
import {
  addAlert,
  alertPairs,
  cryptoRows,
  formatAlertPrice,
  parseAlertPrice,
  quoteOf,
  rememberPrices,
  removeAlert,
  timeframeShort,
  toggleBase,
  withQuote,
} from "./logic";

describe("Crypto settings helpers", () => {
  it("changes the quote of every pair and toggles currencies", () => {
    const config = { pairs: ["BTC-USD", "ETH-USD"], timeframe: "24h" as const };
    expect(quoteOf(config)).toBe("USD");
    expect(quoteOf({ ...config, pairs: [] })).toBe("USD");
    expect(withQuote(config.pairs, "EUR")).toEqual(["BTC-EUR", "ETH-EUR"]);
    expect(toggleBase(config, "ETH").pairs).toEqual(["BTC-USD"]);
    expect(toggleBase({ ...config, pairs: ["BTC-GBP"] }, "SOL").pairs).toEqual(["BTC-GBP", "SOL-GBP"]);
    const full = { ...config, pairs: Array.from({ length: MAX_PAIRS }, (_, i) => `C${i}-USD`) };
    expect(toggleBase(full, "BTC")).toBe(full);
  });
});

describe("crypto rows", () => {
  const candle = (close: number) => ({
    time: "2026-01-01T00:00:00Z",
    open: 1,
    high: 1,
    low: 1,
    close,
    volume: 1,
  });
  const results: PairResult[] = [
    { pair: "ETH-USD", error: { status: 404, detail: "No trades for ETH-USD" } },
    {
      pair: "BTC-USD",
      base: "BTC",
      quote: "USD",
      timeframe: "24h",
      price: 101,
      changePercent: 1.5,
      candles: [candle(99), candle(101)],
    },
    {
      pair: "SOL-USD",
      base: "SOL",
      quote: "USD",
      timeframe: "24h",
      price: 5,
      changePercent: -2,
      candles: [],
    },
    {
      pair: "ADA-USD",
      base: "ADA",
      quote: "USD",
      timeframe: "24h",
      price: 1,
      changePercent: null,
      candles: [],
    },
  ];

  it("keeps the configured order, marks per-pair failures and missing answers, and gives the trend", () => {
    const rows = cryptoRows(["BTC-USD", "ETH-USD", "SOL-USD", "ADA-USD", "XRP-USD"], results);
    expect(rows.map((r) => [r.pair, r.kind])).toEqual([
      ["BTC-USD", "price"],
      ["ETH-USD", "error"],
      ["SOL-USD", "price"],
      ["ADA-USD", "price"],
      ["XRP-USD", "error"],
    ]);
    expect(rows[0]).toMatchObject({ trend: "up", closes: [99, 101], price: 101 });
    // The server's own words never reach the screen: the status names the reason.
    expect(rows[1]).toMatchObject({ detail: "The exchange has no prices for this pair.", base: "ETH" });
    expect(rows[2]).toMatchObject({ trend: "down" });
    expect(rows[3]).toMatchObject({ trend: "flat" });
    expect(rows[4]).toMatchObject({ detail: "No answer for this pair" });
  });

  it("keeps a pair's last good price, marked stale, when only that pair fails on a refresh", () => {
    const memory = rememberPrices(new Map(), results);
    expect([...memory.keys()].sort()).toEqual(["ADA-USD", "BTC-USD", "SOL-USD"]);
    const later: PairResult[] = [
      { pair: "BTC-USD", error: { status: 502, detail: "The exchange is down" } },
      { pair: "ETH-USD", error: { status: 404, detail: "No trades for ETH-USD" } },
    ];
    const rows = cryptoRows(["BTC-USD", "ETH-USD"], later, memory);
    expect(rows[0]).toMatchObject({
      kind: "price",
      price: 101,
      stale: "Can't reach the exchange. Try again in a moment.",
    });
    expect(rows[1]).toMatchObject({ kind: "error" });
    // A fresh answer replaces the remembered one and clears the mark.
    expect(cryptoRows(["SOL-USD"], results, memory)[0]).not.toHaveProperty("stale");
  });
});

describe("Crypto price alerts", () => {
  const base = { pairs: ["BTC-USD", "ETH-USD"], timeframe: "24h" as const };
  const alert = (id: string, price = 65000): PriceAlert => ({
    id,
    pair: "BTC-USD",
    direction: "above",
    price,
  });

  it("reads typed prices: positive numbers, thousands separators allowed, nothing else", () => {
    expect(parseAlertPrice("65000")).toBe(65000);
    expect(parseAlertPrice(" 65,000.5 ")).toBe(65000.5);
    expect(parseAlertPrice("0.42")).toBe(0.42);
    expect(parseAlertPrice(".5")).toBe(0.5);
    for (const bad of ["", "0", "-5", "abc", "1e3", "1.2.3", "Infinity", "1e16", "9".repeat(17)])
      expect(parseAlertPrice(bad), bad).toBeNull();
  });

  it("adds alerts up to the limit and removes them, leaving the key out when none are left", () => {
    let config: CryptoConfig = base;
    config = addAlert(config, alert("a"));
    config = addAlert(config, { ...alert("b"), pair: "ETH-USD", direction: "below", price: 2000 });
    expect(config.alerts?.map((a) => a.id)).toEqual(["a", "b"]);
    expect(cryptoWidget.alerts?.check(config)).toEqual([]);
    expect(cryptoWidget.parse(config).alerts).toEqual(config.alerts);
    expect(removeAlert(config, "a").alerts?.map((a) => a.id)).toEqual(["b"]);
    expect(removeAlert(removeAlert(config, "a"), "b")).not.toHaveProperty("alerts");

    let full: CryptoConfig = base;
    for (let i = 0; i < MAX_PRICE_ALERTS + 3; i++) full = addAlert(full, alert(`x${i}`, 100 + i));
    expect(full.alerts).toHaveLength(MAX_PRICE_ALERTS);
    expect(cryptoWidget.alerts?.check(full)).toEqual([]);
  });

  it("writes an alert's price exactly as set", () => {
    expect(formatAlertPrice(4000.5, "USD", "en-US")).toBe("$4,000.5");
    expect(formatAlertPrice(0.00012345, "EUR", "en-US")).toBe("€0.00012345");
    expect(formatAlertPrice(65000, "USDT", "en-US")).toBe("65,000 USDT");
  });

  it("offers the widget's pairs, and keeps an alert's pair that has left the list", () => {
    expect(alertPairs(base)).toEqual(["BTC-USD", "ETH-USD"]);
    expect(alertPairs({ ...base, pairs: ["ETH-USD"], alerts: [alert("a")] })).toEqual(["ETH-USD", "BTC-USD"]);
  });
});

describe("the timeframe buttons", () => {
  afterEach(() => switchLanguage("en"));

  it("abbreviate each timeframe in the reader's language", async () => {
    expect(TIMEFRAMES.map(timeframeShort)).toEqual(["1H", "24H", "1W", "1M", "3M", "6M", "1Y"]);
    await switchLanguage("de");
    expect(TIMEFRAMES.map(timeframeShort)).toEqual(["1 Std.", "1T", "1W", "1M", "3M", "6M", "1J"]);
  });
});
