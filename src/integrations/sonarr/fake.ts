import {
  type ArrFake,
  type ArrFakeOptions,
  type ArrQueueSeed,
  type ArrRequest,
  arrTime,
  type CalendarQuery,
  dayTime,
  type QueryReader,
  queuePage,
  queueResource,
  startArrFake,
} from "../../../test/fakes/arr-http.js";

export type { ArrRequest };
export { arrTime };

/**
 * Sonarr's API v3 for tests, on 127.0.0.1, as Sonarr v4 answers it (Sonarr/Sonarr develop at
 * 49df353, June 2026: Sonarr.Api.V3/{Calendar,Queue,System}, Sonarr.Http/PagingResource.cs,
 * Authentication/ApiKeyAuthenticationHandler.cs, Common/Serializer/System.Text.Json; the HTTP side
 * it shares with Radarr's is test/fakes/arr-http.ts):
 * - every path under the URL base but `/ping` needs the API key: `X-Api-Key`, `?apikey=` or
 *   `Authorization: Bearer`; without it or with another one: 401 and an empty body;
 * - `GET /api/v3/system/status` → `{appName, instanceName, version, urlBase, …}`;
 * - `GET /api/v3/calendar?start&end&unmonitored&includeSeries&includeEpisodeFile&includeEpisodeImages`:
 *   episodes with `start <= airDateUtc <= end` (defaults: today and today + 2 days), monitored
 *   ones only unless `unmonitored=true`, sorted by `airDateUtc`; the whole series resource on
 *   each only with `includeSeries=true`;
 * - `GET /api/v3/queue?page&pageSize&sortKey&sortDirection&includeUnknownSeriesItems&includeSeries&includeEpisode`:
 *   paged (page 1, 10 per page by default; a page past the end answers the last one, as Sonarr
 *   does), sorted by `timeleft` unless another allowed key is named, *descending* when no
 *   direction is given (PagingResource's default), downloads without a known series only with
 *   `includeUnknownSeriesItems=true`, `series` and `episode` only when asked;
 * - a query value that does not bind (a page of "x", a date of "soon") is 400 with ASP.NET's
 *   validation problem.
 * JSON as Sonarr writes it: camelCase, enums as camelCase strings, no null fields, instants as
 * "2026-11-28T21:00:00Z", durations as .NET's TimeSpan ("00:12:30", "1.02:03:04").
 * Every request is recorded.
 */
export interface SonarrSeriesSeed {
  id: number;
  title: string;
  network: string;
  runtime: number;
  seriesType: "standard" | "daily" | "anime";
}

export interface SonarrEpisodeSeed {
  id: number;
  seriesId: number;
  seasonNumber: number;
  episodeNumber: number;
  title: string | null;
  airDateUtc: string | null;
  runtime: number;
  hasFile: boolean;
  monitored: boolean;
  finaleType?: "series" | "season" | "midseason";
}

export interface SonarrQueueSeed extends ArrQueueSeed {
  /** Null: a download Sonarr could not match to a series. */
  seriesId: number | null;
  episodeId: number | null;
}

export interface SonarrFake extends ArrFake {
  series: SonarrSeriesSeed[];
  episodes: SonarrEpisodeSeed[];
  queue: SonarrQueueSeed[];
}

function seeds(now: number) {
  const at = (days: number, hour: number) => dayTime(now, days, hour);
  const series: SonarrSeriesSeed[] = [
    { id: 1, title: "Severance", network: "Apple TV+", runtime: 50, seriesType: "standard" },
    { id: 2, title: "The Bear", network: "FX", runtime: 30, seriesType: "standard" },
    { id: 3, title: "Slow Horses", network: "Apple TV+", runtime: 45, seriesType: "standard" },
    { id: 4, title: "The Daily Show", network: "Comedy Central", runtime: 22, seriesType: "daily" },
  ];
  const episode = (
    id: number,
    seriesId: number,
    seasonNumber: number,
    episodeNumber: number,
    title: string | null,
    airDateUtc: string | null,
    more: Partial<SonarrEpisodeSeed> = {},
  ): SonarrEpisodeSeed => ({
    id,
    seriesId,
    seasonNumber,
    episodeNumber,
    title,
    airDateUtc,
    runtime: 0,
    hasFile: false,
    monitored: true,
    ...more,
  });
  const episodes = [
    episode(101, 1, 2, 9, "The After Hours", at(-1, 2), { hasFile: true, runtime: 48 }),
    episode(102, 1, 2, 10, "Cold Harbor", at(1, 2), { runtime: 76, finaleType: "season" }),
    episode(201, 2, 4, 1, "Groundhog", at(2, 4)),
    episode(202, 2, 4, 2, null, at(2, 4), { monitored: false }),
    episode(301, 3, 5, 3, "Missing Persons", at(3, 21)),
    episode(401, 4, 31, 40, "December 3, 2026", at(4, 4)),
    episode(302, 3, 5, 4, "Hello Goodbye", at(20, 21)),
    episode(303, 3, 5, 6, "Scars", at(45, 21), { finaleType: "season" }),
    episode(399, 3, 6, 1, null, null),
  ];
  const queue: SonarrQueueSeed[] = [
    {
      id: 1_700_000_001,
      seriesId: 1,
      episodeId: 101,
      title: "Severance.S02E09.The.After.Hours.2160p.ATVP.WEB-DL.DDP5.1.Atmos.H.265-FLUX",
      size: 6_000_000_000,
      sizeleft: 2_400_000_000,
      timeleft: "00:12:30",
      estimatedCompletionTime: arrTime(now + 750_000),
      status: "downloading",
      trackedDownloadStatus: "ok",
      trackedDownloadState: "downloading",
      statusMessages: [],
      downloadId: "A1B2C3D4E5F60718293A4B5C6D7E8F9012345678",
      protocol: "torrent",
      downloadClient: "qBittorrent",
    },
    ...[301, 302].map(
      (episodeId, i): SonarrQueueSeed => ({
        id: 1_700_000_010 + i,
        seriesId: 3,
        episodeId,
        title: "Slow.Horses.S05.1080p.ATVP.WEB-DL.DDP5.1.H.264-NTb",
        size: 14_000_000_000,
        sizeleft: 0,
        timeleft: "00:00:00",
        estimatedCompletionTime: arrTime(now),
        status: "completed",
        trackedDownloadStatus: "warning",
        trackedDownloadState: "importBlocked",
        statusMessages: [
          {
            title: "Slow.Horses.S05E04.1080p.ATVP.WEB-DL.DDP5.1.H.264-NTb.mkv",
            messages: ["Episode has a TBA title and recently aired"],
          },
        ],
        downloadId: "SABnzbd_nzo_p86tgx",
        protocol: "usenet",
        downloadClient: "SABnzbd",
      }),
    ),
    {
      id: 1_700_000_020,
      seriesId: 2,
      episodeId: 201,
      title: "The.Bear.S04E01.1080p.WEB.h264-ETHEL",
      size: 1_200_000_000,
      sizeleft: 1_200_000_000,
      timeleft: null,
      estimatedCompletionTime: null,
      status: "failed",
      trackedDownloadStatus: "error",
      trackedDownloadState: "failedPending",
      statusMessages: [],
      errorMessage: "Download failed: not enough repair blocks",
      downloadId: "SABnzbd_nzo_a81b2c",
      protocol: "usenet",
      downloadClient: "SABnzbd",
    },
    {
      id: 1_700_000_030,
      seriesId: null,
      episodeId: null,
      title: "Some.Unknown.Show.S01E01.720p.HDTV.x264",
      size: 800_000_000,
      sizeleft: 100_000_000,
      timeleft: "00:02:00",
      estimatedCompletionTime: arrTime(now + 120_000),
      status: "downloading",
      trackedDownloadStatus: "warning",
      trackedDownloadState: "downloading",
      statusMessages: [{ title: "Some.Unknown.Show.S01E01.720p.HDTV.x264", messages: ["Unknown Series"] }],
      downloadId: "B2C3D4E5F60718293A4B5C6D7E8F901234567890",
      protocol: "torrent",
      downloadClient: "qBittorrent",
    },
  ];
  return { series, episodes, queue };
}

/** The series resource as Sonarr sends it with `includeSeries`: much more than a title. */
function seriesResource(series: SonarrSeriesSeed) {
  return {
    title: series.title,
    alternateTitles: [],
    sortTitle: series.title.toLowerCase().replace(/^the /, ""),
    status: "continuing",
    ended: false,
    overview: `${series.title} is a series. `.repeat(20).trim(),
    network: series.network,
    airTime: "21:00",
    images: ["banner", "poster", "fanart"].map((coverType) => ({
      coverType,
      url: `/MediaCover/${series.id}/${coverType}.jpg?lastWrite=638000000000000000`,
      remoteUrl: `https://artworks.thetvdb.com/banners/${coverType}/${series.id}.jpg`,
    })),
    originalLanguage: { id: 1, name: "English" },
    seasons: Array.from({ length: 5 }, (_, seasonNumber) => ({
      seasonNumber,
      monitored: seasonNumber > 0,
      statistics: { episodeFileCount: 8, episodeCount: 10, totalEpisodeCount: 10, sizeOnDisk: 1e10 },
    })),
    year: 2022,
    path: `/tv/${series.title}`,
    qualityProfileId: 1,
    seasonFolder: true,
    monitored: true,
    monitorNewItems: "all",
    useSceneNumbering: false,
    runtime: series.runtime,
    tvdbId: 371_980 + series.id,
    tvRageId: 0,
    tvMazeId: 44_933 + series.id,
    tmdbId: 95_396 + series.id,
    seriesType: series.seriesType,
    cleanTitle: series.title.toLowerCase().replace(/[^a-z0-9]/g, ""),
    imdbId: `tt1${String(series.id).padStart(6, "0")}`,
    titleSlug: series.title.toLowerCase().replace(/[^a-z0-9]+/g, "-"),
    rootFolderPath: "/tv/",
    genres: ["Drama"],
    tags: [],
    added: "2024-01-05T10:00:00Z",
    ratings: { votes: 1000, value: 8.5 },
    languageProfileId: 1,
    id: series.id,
  };
}

function episodeResource(episode: SonarrEpisodeSeed, series?: SonarrSeriesSeed) {
  return {
    seriesId: episode.seriesId,
    tvdbId: 9_000_000 + episode.id,
    episodeFileId: episode.hasFile ? 50_000 + episode.id : 0,
    seasonNumber: episode.seasonNumber,
    episodeNumber: episode.episodeNumber,
    ...(episode.title === null ? {} : { title: episode.title }),
    ...(episode.airDateUtc === null
      ? {}
      : { airDate: episode.airDateUtc.slice(0, 10), airDateUtc: episode.airDateUtc }),
    runtime: episode.runtime,
    ...(episode.finaleType ? { finaleType: episode.finaleType } : {}),
    overview: "An episode.",
    hasFile: episode.hasFile,
    monitored: episode.monitored,
    unverifiedSceneNumbering: false,
    ...(series ? { series: seriesResource(series) } : {}),
    id: episode.id,
  };
}

const QUEUE_SORT_KEYS = [
  "added",
  "downloadClient",
  "episode",
  "episode.airDateUtc",
  "episode.title",
  "estimatedCompletionTime",
  "progress",
  "protocol",
  "series.sortTitle",
  "size",
  "status",
  "timeleft",
  "title",
];

function calendar(fake: SonarrFake, { start, end, unmonitored }: CalendarQuery, read: QueryReader) {
  const includeSeries = read.bool("includeSeries");
  read.bool("includeEpisodeFile");
  read.bool("includeEpisodeImages");
  const byId = new Map(fake.series.map((s) => [s.id, s]));
  return fake.episodes
    .filter((e) => {
      const at = e.airDateUtc ? Date.parse(e.airDateUtc) : Number.NaN;
      return at >= start && at <= end && (unmonitored || e.monitored) && byId.has(e.seriesId);
    })
    .sort((a, b) => Date.parse(a.airDateUtc!) - Date.parse(b.airDateUtc!))
    .map((e) => episodeResource(e, includeSeries ? byId.get(e.seriesId) : undefined));
}

function queue(fake: SonarrFake, read: QueryReader) {
  const unknown = read.bool("includeUnknownSeriesItems");
  const includeSeries = read.bool("includeSeries");
  const includeEpisode = read.bool("includeEpisode");
  const series = new Map(fake.series.map((s) => [s.id, s]));
  const episodes = new Map(fake.episodes.map((e) => [e.id, e]));
  const all = fake.queue.filter((q) => unknown || (q.seriesId !== null && series.has(q.seriesId)));
  return queuePage(read, all, QUEUE_SORT_KEYS, (q) => {
    const known = q.seriesId === null ? undefined : series.get(q.seriesId);
    const episode = q.episodeId === null ? undefined : episodes.get(q.episodeId);
    return queueResource(q, {
      matched: {
        ...(known ? { seriesId: known.id } : {}),
        ...(episode ? { episodeId: episode.id, seasonNumber: episode.seasonNumber } : {}),
        ...(includeSeries && known ? { series: seriesResource(known) } : {}),
        ...(includeEpisode && episode ? { episode: episodeResource(episode) } : {}),
      },
      quality: { id: 3, name: "WEBDL-1080p", source: "web", resolution: 1080 },
      beforeSizeleft: { episodeHasFile: episode?.hasFile ?? false },
    });
  });
}

export function startSonarrFake(options: ArrFakeOptions = {}): Promise<SonarrFake> {
  return startArrFake({ name: "Sonarr", version: "4.0.19.2979", seeds, calendar, queue }, options);
}
