import type { Currency } from "../../contract/data.js";
import type { ExchangeCurrency } from "../upstream/sources/exchange.js";

/**
 * The exchange's `/currencies` reduced to what widgets offer: online cryptocurrencies, by id.
 * Entries without a type are simply not known to be crypto.
 */
export function onlineCrypto(list: ExchangeCurrency[]): Currency[] {
  const out: Currency[] = [];
  for (const { id, name, status, details } of list) {
    if (status === "online" && details?.type === "crypto")
      out.push({ id, name: typeof name === "string" ? name : id });
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
