import type { Static } from "@sinclair/typebox";
import { Type } from "../../contract/typebox.js";
import { defineWidgetType } from "../../contract/widget-kit/define.js";
import { Id, ItemList, WebAddress } from "../../contract/widget-kit/fields.js";

/** More feeds than this in one widget is a reader, not a widget; the server fetches them all. */
export const FEEDS_MAX = 8;
export const FEED_ITEMS_MAX = 50;

const FeedSource = Type.Object({
  id: Id("feed"),
  // "blog.example.com/feed" works as typed, like a bookmark's address.
  url: WebAddress(),
});

export const FeedConfig = Type.Object({
  feeds: ItemList(FeedSource, { maxItems: FEEDS_MAX }),
  /** How many of the newest entries, across all feeds, the widget lists. */
  limit: Type.Integer({ minimum: 1, maximum: FEED_ITEMS_MAX, default: 12 }),
});
export type FeedConfig = Static<typeof FeedConfig>;

/** An RSS or Atom reader: the server fetches and caches the feeds (server/). */
export const feedWidget = defineWidgetType({
  type: "Feed",
  server: true,
  config: FeedConfig,
  data: {
    kind: "service",
    publicRoute: "feeds",
    visitorQuery: ({ feeds }: FeedConfig) => (feeds.length ? feeds.map((f) => f.url) : null),
  },
});
