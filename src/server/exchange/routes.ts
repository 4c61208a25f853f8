import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { CurrenciesResponse, PricesResponse } from "../../contract/data.js";
import type { AppContext } from "../context.js";
import { sendEncodedJson } from "../http/encoded-json.js";
import { badRequest } from "../http/errors.js";
import { errorResponses } from "../http/schemas.js";
import { DEFAULT_PAIRS, DEFAULT_TIMEFRAME, MAX_PAIRS, PAIR_PATTERN, PricesQuery } from "./schemas.js";

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
  const { market } = ctx;

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
      const body = await market.pricesBody(pairs, request.query.timeframe ?? DEFAULT_TIMEFRAME, request.log);
      // Already JSON of PricesResponse's shape.
      return sendEncodedJson(request, reply, body);
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
