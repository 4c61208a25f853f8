import type { Static, TSchema } from "@sinclair/typebox";
import { Type } from "../../contract/typebox.js";
import { defineWidgetType } from "../../contract/widget-kit/define.js";
import { Matching, OneOf } from "../../contract/widget-kit/fields.js";

/**
 * The Upcoming Media widget (issue 33): what Sonarr and Radarr integrations have coming (episodes
 * with their air time, movies with their release dates) and what they are downloading now (their
 * queues, with progress, time left and the warnings Sonarr and Radarr attach).
 */

/** Each integration is two calls per refresh (calendar and queue); a handful is plenty. */
export const UPCOMING_INTEGRATIONS_MAX = 5;
export const UPCOMING_DAYS_MIN = 1;
export const UPCOMING_DAYS_MAX = 60;
export const UPCOMING_DAYS_DEFAULT = 14;
export const UPCOMING_SHOW = ["calendar", "queue", "both"] as const;
export type UpcomingShow = (typeof UPCOMING_SHOW)[number];
/** Calendar entries kept per integration (a daily show over two months is about 45). */
export const UPCOMING_CALENDAR_MAX = 200;
/** Queue entries asked per integration: one page, sorted by time left. */
export const UPCOMING_QUEUE_MAX = 50;
/** How often the page asks; the queue's answers are kept 15 s, the calendar's 5 min. */
export const UPCOMING_REFRESH_MS = 30_000;

const UUID = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

export const UpcomingMediaConfig = Type.Object({
  /** Saved integrations of kind `sonarr` or `radarr` the widget's owner may use. */
  integrationIds: Type.Array(Matching(UUID, { clean: (s) => s.trim().toLowerCase() }), {
    default: [],
    maxItems: UPCOMING_INTEGRATIONS_MAX,
  }),
  /** How many days ahead, today included. */
  days: Type.Integer({
    minimum: UPCOMING_DAYS_MIN,
    maximum: UPCOMING_DAYS_MAX,
    default: UPCOMING_DAYS_DEFAULT,
  }),
  show: OneOf(UPCOMING_SHOW, { default: "both" }),
});
export type UpcomingMediaConfig = Static<typeof UpcomingMediaConfig>;

export interface UpcomingMediaQuery {
  integrationIds: string[];
  days: number;
  show: UpcomingShow;
}

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Day = Type.String({ description: "A day, YYYY-MM-DD" });

export const UPCOMING_KINDS = ["sonarr", "radarr"] as const;
export type UpcomingKind = (typeof UPCOMING_KINDS)[number];

export const UPCOMING_ERRORS = [
  "refused",
  "not_found",
  "integration",
  "timeout",
  "blocked",
  "failed",
] as const;
export type UpcomingErrorReason = (typeof UPCOMING_ERRORS)[number];

/**
 * A queue entry's state in one word, from Sonarr's and Radarr's `status` and
 * `trackedDownloadState`: what is happening to it now.
 */
export const QUEUE_STATES = [
  "downloading",
  "paused",
  "queued",
  "delayed",
  "importPending",
  "importing",
  "importBlocked",
  "imported",
  "failed",
  "warning",
  "clientUnavailable",
  "unknown",
] as const;
export type QueueState = (typeof QUEUE_STATES)[number];

export const UpcomingEpisodeSchema = Type.Object({
  type: Type.Literal("episode"),
  integrationId: Type.String(),
  id: Type.String(),
  series: Nullable(Type.String()),
  seasonNumber: Type.Integer(),
  episodeNumber: Type.Integer(),
  title: Nullable(Type.String({ description: "Null while Sonarr has none (TBA)" })),
  airDateUtc: Type.String({ description: "ISO 8601 instant" }),
  runtimeMinutes: Type.Integer({ description: "0 when unknown" }),
  hasFile: Type.Boolean(),
  finaleType: Nullable(Type.String({ description: "series, season or midseason" })),
});
export type UpcomingEpisode = Static<typeof UpcomingEpisodeSchema>;

export const UpcomingMovieSchema = Type.Object({
  type: Type.Literal("movie"),
  integrationId: Type.String(),
  id: Type.String(),
  title: Type.String(),
  year: Nullable(Type.Integer()),
  /** The first of its release days within the window: where the widget lists it. */
  day: Day,
  inCinemas: Nullable(Day),
  digitalRelease: Nullable(Day),
  physicalRelease: Nullable(Day),
  hasFile: Type.Boolean(),
});
export type UpcomingMovie = Static<typeof UpcomingMovieSchema>;

export const QueueEntrySchema = Type.Object({
  integrationId: Type.String(),
  id: Type.String({ description: "The download's id (one download may hold several episodes)" }),
  /** The release's name as the download client has it. */
  title: Type.String(),
  series: Nullable(Type.String()),
  /** The episodes of this download that Sonarr knows, in order; [] for a movie. */
  episodes: Type.Array(Type.Object({ seasonNumber: Type.Integer(), episodeNumber: Type.Integer() })),
  /** The episode's title when the download is one episode. */
  episodeTitle: Nullable(Type.String()),
  movie: Nullable(Type.String()),
  year: Nullable(Type.Integer()),
  progress: Nullable(Type.Number({ minimum: 0, maximum: 1, description: "Share downloaded" })),
  timeLeftSeconds: Nullable(Type.Integer()),
  estimatedCompletion: Nullable(Type.String()),
  state: Type.Union(QUEUE_STATES.map((s) => Type.Literal(s))),
  /** Sonarr's and Radarr's `trackedDownloadStatus`: whether something needs a look. */
  health: Type.Union([Type.Literal("ok"), Type.Literal("warning"), Type.Literal("error")]),
  /** The error and the status messages, as the service words them (English). */
  messages: Type.Array(Type.String()),
  downloadClient: Nullable(Type.String()),
});
export type QueueEntry = Static<typeof QueueEntrySchema>;

export const UpcomingSourceSchema = Type.Object({
  integrationId: Type.String(),
  /** The integration's name; null when it cannot be used. */
  name: Nullable(Type.String()),
  kind: Nullable(Type.Union(UPCOMING_KINDS.map((k) => Type.Literal(k)))),
  error: Nullable(
    Type.Object({
      reason: Type.Union(UPCOMING_ERRORS.map((r) => Type.Literal(r))),
      detail: Type.String({ description: "What went wrong, in the server's words" }),
    }),
  ),
  calendarTruncated: Type.Boolean(),
  /** Records in its queue in all (an episode each); null when the queue was not asked for. */
  queueTotal: Nullable(Type.Integer()),
  /** Records past the page that was read: in the queue, not in `queue`. */
  queueMore: Type.Integer(),
});
export type UpcomingSource = Static<typeof UpcomingSourceSchema>;

export const UpcomingMediaDataSchema = Type.Object(
  {
    sources: Type.Array(UpcomingSourceSchema),
    calendar: Type.Array(Type.Union([UpcomingEpisodeSchema, UpcomingMovieSchema]), {
      description: "From the start of yesterday (UTC) to `days` ahead, earliest first",
    }),
    queue: Type.Array(QueueEntrySchema, { description: "Soonest done first, per integration" }),
  },
  {
    description:
      "What an Upcoming Media widget's Sonarr and Radarr integrations have coming and in their queues",
  },
);
export type UpcomingMediaData = Static<typeof UpcomingMediaDataSchema>;

export const upcomingMediaWidget = defineWidgetType({
  type: "Upcoming Media",
  server: true,
  config: UpcomingMediaConfig,
  data: {
    kind: "service",
    publicRoute: "upcoming-media",
    visitorQuery: ({ integrationIds, days, show }: UpcomingMediaConfig): UpcomingMediaQuery | null =>
      integrationIds.length > 0 ? { integrationIds, days, show } : null,
  },
  // An integration chosen twice is asked once.
  refine: (config) => {
    const integrationIds = [...new Set(config.integrationIds)];
    return integrationIds.length === config.integrationIds.length ? config : { ...config, integrationIds };
  },
});
