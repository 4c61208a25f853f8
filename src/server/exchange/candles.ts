import type { Candle, Timeframe } from "../../contract/data.js";

/** The candles behind each timeframe a crypto widget can ask for (DESIGN section 5). */
export const CANDLES_PER_TIMEFRAME: Record<Timeframe, { granularity: number; count: number }> = {
  "1h": { granularity: 60, count: 60 },
  "24h": { granularity: 300, count: 288 },
  "1w": { granularity: 3600, count: 168 },
  "1m": { granularity: 21600, count: 120 },
  "3m": { granularity: 86400, count: 90 },
  "6m": { granularity: 86400, count: 180 },
  "1y": { granularity: 86400, count: 365 },
};

/** The exchange answers at most this many candles per request and rejects ranges implying more. */
export const MAX_CANDLES_PER_REQUEST = 300;

export interface Series {
  price: number;
  changePercent: number | null;
  candles: Candle[];
}

/** A [start, end] window in Unix seconds, both bucket starts, inclusive. */
export interface Window {
  start: number;
  end: number;
}

/**
 * The request windows covering the timeframe's candles up to the current bucket, each at most
 * 300 buckets wide counted inclusively, so no page can be refused for implying too many candles.
 */
export function pageWindows(timeframe: Timeframe, nowMs: number): Window[] {
  const { granularity, count } = CANDLES_PER_TIMEFRAME[timeframe];
  const end = Math.floor(nowMs / 1000 / granularity) * granularity;
  const first = end - (count - 1) * granularity;
  const windows: Window[] = [];
  for (let start = first; start <= end; start += MAX_CANDLES_PER_REQUEST * granularity) {
    windows.push({ start, end: Math.min(end, start + (MAX_CANDLES_PER_REQUEST - 1) * granularity) });
  }
  return windows;
}

/**
 * Upstream pages come newest first, may reach before `start` and overlap at their edges:
 * keep rows inside the overall range, one per bucket, oldest first.
 */
export function toSeries(rows: number[][], range: Window): Series | null {
  const byTime = new Map<number, number[]>();
  for (const row of rows) {
    const time = row[0]!;
    if (time >= range.start && time <= range.end) byTime.set(time, row);
  }
  const candles = [...byTime.values()]
    .sort((a, b) => a[0]! - b[0]!)
    .map(([time, low, high, open, close, volume]) => ({
      time: new Date(time! * 1000).toISOString(),
      open: open!,
      high: high!,
      low: low!,
      close: close!,
      volume: volume!,
    }));
  const first = candles[0];
  const last = candles.at(-1);
  if (!first || !last) return null;
  return {
    price: last.close,
    changePercent: first.open === 0 ? null : ((last.close - first.open) / first.open) * 100,
    candles,
  };
}
