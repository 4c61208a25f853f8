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

/**
 * Radarr's API v3 for tests, on 127.0.0.1, as Radarr v6 answers it (Radarr/Radarr at 1b9662d,
 * v6.0.3+: Radarr.Api.V3/{Calendar,Queue,System}, Radarr.Http; its auth, paging and JSON are
 * Sonarr's, see test/fakes/arr-http.ts):
 * - `GET /api/v3/system/status` → `{appName: "Radarr", version, …}`;
 * - `GET /api/v3/calendar?start&end&unmonitored`: the movies of which any of `inCinemas`,
 *   `digitalRelease`, `physicalRelease` lies in `start..end` (both included; defaults today and
 *   today + 2 days), monitored ones only unless `unmonitored=true`, each with all its dates,
 *   sorted by `inCinemas` (movies without one first, as .NET orders nulls), then the other two;
 * - `GET /api/v3/queue?page&pageSize&sortKey&sortDirection&includeUnknownMovieItems&includeMovie`:
 *   paged as Sonarr's, `movie` only with `includeMovie=true`.
 * Release dates are days, written as midnight UTC. Every request is recorded.
 */
export interface RadarrMovieSeed {
  id: number;
  title: string;
  year: number;
  inCinemas: string | null;
  digitalRelease: string | null;
  physicalRelease: string | null;
  hasFile: boolean;
  monitored: boolean;
}

export interface RadarrQueueSeed extends ArrQueueSeed {
  /** Null: a download Radarr could not match to a movie. */
  movieId: number | null;
}

export interface RadarrFake extends ArrFake {
  movies: RadarrMovieSeed[];
  queue: RadarrQueueSeed[];
}

const RELEASES = ["inCinemas", "digitalRelease", "physicalRelease"] as const;

function seeds(now: number) {
  const day = (days: number) => dayTime(now, days);
  const movies: RadarrMovieSeed[] = [
    {
      id: 11,
      title: "Dune: Part Three",
      year: 2026,
      inCinemas: day(5),
      digitalRelease: day(60),
      physicalRelease: day(90),
      hasFile: false,
      monitored: true,
    },
    {
      id: 12,
      title: "Mickey 17",
      year: 2025,
      inCinemas: day(-200),
      digitalRelease: day(2),
      physicalRelease: day(30),
      hasFile: false,
      monitored: true,
    },
    {
      id: 13,
      title: "Paddington in Peru",
      year: 2024,
      inCinemas: day(-300),
      digitalRelease: day(-100),
      physicalRelease: day(10),
      hasFile: true,
      monitored: true,
    },
    {
      id: 14,
      title: "The Unwatched One",
      year: 2026,
      inCinemas: day(3),
      digitalRelease: null,
      physicalRelease: null,
      hasFile: false,
      monitored: false,
    },
    {
      id: 15,
      title: "Untitled Pixar Film",
      year: 2027,
      inCinemas: null,
      digitalRelease: null,
      physicalRelease: null,
      hasFile: false,
      monitored: true,
    },
  ];
  const queue: RadarrQueueSeed[] = [
    {
      id: 2_100_000_001,
      movieId: 12,
      title: "Mickey.17.2025.2160p.WEB-DL.DDP5.1.Atmos.DV.HDR.H.265-FLUX",
      size: 20_000_000_000,
      sizeleft: 15_000_000_000,
      timeleft: "1.02:03:04",
      estimatedCompletionTime: arrTime(now + 93_784_000),
      status: "downloading",
      trackedDownloadStatus: "ok",
      trackedDownloadState: "downloading",
      statusMessages: [],
      downloadId: "C3D4E5F60718293A4B5C6D7E8F90123456789012",
      protocol: "torrent",
      downloadClient: "qBittorrent",
    },
    {
      id: 2_100_000_002,
      movieId: 13,
      title: "Paddington.in.Peru.2024.1080p.BluRay.x264-SCARE",
      size: 9_000_000_000,
      sizeleft: 9_000_000_000,
      timeleft: null,
      estimatedCompletionTime: null,
      status: "paused",
      trackedDownloadStatus: "warning",
      trackedDownloadState: "downloading",
      statusMessages: [
        {
          title: "Paddington.in.Peru.2024.1080p.BluRay.x264-SCARE",
          messages: ["Download client qBittorrent is paused"],
        },
      ],
      downloadId: "D4E5F60718293A4B5C6D7E8F9012345678901234",
      protocol: "torrent",
      downloadClient: "qBittorrent",
    },
  ];
  return { movies, queue };
}

function movieResource(movie: RadarrMovieSeed) {
  const dates = Object.fromEntries(RELEASES.flatMap((r) => (movie[r] ? [[r, movie[r]]] : [])));
  return {
    title: movie.title,
    originalTitle: movie.title,
    originalLanguage: { id: 1, name: "English" },
    alternateTitles: [],
    secondaryYearSourceId: 0,
    sortTitle: movie.title.toLowerCase(),
    sizeOnDisk: movie.hasFile ? 9_000_000_000 : 0,
    status: movie.hasFile ? "released" : "announced",
    overview: `${movie.title} is a movie. `.repeat(15).trim(),
    ...dates,
    ...(movie.digitalRelease || movie.physicalRelease
      ? { releaseDate: movie.digitalRelease ?? movie.physicalRelease }
      : {}),
    images: ["poster", "fanart"].map((coverType) => ({
      coverType,
      url: `/MediaCover/${movie.id}/${coverType}.jpg`,
      remoteUrl: `https://image.tmdb.org/t/p/original/${coverType}${movie.id}.jpg`,
    })),
    website: "",
    year: movie.year,
    youTubeTrailerId: "",
    studio: "A Studio",
    path: `/movies/${movie.title} (${movie.year})`,
    qualityProfileId: 1,
    hasFile: movie.hasFile,
    movieFileId: movie.hasFile ? 700 + movie.id : 0,
    monitored: movie.monitored,
    minimumAvailability: "released",
    isAvailable: movie.hasFile,
    folderName: `/movies/${movie.title} (${movie.year})`,
    runtime: 120,
    cleanTitle: movie.title.toLowerCase().replace(/[^a-z0-9]/g, ""),
    imdbId: `tt2${String(movie.id).padStart(6, "0")}`,
    tmdbId: 693_000 + movie.id,
    titleSlug: `${693_000 + movie.id}`,
    rootFolderPath: "/movies/",
    certification: "PG-13",
    genres: ["Science Fiction"],
    keywords: [],
    tags: [],
    added: "2025-03-01T10:00:00Z",
    ratings: { tmdb: { votes: 1000, value: 7.9, type: "user" } },
    popularity: 120.5,
    statistics: { movieFileCount: movie.hasFile ? 1 : 0, sizeOnDisk: 0, releaseGroups: [] },
    id: movie.id,
  };
}

/** .NET orders null before any date; so does Radarr's calendar. */
const byDate = (a: string | null, b: string | null) =>
  a === b ? 0 : a === null ? -1 : b === null ? 1 : Date.parse(a) - Date.parse(b);

const QUEUE_SORT_KEYS = [
  "added",
  "downloadClient",
  "estimatedCompletionTime",
  "indexer",
  "languages",
  "movies.sortTitle",
  "progress",
  "protocol",
  "quality",
  "size",
  "status",
  "timeleft",
  "title",
  "year",
];

function calendar(fake: RadarrFake, { start, end, unmonitored }: CalendarQuery) {
  const within = (date: string | null) =>
    date !== null && Date.parse(date) >= start && Date.parse(date) <= end;
  return fake.movies
    .filter((m) => (unmonitored || m.monitored) && RELEASES.some((r) => within(m[r])))
    .sort(
      (a, b) =>
        byDate(a.inCinemas, b.inCinemas) ||
        byDate(a.digitalRelease, b.digitalRelease) ||
        byDate(a.physicalRelease, b.physicalRelease),
    )
    .map(movieResource);
}

function queue(fake: RadarrFake, read: QueryReader) {
  const unknown = read.bool("includeUnknownMovieItems");
  const includeMovie = read.bool("includeMovie");
  const movies = new Map(fake.movies.map((m) => [m.id, m]));
  const all = fake.queue.filter((q) => unknown || (q.movieId !== null && movies.has(q.movieId)));
  return queuePage(read, all, QUEUE_SORT_KEYS, (q) => {
    const movie = q.movieId === null ? undefined : movies.get(q.movieId);
    return queueResource(q, {
      matched: {
        ...(movie ? { movieId: movie.id } : {}),
        ...(includeMovie && movie ? { movie: movieResource(movie) } : {}),
      },
      quality: { id: 7, name: "Bluray-1080p", source: "bluray", resolution: 1080 },
    });
  });
}

export function startRadarrFake(options: ArrFakeOptions = {}): Promise<RadarrFake> {
  return startArrFake({ name: "Radarr", version: "6.0.3.10276", seeds, calendar, queue }, options);
}
