import { t } from "../../../web/i18n/i18n";
import { ApiError } from "../../../web/lib/api";
import type { PairPrices, PairResult, Timeframe } from "../../../web/lib/data-api";
import { describeDataError } from "../../../web/widget-kit/data/errors";
import {
  type ALERT_DIRECTIONS,
  type CryptoConfig,
  MAX_PAIRS,
  MAX_PRICE_ALERTS,
  type PriceAlert,
} from "../contract";

export const QUOTES = ["USD", "EUR", "GBP"] as const;

export const baseOf = (pair: string) => pair.split("-")[0] ?? pair;
export const quoteOfPair = (pair: string) => pair.split("-")[1] ?? "USD";

/** The quote the settings panel shows: the first pair's, USD for an empty list. */
export function quoteOf(config: CryptoConfig): string {
  const first = config.pairs[0];
  return first ? quoteOfPair(first) : "USD";
}

/** Every pair re-quoted, keeping order and dropping duplicates. */
export function withQuote(pairs: readonly string[], quote: string): string[] {
  return [...new Set(pairs.map((p) => `${baseOf(p)}-${quote}`))];
}

export function toggleBase(config: CryptoConfig, base: string): CryptoConfig {
  const quote = quoteOf(config);
  const has = config.pairs.some((p) => baseOf(p) === base);
  if (has) return { ...config, pairs: config.pairs.filter((p) => baseOf(p) !== base) };
  if (config.pairs.length >= MAX_PAIRS) return config;
  return { ...config, pairs: [...config.pairs, `${base}-${quote}`] };
}

export type Trend = "up" | "down" | "flat";

export type CryptoRow =
  | {
      kind: "price";
      pair: string;
      base: string;
      quote: string;
      price: number;
      changePercent: number | null;
      trend: Trend;
      closes: number[];
      /** Set when this pair's latest refresh failed and an older price is shown instead. */
      stale?: string;
    }
  | { kind: "error"; pair: string; base: string; detail: string };

/**
 * The server's answer as rows in the configured order; a pair it left out counts as failed. A
 * pair that failed this time but had a price before (`lastGood`) keeps that price, marked stale.
 */
export function cryptoRows(
  pairs: readonly string[],
  results: readonly PairResult[],
  lastGood: ReadonlyMap<string, PairPrices> = new Map(),
): CryptoRow[] {
  const byPair = new Map(results.map((r) => [r.pair, r]));
  return pairs.map((pair): CryptoRow => {
    const result = byPair.get(pair);
    if (!result || "error" in result) {
      const detail =
        result && "error" in result ? pairFailure(result.error.status) : t("widgets.crypto.noAnswer");
      const previous = lastGood.get(pair);
      if (previous) return { ...priceRow(pair, previous), stale: detail };
      return { kind: "error", pair, base: baseOf(pair), detail };
    }
    return priceRow(pair, result);
  });
}

/** Why one pair has no price, from the status it alone would have answered (never the server's words). */
export function pairFailure(status: number): string {
  if (status === 404) return t("widgets.crypto.pairNotListed");
  const code =
    status === 502
      ? "upstream_failed"
      : status === 503
        ? "service_unavailable"
        : status === 504
          ? "upstream_timeout"
          : null;
  const problem = code
    ? { type: "about:blank", title: "", status, detail: "", code: code as "upstream_failed" }
    : null;
  return describeDataError(new ApiError(status, problem, ""), "exchange").trim();
}

function priceRow(pair: string, result: PairPrices): Extract<CryptoRow, { kind: "price" }> {
  const change = result.changePercent;
  return {
    kind: "price",
    pair,
    base: result.base,
    quote: result.quote,
    price: result.price,
    changePercent: change,
    trend: change === null || Math.abs(change) < 0.005 ? "flat" : change > 0 ? "up" : "down",
    closes: result.candles.map((c) => c.close),
  };
}

/** Remembers each pair's latest good answer for one timeframe (the widget keeps it in a ref). */
export function rememberPrices(
  memory: Map<string, PairPrices>,
  results: readonly PairResult[],
): Map<string, PairPrices> {
  for (const r of results) if (!("error" in r)) memory.set(r.pair, r);
  return memory;
}

/** "1W": a timeframe on its button, as finance apps in the reader's language abbreviate it. */
export function timeframeShort(timeframe: Timeframe): string {
  switch (timeframe) {
    case "1h":
      return t("widgets.crypto.timeframeShort.hour");
    case "24h":
      return t("widgets.crypto.timeframeShort.day");
    case "1w":
      return t("widgets.crypto.timeframeShort.week");
    case "1m":
      return t("widgets.crypto.timeframeShort.month");
    case "3m":
      return t("widgets.crypto.timeframeShort.months3");
    case "6m":
      return t("widgets.crypto.timeframeShort.months6");
    case "1y":
      return t("widgets.crypto.timeframeShort.year");
  }
}

/** "the last week": a timeframe inside a sentence ("Change over …"), in the current language. */
export function timeframeName(timeframe: Timeframe): string {
  switch (timeframe) {
    case "1h":
      return t("widgets.crypto.timeframes.hour");
    case "24h":
      return t("widgets.crypto.timeframes.day");
    case "1w":
      return t("widgets.crypto.timeframes.week");
    case "1m":
      return t("widgets.crypto.timeframes.month");
    case "3m":
      return t("widgets.crypto.timeframes.months3");
    case "6m":
      return t("widgets.crypto.timeframes.months6");
    case "1y":
      return t("widgets.crypto.timeframes.year");
  }
}

/** "Last week": a timeframe as a choice of its own (the settings' options). */
export function timeframeOption(timeframe: Timeframe): string {
  switch (timeframe) {
    case "1h":
      return t("widgets.crypto.timeframeOptions.hour");
    case "24h":
      return t("widgets.crypto.timeframeOptions.day");
    case "1w":
      return t("widgets.crypto.timeframeOptions.week");
    case "1m":
      return t("widgets.crypto.timeframeOptions.month");
    case "3m":
      return t("widgets.crypto.timeframeOptions.months3");
    case "6m":
      return t("widgets.crypto.timeframeOptions.months6");
    case "1y":
      return t("widgets.crypto.timeframeOptions.year");
  }
}

/** The contract's upper bound on a price, so a typed one the server would refuse is caught here. */
const MAX_ALERT_PRICE = 1e15;

export type AlertDirection = (typeof ALERT_DIRECTIONS)[number];

/** A price as typed ("65000", "0.42", "65,000.5"): a positive finite number, or null. */
export function parseAlertPrice(text: string): number | null {
  const cleaned = text.trim().replace(/[\s,_]/g, "");
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(cleaned)) return null;
  const value = Number(cleaned);
  return Number.isFinite(value) && value > 0 && value <= MAX_ALERT_PRICE ? value : null;
}

/** Appends an alert; at the limit the config is returned unchanged. Without alerts the key stays out. */
export function addAlert(config: CryptoConfig, alert: PriceAlert): CryptoConfig {
  const alerts = config.alerts ?? [];
  if (alerts.length >= MAX_PRICE_ALERTS) return config;
  return { ...config, alerts: [...alerts, alert] };
}

export function removeAlert(config: CryptoConfig, id: string): CryptoConfig {
  const alerts = (config.alerts ?? []).filter((a) => a.id !== id);
  const { alerts: _old, ...rest } = config;
  return alerts.length > 0 ? { ...rest, alerts } : rest;
}

/** The pairs an alert may watch: the widget's own, plus an alert's pair that has since left the list. */
export function alertPairs(config: CryptoConfig): string[] {
  return [...new Set([...config.pairs, ...(config.alerts ?? []).map((a) => a.pair)])];
}

/** An alert's price exactly as set (4000.5 stays 4000.5), unlike the rounded prices on the widget. */
export function formatAlertPrice(value: number, quote: string, locale?: string): string {
  const digits = { minimumFractionDigits: 0, maximumFractionDigits: 8 };
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency: quote, ...digits }).format(value);
  } catch {
    return `${new Intl.NumberFormat(locale, digits).format(value)} ${quote}`;
  }
}
