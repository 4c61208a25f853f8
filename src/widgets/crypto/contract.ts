import type { Static } from "@sinclair/typebox";
import {
  DEFAULT_PAIRS,
  DEFAULT_TIMEFRAME,
  MAX_PAIRS,
  PAIR_PATTERN,
  PAIR_PATTERN_SOURCE,
} from "../../contract/pairs.js";
import { TIMEFRAMES } from "../../contract/timeframes.js";
import { Type } from "../../contract/typebox.js";
import { type AlertConfigIssue, defineWidgetType } from "../../contract/widget-kit/define.js";
import { Id, Matching, OneOf } from "../../contract/widget-kit/fields.js";
import { isRecord, type RepairKeywords } from "../../contract/widget-kit/parse.js";

// What a pair is belongs to the exchange's API too (src/contract/pairs.ts); the widget shares it.
export { DEFAULT_PAIRS, DEFAULT_TIMEFRAME, MAX_PAIRS, PAIR_PATTERN, PAIR_PATTERN_SOURCE };

const Pair = Matching(PAIR_PATTERN_SOURCE, { clean: (s) => s.trim().toUpperCase() });

export const ALERT_DIRECTIONS = ["above", "below"] as const;
export const MAX_PRICE_ALERTS = 20;

/** An alert when the pair's latest price crosses `price`; re-armed once it crosses back. */
const PriceAlert = Type.Object({
  id: Id("alert"),
  pair: Pair,
  direction: OneOf(ALERT_DIRECTIONS),
  price: Type.Number({ exclusiveMinimum: 0, maximum: 1e15 }),
});
export type PriceAlert = Static<typeof PriceAlert>;
// Ids made unique like any item list's; no default, so a config without alerts stays without.
const ALERT_LIST: RepairKeywords = { uniqueIds: true };

export const CryptoConfig = Type.Object({
  /** May end up empty: the widget then asks which currencies to follow. */
  pairs: Type.Array(Pair, { maxItems: MAX_PAIRS, uniqueItems: true, default: DEFAULT_PAIRS }),
  timeframe: OneOf(TIMEFRAMES, { default: DEFAULT_TIMEFRAME }),
  /** Price alerts, evaluated by the server from the exchange data it already fetches. */
  alerts: Type.Optional(Type.Array(PriceAlert, { maxItems: MAX_PRICE_ALERTS, ...ALERT_LIST })),
});
export type CryptoConfig = Static<typeof CryptoConfig>;

/** Strict checks of `alerts`: a bad alert is refused (400), not silently dropped. */
function checkCrypto(raw: unknown): AlertConfigIssue[] {
  if (!isRecord(raw) || raw.alerts === undefined) return [];
  if (!Array.isArray(raw.alerts)) return [{ path: "/alerts", message: "must be an array" }];
  if (raw.alerts.length > MAX_PRICE_ALERTS)
    return [{ path: "/alerts", message: `must have at most ${MAX_PRICE_ALERTS} items` }];
  const issues: AlertConfigIssue[] = [];
  raw.alerts.forEach((alert, i) => {
    const at = `/alerts/${i}`;
    if (!isRecord(alert)) {
      issues.push({ path: at, message: "must be an object" });
      return;
    }
    if (typeof alert.pair !== "string" || !PAIR_PATTERN.test(alert.pair.trim().toUpperCase()))
      issues.push({ path: `${at}/pair`, message: "must be a pair like BTC-USD" });
    if (!ALERT_DIRECTIONS.includes(alert.direction as never))
      issues.push({ path: `${at}/direction`, message: `must be one of: ${ALERT_DIRECTIONS.join(", ")}` });
    if (typeof alert.price !== "number" || !(alert.price > 0) || alert.price > 1e15)
      issues.push({ path: `${at}/price`, message: "must be a positive number" });
  });
  return issues;
}

export const cryptoWidget = defineWidgetType({
  type: "Crypto",
  server: true,
  config: CryptoConfig,
  data: {
    kind: "service",
    publicRoute: "prices",
    visitorQuery: (config: CryptoConfig) =>
      config.pairs.length > 0 ? { pairs: config.pairs, timeframe: config.timeframe } : null,
  },
  alerts: { watched: (config) => (config.alerts?.length ?? 0) > 0, check: checkCrypto },
  // `products` is what the original app called the list.
  migrate: (raw) =>
    !Array.isArray(raw.pairs) && Array.isArray(raw.products) ? { ...raw, pairs: raw.products } : raw,
});
