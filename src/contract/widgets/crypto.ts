import type { Static } from "@sinclair/typebox";
import { TIMEFRAMES } from "../timeframes.js";
import { Type } from "../typebox.js";
import { defineWidgetType } from "./define.js";
import { Matching, OneOf } from "./fields.js";

/** `<BASE>-<QUOTE>` in upper-case letters and digits: nothing else may reach the exchange's URL. */
export const PAIR_PATTERN_SOURCE = "^[A-Z0-9]{1,12}-[A-Z0-9]{1,12}$";
export const PAIR_PATTERN = new RegExp(PAIR_PATTERN_SOURCE);
export const MAX_PAIRS = 10;
export const DEFAULT_PAIRS = ["BTC-USD", "ETH-USD", "SOL-USD"];
export const DEFAULT_TIMEFRAME = "24h" satisfies (typeof TIMEFRAMES)[number];

const Pair = Matching(PAIR_PATTERN_SOURCE, { clean: (s) => s.trim().toUpperCase() });

export const CryptoConfig = Type.Object({
  /** May end up empty: the widget then asks which currencies to follow. */
  pairs: Type.Array(Pair, { maxItems: MAX_PAIRS, uniqueItems: true, default: DEFAULT_PAIRS }),
  timeframe: OneOf(TIMEFRAMES, { default: DEFAULT_TIMEFRAME }),
});
export type CryptoConfig = Static<typeof CryptoConfig>;

export const cryptoWidget = defineWidgetType({
  type: "Crypto",
  config: CryptoConfig,
  data: {
    kind: "service",
    publicRoute: "prices",
    visitorQuery: (config: CryptoConfig) =>
      config.pairs.length > 0 ? { pairs: config.pairs, timeframe: config.timeframe } : null,
  },
  // `products` is what the original app called the list.
  migrate: (raw) =>
    !Array.isArray(raw.pairs) && Array.isArray(raw.products) ? { ...raw, pairs: raw.products } : raw,
});
