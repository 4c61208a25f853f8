import type { Static } from "@sinclair/typebox";
import { ICON_ID_PATTERN } from "../../contract/icons.js";
import { Type } from "../../contract/typebox.js";
import { defineWidgetType, mapRecords } from "../../contract/widget-kit/define.js";
import { hostname, Id, ItemList, Matching, Text, WebAddress } from "../../contract/widget-kit/fields.js";

const Bookmark = Type.Object({
  id: Id("bookmark"),
  // A bookmark without a usable http(s) address is dropped: one that cannot open is worse than
  // none. "nas.lan:5000" and "192.168.1.10:8989" are addresses too (stored with http://).
  url: WebAddress(),
  title: Text({ maxLength: 200, trim: true, default: "" }),
  // A bundled icon ("si:jellyfin", see contract/icons.ts) shown instead of the site's favicon.
  // Absent (or unusable, then dropped) means: the favicon our server fetches, else the initial.
  icon: Type.Optional(
    Matching(ICON_ID_PATTERN, {
      description: 'A bundled icon, e.g. "si:jellyfin"',
      clean: (s) => s.trim().toLowerCase(),
    }),
  ),
});

export const BookmarkConfig = Type.Object({ bookmarks: ItemList(Bookmark) });
export type BookmarkConfig = Static<typeof BookmarkConfig>;
export type Bookmark = BookmarkConfig["bookmarks"][number];

export const bookmarkWidget = defineWidgetType({
  type: "Bookmark",
  server: true,
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
