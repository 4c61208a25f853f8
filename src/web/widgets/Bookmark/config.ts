import { asHttpUrl, asId, asString, isRecord, uniqueIds } from "../../lib/parse";

export interface Bookmark {
  id: string;
  title: string;
  url: string;
}
export interface BookmarkConfig {
  bookmarks: Bookmark[];
}

export const defaultBookmarkConfig = (): BookmarkConfig => ({ bookmarks: [] });

/** Entries without a usable http(s) URL are dropped: a bookmark that cannot open is worse than none. */
export function parseBookmarkConfig(raw: unknown): BookmarkConfig {
  if (!isRecord(raw) || !Array.isArray(raw.bookmarks)) return defaultBookmarkConfig();
  const bookmarks: Bookmark[] = [];
  raw.bookmarks.forEach((entry, index) => {
    if (!isRecord(entry)) return;
    // `link` is what older dashboards called the URL.
    const url = asHttpUrl(entry.url) ?? asHttpUrl(entry.link);
    if (!url) return;
    const title = asString(entry.title, "", 200).trim() || hostname(url);
    bookmarks.push({ id: asId(entry.id, "bookmark", index), title, url });
  });
  return { bookmarks: uniqueIds(bookmarks) };
}

export function hostname(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return url;
  }
}

/** The site's own favicon; no third-party icon service learns what people bookmark. */
export function faviconUrl(url: string): string | null {
  try {
    return new URL("/favicon.ico", url).href;
  } catch {
    return null;
  }
}

export function initialOf(bookmark: Pick<Bookmark, "title" | "url">): string {
  const source = bookmark.title.trim() || hostname(bookmark.url);
  return (Array.from(source)[0] ?? "?").toUpperCase();
}

export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || from >= items.length) return [...items];
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(Math.max(0, Math.min(to, next.length)), 0, item as T);
  return next;
}
