import { PREVIEW_MAX_BYTES } from "../../contract/integrations.js";

/** Lists kept at most this long, tried in turn until the preview fits. */
const LIST_LENGTHS = [100, 25, 10, 3, 1] as const;
const TEXT_MAX = 500;
const DEPTH_MAX = 12;

/**
 * The service's JSON cut to fit the preview (PREVIEW_MAX_BYTES): the settings form shows it so a
 * person can pick values, which needs the shape, not every item. Lists keep their first items,
 * long texts their start, deep nesting its first levels.
 */
export function fitPreview(json: unknown): { json: unknown; truncated: boolean } {
  if (Buffer.byteLength(JSON.stringify(json) ?? "null") <= PREVIEW_MAX_BYTES)
    return { json, truncated: false };
  for (const length of LIST_LENGTHS) {
    const cut = prune(json, length, 0);
    if (Buffer.byteLength(JSON.stringify(cut) ?? "null") <= PREVIEW_MAX_BYTES)
      return { json: cut, truncated: true };
  }
  // Even one item per list is too much (an object of thousands of keys): the first keys.
  return { json: prune(json, 1, 0, 200), truncated: true };
}

function prune(value: unknown, listMax: number, depth: number, keysMax = Number.POSITIVE_INFINITY): unknown {
  if (typeof value === "string") return value.length > TEXT_MAX ? `${value.slice(0, TEXT_MAX)}…` : value;
  if (value === null || typeof value !== "object") return value;
  if (depth >= DEPTH_MAX) return Array.isArray(value) ? [] : {};
  if (Array.isArray(value))
    return value.slice(0, listMax).map((item) => prune(item, listMax, depth + 1, keysMax));
  const out: Record<string, unknown> = {};
  let kept = 0;
  for (const [key, item] of Object.entries(value)) {
    if (kept++ >= keysMax) break;
    out[key] = prune(item, listMax, depth + 1, keysMax);
  }
  return out;
}
