import type { Currency } from "../../contract/data.js";
import { ProblemError } from "../http/errors.js";
import { isCandleRow, pageWindows, type Series, TIMEFRAMES, type Timeframe, toSeries } from "./candles.js";
import type { ExchangeGet } from "./client.js";
import { createCoalescer } from "./coalesce.js";
import { onlineCrypto } from "./currencies.js";

/**
 * Prices move; 15 s keeps a price within a quarter of the shortest candle (60 s) while a crowd
 * of widgets polling every few seconds costs at most four upstream calls a minute per pair and
 * timeframe. The currency list changes over days, so five minutes costs nothing in accuracy.
 */
export const PRICES_FRESH_MS = 15_000;
export const CURRENCIES_FRESH_MS = 5 * 60_000;
/** A failing exchange is asked again after a few seconds, not by every waiting widget at once. */
const FAILURE_FRESH_MS = 5_000;

/** One pair's entry in the prices answer. */
export interface PairPrices extends Series {
  pair: string;
  base: string;
  quote: string;
  timeframe: Timeframe;
}

export interface Market {
  /** The same object for every caller within the freshness window. */
  prices(pair: string, timeframe: Timeframe): Promise<PairPrices>;
  currencies(): Promise<Currency[]>;
}

const rememberFailure = (error: unknown) =>
  // A full queue (503) clears on its own schedule; Retry-After already says when.
  error instanceof ProblemError && error.status !== 503 ? FAILURE_FRESH_MS : 0;

const unexpected = (label: string) =>
  new ProblemError(502, "upstream_failed", `The exchange answered ${label} in an unexpected shape`);

export function createMarket(get: ExchangeGet, now: () => number = Date.now): Market {
  const pricesCache = createCoalescer<PairPrices>({
    freshMs: PRICES_FRESH_MS,
    errorFreshMs: rememberFailure,
  });
  const currencyCache = createCoalescer<Currency[]>({
    freshMs: CURRENCIES_FRESH_MS,
    errorFreshMs: rememberFailure,
  });

  async function loadPrices(pair: string, timeframe: Timeframe): Promise<PairPrices> {
    const label = `candles for ${pair}`;
    const windows = pageWindows(timeframe, now());
    const pages = await Promise.all(
      windows.map(async ({ start, end }) => {
        const query = new URLSearchParams({
          granularity: String(TIMEFRAMES[timeframe].granularity),
          start: new Date(start * 1000).toISOString(),
          end: new Date(end * 1000).toISOString(),
        });
        const body = await get(`/products/${encodeURIComponent(pair)}/candles?${query}`, label);
        if (!Array.isArray(body) || !body.every(isCandleRow)) throw unexpected(label);
        return body;
      }),
    );
    const series = toSeries(pages.flat(), { start: windows[0]!.start, end: windows.at(-1)!.end });
    if (!series) {
      throw new ProblemError(
        404,
        "not_found",
        `The exchange has no trades for ${pair} in the ${timeframe} timeframe`,
      );
    }
    const [base, quote] = pair.split("-") as [string, string];
    return { pair, base, quote, timeframe, ...series };
  }

  return {
    prices: (pair, timeframe) => pricesCache(`${pair}|${timeframe}`, () => loadPrices(pair, timeframe)),
    currencies: () =>
      currencyCache("currencies", async () => {
        const list = onlineCrypto(await get("/currencies", "the currency list"));
        if (!list) throw unexpected("the currency list");
        return list;
      }),
  };
}
