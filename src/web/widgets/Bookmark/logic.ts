import type { Bookmark } from "../../../contract/widgets/bookmark";
import { hostname } from "../../../contract/widgets/fields";

/**
 * The site's own favicon; no third-party icon service learns what people bookmark. Always over
 * https: the app's Content-Security-Policy loads images from https only (a site without it shows
 * its initial instead).
 */
export function faviconUrl(url: string): string | null {
  try {
    const icon = new URL("/favicon.ico", url);
    if (icon.protocol !== "https:" && icon.protocol !== "http:") return null;
    icon.protocol = "https:";
    return icon.href;
  } catch {
    return null;
  }
}

export function initialOf(bookmark: Pick<Bookmark, "title" | "url">): string {
  const source = bookmark.title.trim() || hostname(bookmark.url);
  return (Array.from(source)[0] ?? "?").toUpperCase();
}
