import { parseFeed } from "@rowanmanning/feed-parser";
import type { Feed, FeedItem } from "../../../contract/data.js";
import { FEED_ITEMS_MAX } from "../contract.js";

const SUMMARY_MAX = 300;
const TITLE_MAX = 300;
const ID_MAX = 500;
/** As long as an address the app stores; a longer link is left out, not cut (a cut one leads elsewhere). */
const LINK_MAX = 2048;
/** Markup read for one line of text: a 4 MiB description makes no longer a summary. */
const MARKUP_MAX = 64 * 1024;

/** Only http(s) links leave the server; relative ones are read against the feed's own address. */
function link(value: string | null, base: string): string | null {
  if (!value || value.length > LINK_MAX) return null;
  try {
    const url = new URL(value, base);
    if (url.href.length > LINK_MAX) return null;
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * The text between tags, with script and style elements left out, in one pass: the regular
 * expressions this replaced backtracked over every `<` without a `>` after it, so 256 KiB of `<`
 * in one description held the event loop for 47 s. As in HTML, a tag opens with `<` and a letter,
 * `/`, `!` or `?` (so "a < b" stays text), and a tag never closed by `>` is text too.
 */
function stripTags(html: string): string {
  const lower = html.toLowerCase();
  const parts: string[] = [];
  // An element never closed is not searched for again: later searches would fail the same way.
  const unclosed = new Set<string>();
  let at = 0;
  let from = 0;
  for (;;) {
    const open = html.indexOf("<", from);
    if (open === -1) break;
    if (!/[a-z/!?]/.test(lower.charAt(open + 1))) {
      from = open + 1;
      continue;
    }
    const close = html.indexOf(">", open + 2);
    if (close === -1) break;
    parts.push(html.slice(at, open), " ");
    at = from = close + 1;
    const element = /^(script|style)(?=[\s/>])/.exec(lower.slice(open + 1, open + 8))?.[1];
    if (element && !unclosed.has(element)) {
      const end = lower.indexOf(`</${element}>`, at);
      if (end === -1) unclosed.add(element);
      else at = from = end + element.length + 3;
    }
  }
  parts.push(html.slice(at));
  return parts.join("");
}

/**
 * Feeds carry HTML in their descriptions; the widget shows a line of plain text, so tags go and
 * the few entities the parser leaves are read. The web app renders it as text, never as markup.
 */
export function plainText(html: string | null, max: number): string {
  if (!html) return "";
  const text = stripTags(html.slice(0, MARKUP_MAX))
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
      id: (item.id ?? itemUrl ?? `${index}`).slice(0, ID_MAX),
      title: plainText(item.title, TITLE_MAX) || plainText(item.description, 80) || "Untitled",
      url: itemUrl,
      publishedAt: validDate(item.published ?? item.updated),
      summary: plainText(item.description ?? item.content, SUMMARY_MAX),
    };
  });
  // Newest first; entries without a date keep the feed's own order after the dated ones.
  const dated = items.filter((i) => i.publishedAt).sort((a, b) => (a.publishedAt! < b.publishedAt! ? 1 : -1));
  const feed: Feed = {
    url,
    title: plainText(parsed.title, TITLE_MAX) || new URL(url).host,
    siteUrl,
    items: [...dated, ...items.filter((i) => !i.publishedAt)].slice(0, FEED_ITEMS_MAX),
  };
  // A cut string can share the memory of the one it was cut from (V8 keeps the parent whole), so
  // a 500-character id could hold a 4 MiB document in the cache: copied, it holds only itself.
  return JSON.parse(JSON.stringify(feed)) as Feed;
}
