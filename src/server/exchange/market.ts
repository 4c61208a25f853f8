import type { Currency, PairPrices, Timeframe } from "../../contract/data.js";
import { notFoundBecause } from "../http/errors.js";
import { jsonOf } from "../upstream/source.js";
import { CandlePage, CurrencyList } from "../upstream/sources/exchange.js";
import type { Upstream } from "../upstream/upstream.js";
import { CANDLES_PER_TIMEFRAME, pageWindows, toSeries } from "./candles.js";
import type { ExchangeGet } from "./client.js";
import { onlineCrypto } from "./currencies.js";

export interface Market {
  /** The same object for every caller within the freshness window. */
  prices(pair: string, timeframe: Timeframe): Promise<PairPrices>;
  currencies(): Promise<Currency[]>;
}

export function createMarket(get: ExchangeGet, upstream: Upstream, now: () => number = Date.now): Market {
  async function loadPrices(pair: string, timeframe: Timeframe): Promise<PairPrices> {
    const what = `candles for ${pair}`;
    const windows = pageWindows(timeframe, now());
    const pages = await Promise.all(
      windows.map(async ({ start, end }) => {
        const query = new URLSearchParams({
          granularity: String(CANDLES_PER_TIMEFRAME[timeframe].granularity),
          start: new Date(start * 1000).toISOString(),
          end: new Date(end * 1000).toISOString(),
        });
        const response = await get(`/products/${encodeURIComponent(pair)}/candles?${query}`, what);
        return CandlePage.parse(jsonOf(response), response);
      }),
    );
    const series = toSeries(pages.flat(), { start: windows[0]!.start, end: windows.at(-1)!.end });
    if (!series)
      throw notFoundBecause(`The exchange has no trades for ${pair} in the ${timeframe} timeframe`);
    const [base, quote] = pair.split("-") as [string, string];
    return { pair, base, quote, timeframe, ...series };
  }

  return {
    prices: (pair, timeframe) =>
      upstream.cached("prices", `${pair}|${timeframe}`, () => loadPrices(pair, timeframe)),
    currencies: () =>
      upstream.cached("currencies", "all", async () => {
        const response = await get("/currencies", "the currency list");
        return onlineCrypto(CurrencyList.parse(jsonOf(response), response));
      }),
  };
}
