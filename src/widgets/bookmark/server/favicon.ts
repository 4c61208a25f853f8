import type { CachePolicy, Upstream } from "../../../server/upstream/upstream.js";

/** Larger than any favicon worth showing at 20 px. */
const ICON_MAX_BYTES = 256 * 1024;
/** Icons named by a page's <link> tags that are tried before giving up. */
const LINKED_TRIES = 3;

/** A site without a usable icon is a value (null), kept as long as an icon; failures are not kept. */
export const SITE_ICONS: CachePolicy = {
  kind: "favicon",
  fresh: "favicon",
  failuresRemembered: false,
  staleIfError: false,
};

export interface SiteIcon {
  type: string;
  bytes: Buffer;
}

/**
 * Raster formats told by their first bytes, never by the site's Content-Type: an SVG (or an HTML
 * page sent as image/x-icon) served from our origin could carry script, so only these pass.
 */
export function rasterType(bytes: Buffer): string | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return "image/png";
  if (starts(0x00, 0x00, 0x01, 0x00)) return "image/x-icon";
  if (starts(0x47, 0x49, 0x46, 0x38)) return "image/gif";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes.subarray(8, 12).toString("latin1") === "WEBP")
    return "image/webp";
  return null;
}

/** The icons a page names (`rel="icon"`, `shortcut icon`, `apple-touch-icon`), as absolute URLs. */
export function linkedIcons(html: string, pageUrl: string): string[] {
  const out: string[] = [];
  for (const [tag] of html.slice(0, 200_000).matchAll(/<link\b[^>]*>/gi)) {
    const rel = /\brel\s*=\s*["']?([^"'>]+)/i.exec(tag)?.[1]?.toLowerCase() ?? "";
    const href = /\bhref\s*=\s*["']?([^"'\s>]+)/i.exec(tag)?.[1];
    if (!href || !rel.split(/\s+/).some((r) => r === "icon" || r === "apple-touch-icon")) continue;
    try {
      const url = new URL(href.replaceAll("&amp;", "&"), pageUrl);
      if (url.protocol === "http:" || url.protocol === "https:") out.push(url.href);
    } catch {
      // A broken href names no icon.
    }
  }
  return out;
}

/**
 * A site's icon, fetched by the server so the browser never asks third parties (who would learn
 * what is on whose dashboard): /favicon.ico first, then the icons the home page links. Through
 * the upstream layer (its address guard applies to every hop), cached per origin; a site without
 * a usable icon is remembered as such (null) for the same time.
 */
export function createFaviconReader(upstream: Upstream) {
  const image = async (url: string): Promise<SiteIcon | null> => {
    const response = await upstream.fetch({
      url,
      service: new URL(url).host,
      what: "its icon",
      headers: { accept: "image/avif,image/webp,image/png,image/x-icon,image/*;q=0.8" },
    });
    if (response.status !== 200 || response.bytes.length > ICON_MAX_BYTES) return null;
    const type = rasterType(response.bytes);
    return type ? { type, bytes: response.bytes } : null;
  };

  const load = async (origin: string): Promise<SiteIcon | null> => {
    const direct = await image(`${origin}/favicon.ico`).catch(() => null);
    if (direct) return direct;
    const page = await upstream.fetch({
      url: `${origin}/`,
      service: new URL(origin).host,
      what: "its home page",
      headers: { accept: "text/html" },
    });
    if (page.status !== 200) return null;
    for (const url of linkedIcons(page.text, `${origin}/`).slice(0, LINKED_TRIES)) {
      const found = await image(url).catch(() => null);
      if (found) return found;
    }
    return null;
  };

  return {
    /** The icon of the site `url` belongs to, or null when it has none we can show. */
    read(url: URL): Promise<SiteIcon | null> {
      return upstream.cached(SITE_ICONS, url.origin, () => load(url.origin));
    },
  };
}
