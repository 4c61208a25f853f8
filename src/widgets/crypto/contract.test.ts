import { describe, expect, it } from "vitest";
import { cryptoWidget, MAX_PAIRS } from "./contract.js";

const parse = cryptoWidget.parse;

describe("Crypto config", () => {
  it("reads pairs and the timeframe", () => {
    expect(parse({ pairs: ["BTC-EUR", "DOGE-EUR"], timeframe: "1w" })).toEqual({
      pairs: ["BTC-EUR", "DOGE-EUR"],
      timeframe: "1w",
    });
  });

  it("falls back to defaults for missing or malformed values", () => {
    expect(cryptoWidget.defaults()).toEqual({ pairs: ["BTC-USD", "ETH-USD", "SOL-USD"], timeframe: "24h" });
    for (const raw of [null, 7, "BTC-USD", [], {}]) expect(parse(raw)).toEqual(cryptoWidget.defaults());
    expect(parse({ pairs: "BTC-USD", timeframe: "2d" })).toEqual(cryptoWidget.defaults());
    // Junk entries are dropped, case and spaces normalised, duplicates removed; the list may end up empty.
    expect(
      parse({ pairs: [" btc-usd ", "BTC-USD", "no pair", 42, "BTC/USD", "ETH-"], timeframe: "1y" }),
    ).toEqual({ pairs: ["BTC-USD"], timeframe: "1y" });
    expect(parse({ pairs: ["<script>"] })).toEqual({ pairs: [], timeframe: "24h" });
  });

  it("reads the original app's `products` and keeps at most ten pairs", () => {
    expect(parse({ products: ["SOL-USD"], timeframe: "1h" })).toEqual({
      pairs: ["SOL-USD"],
      timeframe: "1h",
    });
    const many = Array.from({ length: 15 }, (_, i) => `C${i}-USD`);
    expect(parse({ pairs: many }).pairs).toHaveLength(MAX_PAIRS);
  });

  it("migrates `products` in one place: a legacy list is normalised like `pairs`, `pairs` wins when both exist", () => {
    expect(parse({ products: [" eth-eur ", "ETH-EUR", "junk"] })).toEqual({
      pairs: ["ETH-EUR"],
      timeframe: "24h",
    });
    expect(parse({ pairs: ["BTC-USD"], products: ["SOL-USD"] }).pairs).toEqual(["BTC-USD"]);
    expect(parse({ pairs: "BTC-USD", products: ["SOL-USD"] }).pairs).toEqual(["SOL-USD"]);
    expect(parse({ products: "SOL-USD" })).toEqual(cryptoWidget.defaults());
    expect(parse({ products: ["SOL-USD"] })).not.toHaveProperty("products");
  });

  it("asks visitors' data for the stored pairs and timeframe, nothing while there are none", () => {
    const query = cryptoWidget.data.visitorQuery;
    expect(query(parse({ products: ["SOL-USD"], timeframe: "1w" }))).toEqual({
      pairs: ["SOL-USD"],
      timeframe: "1w",
    });
    expect(query(parse({ pairs: [] }))).toBeNull();
  });
});

describe("Crypto price alerts", () => {
  const alert = { id: "a1", pair: "BTC-USD", direction: "above", price: 70000 };

  it("keeps well-formed alerts, normalises the pair, and stays absent when none are set", () => {
    expect(parse({ pairs: ["BTC-USD"], alerts: [{ ...alert, pair: " btc-usd " }] }).alerts).toEqual([alert]);
    expect(parse({ pairs: ["BTC-USD"] })).not.toHaveProperty("alerts");
    expect(cryptoWidget.alerts!.watched!(parse({ alerts: [alert] }))).toBe(true);
    expect(cryptoWidget.alerts!.watched!(parse({ alerts: [] }))).toBe(false);
    expect(cryptoWidget.alerts!.watched!(parse({}))).toBe(false);
  });

  it("refuses bad alerts with the path of each problem", () => {
    const check = cryptoWidget.alerts!.check;
    expect(check({ alerts: [alert] })).toEqual([]);
    expect(check({})).toEqual([]);
    expect(check({ alerts: "BTC" })).toEqual([{ path: "/alerts", message: "must be an array" }]);
    expect(
      check({
        alerts: [
          { ...alert, pair: "BTC/USD" },
          { ...alert, direction: "sideways" },
          { ...alert, price: -1 },
          { ...alert, price: "70000" },
          7,
        ],
      }),
    ).toEqual([
      { path: "/alerts/0/pair", message: "must be a pair like BTC-USD" },
      { path: "/alerts/1/direction", message: "must be one of: above, below" },
      { path: "/alerts/2/price", message: "must be a positive number" },
      { path: "/alerts/3/price", message: "must be a positive number" },
      { path: "/alerts/4", message: "must be an object" },
    ]);
    expect(check({ alerts: Array.from({ length: 21 }, (_, i) => ({ ...alert, id: `a${i}` })) })).toEqual([
      { path: "/alerts", message: "must have at most 20 items" },
    ]);
  });
});
