import type { Static, TSchema } from "@sinclair/typebox";
import { Type } from "../../contract/typebox.js";
import { defineWidgetType } from "../../contract/widget-kit/define.js";
import { Matching } from "../../contract/widget-kit/fields.js";

/**
 * The qBittorrent widget (DESIGN section 16): transfer speeds and the torrents moving data now,
 * through a saved `qbittorrent` integration (its password or key stays on the server).
 */

export const QBT_TORRENTS_SHOWN_MIN = 1;
export const QBT_TORRENTS_SHOWN_MAX = 50;
export const QBT_TORRENTS_SHOWN_DEFAULT = 8;
/** Speeds change by the second; the server keeps an answer 5 s, the page asks every 10. */
export const QBT_REFRESH_MS = 10_000;

const UUID = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

export const QbittorrentConfig = Type.Object({
  /** A saved integration of kind `qbittorrent` the widget's owner may use. */
  integrationId: Type.Optional(Matching(UUID, { clean: (s) => s.toLowerCase() })),
  /** How many of the active torrents are listed (the counts cover them all). */
  torrentsShown: Type.Integer({
    minimum: QBT_TORRENTS_SHOWN_MIN,
    maximum: QBT_TORRENTS_SHOWN_MAX,
    default: QBT_TORRENTS_SHOWN_DEFAULT,
  }),
});
export type QbittorrentConfig = Static<typeof QbittorrentConfig>;

export interface QbittorrentQuery {
  integrationId: string;
  torrentsShown: number;
}

/**
 * What a torrent is doing, from qBittorrent's many states (5.x names; 4.x's `pausedDL` and
 * `pausedUP` read as stopped): the words and colours the view shows.
 */
export const QBT_STATE_GROUPS = [
  "downloading",
  "seeding",
  "stalled",
  "queued",
  "checking",
  "metadata",
  "moving",
  "stopped",
  "error",
  "unknown",
] as const;
export type QbStateGroup = (typeof QBT_STATE_GROUPS)[number];

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const QbTorrentSchema = Type.Object({
  hash: Type.String(),
  name: Type.String(),
  /** 0 to 1. */
  progress: Type.Number(),
  /** Bytes per second. */
  downloadSpeed: Type.Number(),
  uploadSpeed: Type.Number(),
  /** Seconds until done; null when qBittorrent cannot tell (its 8640000) or it is done. */
  eta: Nullable(Type.Number()),
  /** Total size in bytes. */
  size: Type.Number(),
  /** qBittorrent's own state name (`downloading`, `stalledDL`, `forcedUP`…). */
  state: Type.String(),
  group: Type.Union(QBT_STATE_GROUPS.map((g) => Type.Literal(g))),
});
export type QbTorrent = Static<typeof QbTorrentSchema>;

export const QbittorrentDataSchema = Type.Object(
  {
    transfer: Type.Object({
      /** Bytes per second, all torrents together. */
      downloadSpeed: Type.Number(),
      uploadSpeed: Type.Number(),
      /** Bytes moved since qBittorrent started. */
      downloaded: Type.Number(),
      uploaded: Type.Number(),
      /** Bytes per second; null when there is no limit. */
      downloadLimit: Nullable(Type.Number()),
      uploadLimit: Nullable(Type.Number()),
      connection: Type.Union([
        Type.Literal("connected"),
        Type.Literal("firewalled"),
        Type.Literal("disconnected"),
        Type.Literal("unknown"),
      ]),
    }),
    /** The torrents moving data now (qBittorrent's `active` filter), by what they do. */
    counts: Type.Object({
      active: Type.Integer(),
      downloading: Type.Integer(),
      seeding: Type.Integer(),
    }),
    /** True when there were more active torrents than the server reads: the counts are a floor. */
    countsAtLeast: Type.Boolean(),
    /** The first `torrentsShown`: downloads first (fastest first), then uploads. */
    torrents: Type.Array(QbTorrentSchema),
  },
  { description: "Transfer speeds and the active torrents of a qBittorrent widget" },
);
export type QbittorrentData = Static<typeof QbittorrentDataSchema>;

export const qbittorrentWidget = defineWidgetType({
  type: "qBittorrent",
  server: true,
  config: QbittorrentConfig,
  data: {
    kind: "service",
    publicRoute: "qbittorrent",
    visitorQuery: ({ integrationId, torrentsShown }: QbittorrentConfig): QbittorrentQuery | null =>
      integrationId ? { integrationId, torrentsShown } : null,
  },
});
