import { setMaxListeners } from "node:events";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { AppContext } from "../context.js";
import { badRequest, ProblemError } from "../http/errors.js";
import { errorResponses } from "../http/schemas.js";
import { acceptsGzip, createBodyCache } from "./body-cache.js";
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

  app.addHook("onRequest", ctx.authenticate);

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
      // Nothing to show at all: answer with the failure itself, so its status and Retry-After reach the client.
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
