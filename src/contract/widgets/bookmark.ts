import type { Static } from "@sinclair/typebox";
import { Type } from "../typebox.js";
import { defineWidgetType, mapRecords } from "./define.js";
import { hostname, Id, ItemList, Text, WebAddress } from "./fields.js";

const Bookmark = Type.Object({
  id: Id("bookmark"),
  // A bookmark without a usable http(s) address is dropped: one that cannot open is worse than
  // none. "nas.lan:5000" and "192.168.1.10:8989" are addresses too (stored with http://).
  url: WebAddress(),
  title: Text({ maxLength: 200, trim: true, default: "" }),
});

export const BookmarkConfig = Type.Object({ bookmarks: ItemList(Bookmark) });
export type BookmarkConfig = Static<typeof BookmarkConfig>;
export type Bookmark = BookmarkConfig["bookmarks"][number];

export const bookmarkWidget = defineWidgetType({
  type: "Bookmark",
  config: BookmarkConfig,
  data: { kind: "config" },
  // `link` is what older dashboards called the URL.
  migrate: (raw) => ({
    ...raw,
    bookmarks: mapRecords(raw.bookmarks, (b) => (b.url === undefined ? { ...b, url: b.link } : b)),
  }),
  // A bookmark without a title is named after its site.
  refine: (config) => ({
    bookmarks: config.bookmarks.map((b) => (b.title ? b : { ...b, title: hostname(b.url).slice(0, 200) })),
  }),
});
