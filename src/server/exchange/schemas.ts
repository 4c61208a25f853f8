import { Type } from "@sinclair/typebox";
import { TIMEFRAME_NAMES, type Timeframe } from "./candles.js";

export const DEFAULT_PAIRS = ["BTC-USD", "ETH-USD", "SOL-USD"];
export const DEFAULT_TIMEFRAME: Timeframe = "24h";
export const MAX_PAIRS = 10;
/** Upper-case letters and digits on both sides: nothing else may reach the upstream URL. */
export const PAIR_PATTERN = /^[A-Z0-9]{1,12}-[A-Z0-9]{1,12}$/;

export const PricesQuery = Type.Object({
  pairs: Type.Optional(
    Type.String({
      description: `Comma-separated <BASE>-<QUOTE> pairs in upper case, at most ${MAX_PAIRS}; default ${DEFAULT_PAIRS.join(",")}`,
      examples: ["BTC-USD,ETH-USD"],
    }),
  ),
  timeframe: Type.Optional(
    Type.Unsafe<Timeframe>({
      type: "string",
      enum: TIMEFRAME_NAMES,
      description: `Window of the candles; default ${DEFAULT_TIMEFRAME}`,
    }),
  ),
});

const Candle = Type.Object({
  time: Type.String({ format: "date-time", description: "Start of the candle, ISO 8601 UTC" }),
  open: Type.Number(),
  high: Type.Number(),
  low: Type.Number(),
  close: Type.Number(),
  volume: Type.Number(),
});

const PairPrices = Type.Object(
  {
    pair: Type.String(),
    base: Type.String(),
    quote: Type.String(),
    timeframe: Type.String(),
    price: Type.Number({ description: "The latest close" }),
    changePercent: Type.Union([Type.Number(), Type.Null()], {
      description: "(latest close - first open) / first open * 100; null if the first open is 0",
    }),
    candles: Type.Array(Candle, { description: "Oldest first" }),
  },
  { title: "PairPrices", additionalProperties: false },
);

const PairFailure = Type.Object(
  {
    pair: Type.String(),
    error: Type.Object({
      status: Type.Integer({ description: "What this pair alone would have answered: 404, 502, 503 or 504" }),
      detail: Type.String(),
    }),
  },
  { title: "PairFailure", additionalProperties: false },
);

export const PricesResponse = Type.Array(Type.Union([PairPrices, PairFailure]), {
  description:
    "One entry per requested pair, in request order. When every pair fails the whole request answers the first failure as a problem instead.",
});

export const CurrenciesResponse = Type.Array(Type.Object({ id: Type.String(), name: Type.String() }), {
  description: "Online cryptocurrencies, sorted by id",
});
