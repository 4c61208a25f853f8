import type { Currency } from "../../contract/data.js";

/**
 * The exchange's `/currencies` reduced to what widgets offer: online cryptocurrencies, by id.
 * Only `id`, `name`, `status` and `details.type` are relied on; entries without a type are
 * simply not known to be crypto. Null when the body is not a list of currencies at all.
 */
export function onlineCrypto(body: unknown): Currency[] | null {
  if (!Array.isArray(body)) return null;
  const out: Currency[] = [];
  for (const entry of body) {
    if (typeof entry !== "object" || entry === null) return null;
    const { id, name, status, details } = entry as Record<string, unknown>;
    if (typeof id !== "string") return null;
    const type = (details as { type?: unknown } | null | undefined)?.type;
    if (status === "online" && type === "crypto")
      out.push({ id, name: typeof name === "string" ? name : id });
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
