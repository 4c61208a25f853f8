/**
 * The fake exchange's market: a currency list shaped like the real `/currencies` and a
 * deterministic candle for every (product, bucket), so tests can compute what they should get.
 */

const crypto = (id: string, name: string, status = "online") => ({
  id,
  name,
  min_size: "0.00000001",
  status,
  message: "",
  max_precision: "0.00000001",
  convertible_to: [],
  details: { type: "crypto", symbol: "", network_confirmations: 2, sort_order: 3 },
  default_network: id.toLowerCase(),
  supported_networks: [],
});
const fiat = (id: string, name: string) => ({
  id,
  name,
  min_size: "0.01",
  status: "online",
  message: "",
  max_precision: "0.01",
  convertible_to: [],
  details: { type: "fiat", symbol: "$", sort_order: 0 },
});

/** Deliberately unsorted, with fiat, offline, delisted and untyped entries to filter out. */
export const CURRENCIES: Record<string, unknown>[] = [
  crypto("SOL", "Solana"),
  fiat("USD", "United States Dollar"),
  crypto("BTC", "Bitcoin"),
  crypto("MATIC", "Polygon", "offline"),
  crypto("ETH", "Ethereum"),
  crypto("XRP", "XRP"),
  fiat("EUR", "Euro"),
  crypto("ADA", "Cardano"),
  crypto("LUNA", "Terra", "delisted"),
  crypto("DOGE", "Dogecoin"),
  { id: "WEIRD", name: "No details", status: "online" },
  crypto("LTC", "Litecoin"),
  crypto("DOT", "Polkadot"),
  crypto("AVAX", "Avalanche"),
  fiat("GBP", "British Pound"),
  crypto("LINK", "Chainlink"),
  crypto("UNI", "Uniswap"),
  crypto("ATOM", "Cosmos"),
  crypto("00", "00 Token"),
];

/** What GET /api/exchange/currencies should answer for CURRENCIES. */
export const EXPECTED_CURRENCIES = CURRENCIES.filter(
  (c) => c.status === "online" && (c.details as { type?: string } | undefined)?.type === "crypto",
)
  .map((c) => ({ id: c.id as string, name: c.name as string }))
  .sort((a, b) => (a.id < b.id ? -1 : 1));

export const PRODUCTS = new Set(
  EXPECTED_CURRENCIES.flatMap(({ id }) => [`${id}-USD`, `${id}-EUR`]).concat("MATIC-USD"),
);

export const GRANULARITIES = new Set([60, 300, 900, 3600, 21600, 86400]);

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function priceAt(product: string, time: number): number {
  const base = 1 + (hash(product) % 50_000);
  const wave = Math.sin((time / 86_400) * 0.9 + (hash(product) % 7));
  const noise = (hash(`${product}@${time}`) % 1000) / 1000 - 0.5;
  return Math.round(base * (1 + 0.05 * wave + 0.004 * noise) * 100) / 100;
}

/** The exchange's row for a bucket: `[time, low, high, open, close, volume]`. */
export function candleRow(product: string, time: number, granularity: number): number[] {
  const open = priceAt(product, time);
  const close = priceAt(product, time + granularity);
  const high = Math.round(Math.max(open, close) * 100.2) / 100;
  const low = Math.round(Math.min(open, close) * 99.8) / 100;
  const volume = 1 + (hash(`${product}#${time}`) % 100_000) / 100;
  return [time, low, high, open, close, volume];
}
