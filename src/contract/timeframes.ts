/** Timeframes a crypto widget can show (DESIGN section 5); kept apart so the web app imports no schema code. */
export const TIMEFRAMES = ["1h", "24h", "1w", "1m", "3m", "6m", "1y"] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];
