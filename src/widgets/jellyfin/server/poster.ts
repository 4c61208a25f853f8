import type { AppContext } from "../../../server/context.js";
import { upstreamFailed } from "../../../server/http/errors.js";
import type { UsableIntegration } from "../../../server/integrations/types.js";
import type { CachePolicy } from "../../../server/upstream/upstream.js";
import { connectionKey } from "./source.js";

/** A poster for a card a few hundred pixels tall; Jellyfin scales it down for us. */
const POSTER_HEIGHT = 360;
const POSTER_MAX_BYTES = 1024 * 1024;

/** A tag names one version of a picture, so a poster is kept as long as the cache lets it. */
export const JELLYFIN_POSTERS: CachePolicy = {
  kind: "jellyfin-poster",
  fresh: 60 * 60_000,
  failuresRemembered: true,
  staleIfError: false,
};

/**
 * Raster formats told by their first bytes, never by Jellyfin's Content-Type: served from our
 * origin, an SVG or an HTML page could carry script.
 */
export function posterType(bytes: Buffer): string | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes.subarray(8, 12).toString("latin1") === "WEBP")
    return "image/webp";
  if (starts(0x47, 0x49, 0x46, 0x38)) return "image/gif";
  return null;
}

/** An item's primary picture through the integration, its key in the header; kept per item and tag. */
export function posterOf(ctx: AppContext, integration: UsableIntegration, itemId: string, tag: string) {
  return ctx.upstream.cached(JELLYFIN_POSTERS, `${connectionKey(integration)}|${itemId}|${tag}`, async () => {
    const response = await ctx.integrations.call(integration, {
      path: `/Items/${itemId}/Images/Primary`,
      query: { tag, maxHeight: String(POSTER_HEIGHT), quality: "85" },
      headers: { accept: "image/webp,image/jpeg,image/png;q=0.9" },
      what: "a poster",
    });
    if (response.status !== 200)
      throw upstreamFailed(`${integration.name} answered ${response.status} for a poster`);
    if (response.bytes.length > POSTER_MAX_BYTES)
      throw upstreamFailed(`${integration.name} sent a poster larger than ${POSTER_MAX_BYTES / 1024} KiB`);
    const type = posterType(response.bytes);
    if (!type) throw upstreamFailed(`${integration.name} sent a poster that is not a JPEG, PNG, WebP or GIF`);
    return { type, bytes: response.bytes };
  });
}
