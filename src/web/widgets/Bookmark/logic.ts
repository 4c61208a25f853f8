import type { Bookmark } from "../../../contract/widgets/bookmark";
import { hostname } from "../../../contract/widgets/fields";

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
