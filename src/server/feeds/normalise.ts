import { parseFeed } from "@rowanmanning/feed-parser";
import type { Feed, FeedItem } from "../../contract/data.js";
import { FEED_ITEMS_MAX } from "../../contract/widgets/feed.js";

const SUMMARY_MAX = 300;
const TITLE_MAX = 300;

/** Only http(s) links leave the server; relative ones are read against the feed's own address. */
function link(value: string | null, base: string): string | null {
  if (!value) return null;
  try {
    const url = new URL(value, base);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Feeds carry HTML in their descriptions; the widget shows a line of plain text, so tags go and
 * the few entities the parser leaves are read. The web app renders it as text, never as markup.
 */
export function plainText(html: string | null, max: number): string {
  if (!html) return "";
  const text = html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&(amp|lt|gt|quot|#39|apos);/g, (_, name: string) =>
      name === "amp" ? "&" : name === "lt" ? "<" : name === "gt" ? ">" : name === "quot" ? '"' : "'",
    )
    .replace(/\s+/g, " ")
    .trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

const validDate = (date: Date | null) =>
  date && Number.isFinite(date.getTime()) ? date.toISOString() : null;

/** An RSS or Atom document as the widget reads it; throws when it is neither. */
export function normaliseFeed(url: string, xml: string): Feed {
  const parsed = parseFeed(xml);
  const siteUrl = link(parsed.url, url);
  const items: FeedItem[] = parsed.items.map((item, index) => {
    const itemUrl = link(item.url, siteUrl ?? url);
    return {
      id: (item.id ?? itemUrl ?? `${index}`).slice(0, 500),
      title: plainText(item.title, TITLE_MAX) || plainText(item.description, 80) || "Untitled",
      url: itemUrl,
      publishedAt: validDate(item.published ?? item.updated),
      summary: plainText(item.description ?? item.content, SUMMARY_MAX),
    };
  });
  // Newest first; entries without a date keep the feed's own order after the dated ones.
  const dated = items.filter((i) => i.publishedAt).sort((a, b) => (a.publishedAt! < b.publishedAt! ? 1 : -1));
  return {
    url,
    title: plainText(parsed.title, TITLE_MAX) || new URL(url).host,
    siteUrl,
    items: [...dated, ...items.filter((i) => !i.publishedAt)].slice(0, FEED_ITEMS_MAX),
  };
}
