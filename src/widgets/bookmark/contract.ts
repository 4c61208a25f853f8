import type { Static, TSchema } from "@sinclair/typebox";
import { ICON_ID_PATTERN } from "../../contract/icons.js";
import { Type } from "../../contract/typebox.js";
import { defineWidgetType, mapRecords } from "../../contract/widget-kit/define.js";
import { hostname, Id, ItemList, Matching, Text, WebAddress } from "../../contract/widget-kit/fields.js";

const UUID = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

/** Links that may show a status dot, per widget: each is checked when the widget is read. */
export const BOOKMARK_STATUS_MAX = 20;

/** One of the owner's Status checks, named by its widget and the target's id in that widget's config. */
const StatusCheckRef = Type.Object({
  widgetId: Matching(UUID, { clean: (s) => s.toLowerCase() }),
  checkId: Type.String({ minLength: 1, maxLength: 100 }),
});
export type StatusCheckRef = Static<typeof StatusCheckRef>;

/**
 * A link's status dot, like a Homarr app tile's: `"self"` checks the link's own address (HEAD,
 * GET when refused, through the address guard, kept 30 s); a check names one of the owner's
 * Status widget checks and shows what its watch pass recorded. Absent (or "off"): no dot, so
 * bookmarks saved before dots existed read unchanged.
 */
const LinkStatus = Type.Union([Type.Literal("self"), StatusCheckRef]);
export type LinkStatus = Static<typeof LinkStatus>;

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
  status: Type.Optional(LinkStatus),
});

export const BookmarkConfig = Type.Object({ bookmarks: ItemList(Bookmark) });
export type BookmarkConfig = Static<typeof BookmarkConfig>;
export type Bookmark = BookmarkConfig["bookmarks"][number];

/** What the server checks for a config: the links that show a dot, and how each is checked. */
export interface BookmarkStatusQuery {
  links: { id: string; url: string; status: LinkStatus }[];
}

/** The dots a parsed config asks for (the first BOOKMARK_STATUS_MAX); null when none. */
export function statusQueryOf({ bookmarks }: BookmarkConfig): BookmarkStatusQuery | null {
  const links = bookmarks
    .flatMap((b) => (b.status ? [{ id: b.id, url: b.url, status: b.status }] : []))
    .slice(0, BOOKMARK_STATUS_MAX);
  return links.length > 0 ? { links } : null;
}

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const LINK_STATES = ["up", "down", "unknown"] as const;
export type LinkState = (typeof LINK_STATES)[number];

/**
 * Why a dot is not green: `http` (answered, with a status that means it is not serving),
 * `timeout`, `unreachable`, `not-allowed` (a private address the server may not reach),
 * `not-checked` (the named check has no result yet), `no-check` (the named check is gone, or not
 * the owner's).
 */
export const LINK_REASONS = [
  "http",
  "timeout",
  "unreachable",
  "not-allowed",
  "not-checked",
  "no-check",
] as const;
export type LinkReason = (typeof LINK_REASONS)[number];

export const LinkStatusResultSchema = Type.Object({
  /** The bookmark's id. */
  id: Type.String(),
  state: Type.Union(LINK_STATES.map((s) => Type.Literal(s))),
  reason: Nullable(Type.Union(LINK_REASONS.map((r) => Type.Literal(r)))),
  httpStatus: Nullable(Type.Integer()),
  latencyMs: Nullable(Type.Integer()),
  /** When it was checked, ISO 8601 UTC; null before the first check. */
  checkedAt: Nullable(Type.String()),
});
export type LinkStatusResult = Static<typeof LinkStatusResultSchema>;

export const BookmarkStatusDataSchema = Type.Object(
  {
    /**
     * The links with a dot, in the widget's order. A visitor of a public page gets only the dots
     * that reveal nothing private (see the server's status.ts): the others are left out.
     */
    links: Type.Array(LinkStatusResultSchema),
  },
  { description: "The status dots of a Bookmark widget's links" },
);
export type BookmarkStatusData = Static<typeof BookmarkStatusDataSchema>;

export const bookmarkWidget = defineWidgetType({
  type: "Bookmark",
  server: true,
  config: BookmarkConfig,
  // The links and icons are the config's own. The optional dots are read from routes of the
  // type's own (server/status-routes.ts), so a Bookmark stays a widget of its config alone.
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
