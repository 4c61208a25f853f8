import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import { CurrenciesResponse, PricesResponse, type Timeframe } from "../../contract/data.js";
import { cryptoWidget } from "../../contract/widgets/crypto.js";
import type { AppContext } from "../context.js";
import { encodedJson, sendEncodedJson } from "../http/encoded-json.js";
import { badRequest, ProblemError } from "../http/errors.js";
import { errorResponses } from "../http/schemas.js";
import { routePublicWidgetData } from "../resources/public/widget-data.js";
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
  const { upstream, market } = ctx;
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

  /** Answers the prices of `pairs`, or the failure itself when no pair could be had. */
  async function sendPrices(
    request: FastifyRequest,
    reply: FastifyReply,
    pairs: string[],
    timeframe: Timeframe,
  ) {
    const settled = await Promise.allSettled(pairs.map((pair) => market.prices(pair, timeframe)));
    const failures: ProblemError[] = [];
    const parts = settled.map((outcome, index) => {
      if (outcome.status === "fulfilled") return outcome.value;
      const error = outcome.reason;
      if (!(error instanceof ProblemError)) throw error;
      request.log.warn(
        { pair: pairs[index], status: error.status, detail: error.detail },
        "exchange pair failed",
      );
      failures.push(error);
      return error;
    });
    // Nothing to show at all: the failure's own status and Retry-After reach the client.
    if (failures.length === pairs.length) throw failures[0];
    // A crowd asking for the same pairs within the freshness window gets the same cached entries,
    // so it gets the same bytes too: serialized once (about 100 KB for a day of 5-minute candles).
    const body = await upstream.cached("prices", `body|${parts.map(idOf)}`, async () =>
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
    // Already JSON of PricesResponse's shape.
    return sendEncodedJson(request, reply, body);
  }

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
    async (request, reply) =>
      sendPrices(
        request,
        reply,
        parsePairs(request.query.pairs),
        request.query.timeframe ?? DEFAULT_TIMEFRAME,
      ),
  );

  routePublicWidgetData(app, ctx.database.db, {
    definition: cryptoWidget,
    summary: "Prices for a Crypto widget on a public dashboard, without a session",
    description:
      "The pairs and timeframe come from the widget's stored config, read as the owner's app reads it (defaults where it has none). 404 unless the dashboard is public and the widget is a Crypto widget on it following at least one pair.",
    response: PricesResponse,
    serve: ({ pairs, timeframe }, request, reply) => sendPrices(request, reply, pairs, timeframe),
  });

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
