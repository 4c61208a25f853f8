import { hostname } from "../../../contract/widget-kit/fields";
import type { Bookmark } from "../contract";

/**
 * The site's own favicon; no third-party icon service learns what people bookmark. Always over
 * https: the app's Content-Security-Policy loads images from https only (a site without it shows
 * its initial instead).
 */
/**
 * The bookmark's site icon, fetched by our server (GET /api/icons/site): the browser never asks
 * the site or a third-party icon service, which would learn what is on whose dashboard.
 */
export function faviconUrl(url: string): string | null {
  try {
    const { protocol, origin } = new URL(url);
    if (protocol !== "https:" && protocol !== "http:") return null;
    return `/api/icons/site?url=${encodeURIComponent(origin)}`;
  } catch {
    return null;
  }
}

export function initialOf(bookmark: Pick<Bookmark, "title" | "url">): string {
  const source = bookmark.title.trim() || hostname(bookmark.url);
  return (Array.from(source)[0] ?? "?").toUpperCase();
}

/** WCAG relative luminance of a #RRGGBB colour (given without the #). */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
}

const LIGHT_GLYPH = "#ffffff";
const DARK_GLYPH = "#111111";

/**
 * The glyph colour on a tile of the brand's colour: white or near-black, whichever contrasts
 * more (always at least 4.5:1). The tile carries the brand, the glyph stays legible, and neither
 * depends on the light or dark theme around it (a black logo would vanish on a dark page).
 */
export function glyphColour(hex: string): string {
  const l = luminance(hex);
  const onWhite = 1.05 / (l + 0.05);
  const onDark = (l + 0.05) / (luminance(DARK_GLYPH.slice(1)) + 0.05);
  return onWhite >= onDark ? LIGHT_GLYPH : DARK_GLYPH;
}

/** The contrast ratio of two #RRGGBB colours (without #), for tests and checks. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * What the icon search is told about a bookmark: "<host> <title>", so the server can suggest
 * the icon of the app it links ("jellyfin.home.lan:8096" → Jellyfin).
 */
export function iconHint(bookmark: { title: string; url: string }): string {
  const host = bookmark.url ? hostname(bookmark.url) : "";
  return `${host.includes(" ") ? "" : host} ${bookmark.title.trim()}`.trim();
}
