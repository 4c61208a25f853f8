import { describe, expect, it } from "vitest";
import { MAX_PAIRS } from "../../../contract/widgets/crypto";
import type { PairResult } from "../../lib/data-api";
import { cryptoRows, quoteOf, rememberPrices, toggleBase, withQuote } from "./logic";

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
    expect(rows[1]).toMatchObject({ detail: "No trades for ETH-USD", base: "ETH" });
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
    expect(rows[0]).toMatchObject({ kind: "price", price: 101, stale: "The exchange is down" });
    expect(rows[1]).toMatchObject({ kind: "error" });
    // A fresh answer replaces the remembered one and clears the mark.
    expect(cryptoRows(["SOL-USD"], results, memory)[0]).not.toHaveProperty("stale");
  });
});
