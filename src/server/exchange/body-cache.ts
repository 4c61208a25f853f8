import { gzipSync } from "node:zlib";

export interface Body {
  /** What the body was built from: cached entries (and remembered failures), compared by identity. */
  parts: readonly unknown[];
  json: string;
  gzip: Buffer | null;
}

/**
 * A crowd asking for the same pairs within the freshness window gets the same cached entries, so
 * it gets the same bytes too: the answer (about 100 KB for three days of 5-minute candles) is
 * serialized once, and gzipped once on first demand, instead of once per request.
 */
export function createBodyCache(maxEntries = 500) {
  const bodies = new Map<string, Body>();
  return {
    get(key: string, parts: readonly unknown[], build: () => string): Body {
      const hit = bodies.get(key);
      if (hit && hit.parts.length === parts.length && hit.parts.every((part, i) => part === parts[i]))
        return hit;
      const body: Body = { parts, json: build(), gzip: null };
      bodies.delete(key);
      bodies.set(key, body);
      if (bodies.size > maxEntries) bodies.delete(bodies.keys().next().value!);
      return body;
    },
    gzipped(body: Body): Buffer {
      body.gzip ??= gzipSync(body.json);
      return body.gzip;
    },
  };
}

/** Whether the client takes gzip (every browser does); `gzip;q=0` is a refusal. */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(",") : (header ?? "");
  return value.split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    return coding === "gzip" && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
  });
}
