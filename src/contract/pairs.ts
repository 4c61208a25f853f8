import type { TIMEFRAMES } from "./timeframes.js";

/** A trading pair: <BASE>-<QUOTE> in upper-case letters and digits (the Crypto widget and /api/exchange). */
export const PAIR_PATTERN_SOURCE = "^[A-Z0-9]{1,12}-[A-Z0-9]{1,12}$";
export const PAIR_PATTERN = new RegExp(PAIR_PATTERN_SOURCE);
export const MAX_PAIRS = 10;
export const DEFAULT_PAIRS = ["BTC-USD", "ETH-USD", "SOL-USD"];
export const DEFAULT_TIMEFRAME = "24h" satisfies (typeof TIMEFRAMES)[number];
