import { setMaxListeners } from "node:events";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { Static } from "@sinclair/typebox";
import type { AppContext } from "../context.js";
import { badRequest, ProblemError } from "../http/errors.js";
import { errorResponses } from "../http/schemas.js";
import { createExchangeClient } from "./client.js";
import { createMarket, type PairPrices } from "./market.js";
import {
  CurrenciesResponse,
  DEFAULT_PAIRS,
  DEFAULT_TIMEFRAME,
  MAX_PAIRS,
  PAIR_PATTERN,
  PricesQuery,
  PricesResponse,
} from "./schemas.js";
import { createSigner } from "./signer.js";
import { createThrottle, memorySlotStore, redisSlotStore } from "./throttle.js";

const tags = ["Exchange"];

function parsePairs(raw: string | undefined): string[] {
  if (raw === undefined) return DEFAULT_PAIRS;
  const pairs = raw.split(",");
  if (pairs.length > MAX_PAIRS) {
    throw badRequest(`At most ${MAX_PAIRS} pairs per request`, [
      { path: "/pairs", message: `has ${pairs.length} pairs` },
    ]);
  }
  const bad = pairs.find((pair) => !PAIR_PATTERN.test(pair));
  if (bad !== undefined) {
    const shown = JSON.stringify(bad.slice(0, 30));
    throw badRequest(`Pair ${shown} is not <BASE>-<QUOTE> in upper-case letters and digits`, [
      { path: "/pairs", message: `${shown} is not a pair like BTC-USD` },
    ]);
  }
  return pairs;
}

/** Exchange market data for crypto widgets (DESIGN section 5), fetched server-side. */
export const exchangeRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const { config, redis } = ctx;
  const { url, clientId, clientSecret, passphrase } = config.exchange;
  const closing = new AbortController();
  // Every request waiting on a slot or the exchange listens for shutdown; that many is expected.
  setMaxListeners(0, closing.signal);
  app.addHook("preClose", async () => closing.abort());

  const slots = redis ? redisSlotStore(redis, `${config.redisPrefix}exchange:`) : memorySlotStore();
  const market = createMarket(
    createExchangeClient({
      baseUrl: url,
      sign: createSigner(
        clientId && clientSecret
          ? { key: clientId, secret: clientSecret, passphrase: passphrase ?? clientSecret }
          : null,
      ),
      throttle: createThrottle(slots),
      signal: closing.signal,
    }),
  );

  // A crowd polling the same pairs gets the same cached entries: each is turned into JSON once,
  // not once per response (about 35 KB for a day of 5-minute candles).
  const json = new WeakMap<PairPrices, string>();
  const serialized = (entry: PairPrices) => {
    let text = json.get(entry);
    if (text === undefined) json.set(entry, (text = JSON.stringify(entry)));
    return text;
  };

  app.addHook("preHandler", ctx.authenticate);

  app.get(
    "/api/exchange/prices",
    {
      schema: {
        tags,
        summary: "Latest price, change and candles per trading pair over a timeframe",
        querystring: PricesQuery,
        response: { 200: PricesResponse, ...errorResponses(404, 502, 504) },
      },
    },
    async (request, reply) => {
      const pairs = parsePairs(request.query.pairs);
      const timeframe = request.query.timeframe ?? DEFAULT_TIMEFRAME;
      const settled = await Promise.allSettled(pairs.map((pair) => market.prices(pair, timeframe)));
      const entries = settled.map((outcome, index) => {
        if (outcome.status === "fulfilled") return serialized(outcome.value);
        const error = outcome.reason;
        if (!(error instanceof ProblemError)) throw error;
        const pair = pairs[index];
        request.log.warn({ pair, status: error.status, detail: error.detail }, "exchange pair failed");
        return JSON.stringify({ pair, error: { status: error.status, detail: error.detail } });
      });
      // Nothing to show at all: answer with the failure itself, so its status and Retry-After reach the client.
      if (settled.every((outcome) => outcome.status === "rejected"))
        throw (settled[0] as PromiseRejectedResult).reason;
      // Already JSON of PricesResponse's shape; Fastify sends a string with a JSON type as it is.
      const body = `[${entries.join(",")}]` as unknown as Static<typeof PricesResponse>;
      return reply.type("application/json").send(body);
    },
  );

  app.get(
    "/api/exchange/currencies",
    {
      schema: {
        tags,
        summary: "Online cryptocurrencies of the exchange, sorted by id",
        response: { 200: CurrenciesResponse, ...errorResponses(502, 504) },
      },
    },
    async () => market.currencies(),
  );
};
