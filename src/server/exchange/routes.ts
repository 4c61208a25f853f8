import { setMaxListeners } from "node:events";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../context.js";
import { badRequest, ProblemError } from "../http/errors.js";
import { errorResponses } from "../http/schemas.js";
import { PublicWidgetParams, publicDataErrors, publicWidgetConfig } from "../resources/public/widget-data.js";
import { acceptsGzip, createBodyCache } from "./body-cache.js";
import { TIMEFRAME_NAMES, type Timeframe } from "./candles.js";
import { createExchangeClient } from "./client.js";
import { createMarket } from "./market.js";
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

  const bodies = createBodyCache();

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
    const body = bodies.get(`${timeframe}|${pairs}`, parts, () =>
      JSON.stringify(
        parts.map((part, index) =>
          part instanceof ProblemError
            ? { pair: pairs[index], error: { status: part.status, detail: part.detail } }
            : part,
        ),
      ),
    );
    reply.type("application/json").header("vary", "accept-encoding");
    // Already JSON of PricesResponse's shape: Fastify sends strings and buffers with a type as they are.
    if (acceptsGzip(request.headers["accept-encoding"])) {
      return reply.header("content-encoding", "gzip").send(bodies.gzipped(body) as never);
    }
    return reply.send(body.json as never);
  }

  app.get(
    "/api/exchange/prices",
    {
      onRequest: ctx.authenticate,
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

  app.get(
    "/api/public/dashboards/:id/widgets/:widgetId/prices",
    {
      schema: {
        tags: ["Public"],
        summary: "Prices for a Crypto widget on a public dashboard, without a session",
        description:
          "The pairs and timeframe come from the widget's stored config (defaults where it has none). 404 unless the dashboard is public and the widget is a Crypto widget on it.",
        security: [],
        params: PublicWidgetParams,
        response: { 200: PricesResponse, ...publicDataErrors },
      },
    },
    async (request, reply) => {
      const config = await publicWidgetConfig(ctx, request, request.params, "Crypto");
      const stored = Array.isArray(config.pairs) ? config.pairs : [];
      const pairs = stored
        .filter((p): p is string => typeof p === "string" && PAIR_PATTERN.test(p))
        .slice(0, MAX_PAIRS);
      const timeframe = TIMEFRAME_NAMES.includes(config.timeframe as Timeframe)
        ? (config.timeframe as Timeframe)
        : DEFAULT_TIMEFRAME;
      return sendPrices(request, reply, pairs.length > 0 ? pairs : DEFAULT_PAIRS, timeframe);
    },
  );

  app.get(
    "/api/exchange/currencies",
    {
      onRequest: ctx.authenticate,
      schema: {
        tags,
        summary: "Online cryptocurrencies of the exchange, sorted by id",
        response: { 200: CurrenciesResponse, ...errorResponses(502, 504) },
      },
    },
    async () => market.currencies(),
  );
};
