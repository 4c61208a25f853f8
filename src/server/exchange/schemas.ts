import { Type } from "@sinclair/typebox";
import { TIMEFRAMES, type Timeframe } from "../../contract/data.js";
import { DEFAULT_PAIRS, DEFAULT_TIMEFRAME, MAX_PAIRS } from "../../contract/pairs.js";

export { DEFAULT_PAIRS, DEFAULT_TIMEFRAME, MAX_PAIRS, PAIR_PATTERN } from "../../contract/pairs.js";

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
      enum: [...TIMEFRAMES],
      description: `Window of the candles; default ${DEFAULT_TIMEFRAME}`,
    }),
  ),
});
