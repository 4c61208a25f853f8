import type { Static, TSchema } from "@sinclair/typebox";
import { Type } from "../../contract/typebox.js";
import { defineWidgetType } from "../../contract/widget-kit/define.js";
import { Matching } from "../../contract/widget-kit/fields.js";

/**
 * The Jellyfin widget (DESIGN section 16): who is watching what now, and the latest additions with
 * their posters, through a saved `jellyfin` integration. The API key stays on the server: posters
 * are fetched by it and served from our origin (/api/jellyfin/posters/…), never linked to
 * Jellyfin with the key in the address.
 */

export const JELLYFIN_LATEST_MIN = 1;
export const JELLYFIN_LATEST_MAX = 16;
export const JELLYFIN_LATEST_DEFAULT = 8;
/** Sessions listed at most: a household, not a hotel. */
export const JELLYFIN_SESSIONS_MAX = 20;
/** Playback moves on by the second; the server keeps sessions 10 s, the page asks every 15. */
export const JELLYFIN_REFRESH_MS = 15_000;

/** A Jellyfin id (a Guid): 32 hex digits, as Jellyfin writes them; dashes are dropped when typed. */
export const JELLYFIN_ID_PATTERN = "^[0-9a-f]{32}$";
/** An image tag Jellyfin hands out (a hash in hex). */
export const JELLYFIN_TAG_PATTERN = "^[0-9a-f]{1,64}$";

const UUID = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";
export const jellyfinIdOf = (s: string) => s.trim().replaceAll("-", "").toLowerCase();

export const JellyfinConfig = Type.Object({
  /** A saved integration of kind `jellyfin` the widget's owner may use. */
  integrationId: Type.Optional(Matching(UUID, { clean: (s) => s.toLowerCase() })),
  /**
   * The Jellyfin user whose latest additions are shown (their libraries, their parental limits):
   * an API key belongs to no user. Absent: the first administrator.
   */
  userId: Type.Optional(Matching(JELLYFIN_ID_PATTERN, { clean: jellyfinIdOf })),
  showLatest: Type.Boolean({ default: true }),
  latestCount: Type.Integer({
    minimum: JELLYFIN_LATEST_MIN,
    maximum: JELLYFIN_LATEST_MAX,
    default: JELLYFIN_LATEST_DEFAULT,
  }),
  /** Who watches on which device; visitors of a public dashboard never see these. */
  showUsers: Type.Boolean({ default: true }),
});
export type JellyfinConfig = Static<typeof JellyfinConfig>;

export interface JellyfinQuery {
  integrationId: string;
  userId?: string;
  /** 0: no latest additions. */
  latest: number;
  users: boolean;
}

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const JellyfinPlayingSchema = Type.Object({
  /** Jellyfin's session id. */
  id: Type.String(),
  /** null when the widget hides who watches. */
  user: Nullable(Type.String()),
  device: Nullable(Type.String()),
  client: Nullable(Type.String()),
  /** The film, or the series for an episode, the album's track… */
  title: Type.String(),
  /** For an episode: its season, number and name (the series is the title); null otherwise. */
  episode: Nullable(
    Type.Object({ season: Nullable(Type.Integer()), number: Nullable(Type.Integer()), name: Type.String() }),
  ),
  /** For music: the artists; null otherwise. */
  artist: Nullable(Type.String()),
  /** Movie, Episode, Audio…: Jellyfin's item type. */
  type: Type.String(),
  positionSeconds: Type.Number(),
  runtimeSeconds: Nullable(Type.Number()),
  /** 0 to 1; null when the length is unknown (live TV). */
  progress: Nullable(Type.Number()),
  paused: Type.Boolean(),
  /** Jellyfin converts it for the device (PlayMethod Transcode): the server works for it. */
  transcoding: Type.Boolean(),
});
export type JellyfinPlaying = Static<typeof JellyfinPlayingSchema>;

export const JellyfinLatestSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  /** Movie, Episode, Series (several new episodes of it)… */
  type: Type.String(),
  seriesName: Nullable(Type.String()),
  year: Nullable(Type.Integer()),
  season: Nullable(Type.Integer()),
  number: Nullable(Type.Integer()),
  /** New episodes of a series, when Jellyfin grouped them. */
  count: Nullable(Type.Integer()),
  /** Its poster (an episode's is its series'), served by our server; null when it has none. */
  poster: Nullable(
    Type.Object({
      itemId: Type.String({ pattern: JELLYFIN_ID_PATTERN }),
      tag: Type.String({ pattern: JELLYFIN_TAG_PATTERN }),
    }),
  ),
});
export type JellyfinLatest = Static<typeof JellyfinLatestSchema>;

export const JellyfinDataSchema = Type.Object(
  {
    nowPlaying: Type.Array(JellyfinPlayingSchema),
    /** Sessions playing, before the list was cut to JELLYFIN_SESSIONS_MAX. */
    playingTotal: Type.Integer(),
    /** null when the widget does not show them. */
    latest: Nullable(Type.Array(JellyfinLatestSchema)),
    /** The Jellyfin user the latest additions are for; null when hidden or not shown. */
    latestFor: Nullable(Type.String()),
  },
  { description: "What plays on a Jellyfin server now, and its latest additions" },
);
export type JellyfinData = Static<typeof JellyfinDataSchema>;

export const jellyfinWidget = defineWidgetType({
  type: "Jellyfin",
  server: true,
  config: JellyfinConfig,
  data: {
    kind: "service",
    publicRoute: "jellyfin",
    visitorQuery: ({
      integrationId,
      userId,
      showLatest,
      latestCount,
      showUsers,
    }: JellyfinConfig): JellyfinQuery | null =>
      integrationId
        ? {
            integrationId,
            ...(userId ? { userId } : {}),
            latest: showLatest ? latestCount : 0,
            users: showUsers,
          }
        : null,
  },
  // Who in the household watches what is theirs: a public page shows the titles only.
  publicConfig: (config) => ({ ...config, showUsers: false }),
});
