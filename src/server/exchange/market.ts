import type { FastifyBaseLogger } from "fastify";
import type { Currency, PairPrices, Timeframe } from "../../contract/data.js";
import { type EncodedJson, encodedJson } from "../http/encoded-json.js";
import { notFoundBecause, ProblemError } from "../http/errors.js";
import { jsonOf } from "../upstream/source.js";
import { CandlePage, CurrencyList } from "../upstream/sources/exchange.js";
import type { CachePolicy, Upstream } from "../upstream/upstream.js";
import { CANDLES_PER_TIMEFRAME, pageWindows, toSeries } from "./candles.js";
import type { ExchangeGet } from "./client.js";
import { onlineCrypto } from "./currencies.js";

/**
 * The exchange's budget (3 requests a second) is shared by every user, so its failures are
 * repeated for a while instead of being asked again by each waiting widget. Prices are never
 * served stale (they would look current); the currency list changes over days, so it may be.
 */
export const PRICES: CachePolicy = {
  kind: "prices",
  fresh: "prices",
  failuresRemembered: true,
  staleIfError: false,
};
export const CURRENCIES: CachePolicy = {
  kind: "currencies",
  fresh: "currencies",
  failuresRemembered: true,
  staleIfError: true,
};

export interface Market {
  /** The same object for every caller within the freshness window. */
  prices(pair: string, timeframe: Timeframe): Promise<PairPrices>;
  currencies(): Promise<Currency[]>;
  /**
   * The JSON body of a prices answer (PricesResponse): each pair's prices, or its own failure
   * beside the others'. When no pair could be had, the first failure is thrown instead, so its
   * status and Retry-After reach the client.
   */
  pricesBody(pairs: readonly string[], timeframe: Timeframe, log: FastifyBaseLogger): Promise<EncodedJson>;
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

  const prices = (pair: string, timeframe: Timeframe) =>
    upstream.cached(PRICES, `${pair}|${timeframe}`, () => loadPrices(pair, timeframe));

  /** Cached answers are immutable objects; a body built from the same ones is the same body. */
  const ids = new WeakMap<object, number>();
  let lastId = 0;
  const idOf = (part: object) => {
    let id = ids.get(part);
    if (id === undefined) {
      id = ++lastId;
      ids.set(part, id);
    }
    return id;
  };

  async function pricesBody(pairs: readonly string[], timeframe: Timeframe, log: FastifyBaseLogger) {
    const settled = await Promise.allSettled(pairs.map((pair) => prices(pair, timeframe)));
    const failures: ProblemError[] = [];
    const parts = settled.map((outcome, index) => {
      if (outcome.status === "fulfilled") return outcome.value;
      const error = outcome.reason;
      if (!(error instanceof ProblemError)) throw error;
      log.warn({ pair: pairs[index], status: error.status, detail: error.detail }, "exchange pair failed");
      failures.push(error);
      return error;
    });
    if (failures.length === pairs.length) throw failures[0];
    // A crowd asking for the same pairs within the freshness window gets the same cached entries,
    // so it gets the same bytes too: serialized once (about 100 KB for a day of 5-minute candles).
    return upstream.cached(PRICES, `body|${parts.map(idOf)}`, async () =>
      encodedJson(
        JSON.stringify(
          parts.map((part, index) =>
            part instanceof ProblemError
              ? { pair: pairs[index], error: { status: part.status, detail: part.detail } }
              : part,
          ),
        ),
      ),
    );
  }

  return {
    prices,
    pricesBody,
    currencies: () =>
      upstream.cached(CURRENCIES, "all", async () => {
        const response = await get("/currencies", "the currency list");
        return onlineCrypto(CurrencyList.parse(jsonOf(response), response));
      }),
  };
}
