import { t } from "../../../web/i18n/i18n";
import { ApiError, describeError } from "../../../web/lib/api";
import { addDays, appLocale, dayKey, dayLabel, formatNumber } from "../../../web/widget-kit/data/format";
import type {
  QueueEntry,
  QueueState,
  UpcomingEpisode,
  UpcomingErrorReason,
  UpcomingMovie,
} from "../contract";

/** "S02E10", as Sonarr writes an episode. */
export function episodeCode(seasonNumber: number, episodeNumber: number): string {
  const two = (n: number) => String(n).padStart(2, "0");
  return `S${two(seasonNumber)}E${two(episodeNumber)}`;
}

/**
 * The episodes of one download: "S05E01", "S05E01–E08" for a run in one season, else the first
 * and how many more ("S05E01 +3").
 */
export function episodesLabel(episodes: QueueEntry["episodes"]): string | null {
  const first = episodes[0];
  if (!first) return null;
  const code = episodeCode(first.seasonNumber, first.episodeNumber);
  if (episodes.length === 1) return code;
  const last = episodes.at(-1)!;
  const run = episodes.every(
    (e, i) => e.seasonNumber === first.seasonNumber && e.episodeNumber === first.episodeNumber + i,
  );
  if (run) return `${code}–E${String(last.episodeNumber).padStart(2, "0")}`;
  return `${code} +${episodes.length - 1}`;
}

/** What a queue entry is for: the series and its episodes, the movie and its year, or the release. */
export function queueName(entry: QueueEntry): { name: string; detail: string | null } {
  if (entry.series) {
    const episodes = episodesLabel(entry.episodes);
    const detail = [episodes, entry.episodeTitle].filter(Boolean).join(" · ");
    return { name: entry.series, detail: detail || null };
  }
  if (entry.movie) return { name: entry.year ? `${entry.movie} (${entry.year})` : entry.movie, detail: null };
  return { name: entry.title, detail: null };
}

/**
 * "12 min left", "3 h 5 min left", "1 d 2 h left": only while it downloads (a finished or paused
 * download's "00:00:00" says nothing); null while the client does not know.
 */
export function timeLeftWords(seconds: number | null, state: QueueState = "downloading"): string | null {
  if (seconds === null || state !== "downloading") return null;
  if (seconds < 60) return t("widgets.upcomingMedia.timeLeft.soon");
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return t("widgets.upcomingMedia.timeLeft.minutes", { count: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return t("widgets.upcomingMedia.timeLeft.hours", { hours, minutes: minutes % 60 });
  return t("widgets.upcomingMedia.timeLeft.days", { days: Math.floor(hours / 24), hours: hours % 24 });
}

/** "60 %", as the reader writes shares. */
export function progressWords(progress: number, locale = appLocale()): string {
  return formatNumber(progress, locale, { style: "percent", maximumFractionDigits: 0 });
}

/** A download's state in the reader's language. */
export function stateWord(state: QueueState): string {
  switch (state) {
    case "downloading":
      return t("widgets.upcomingMedia.state.downloading");
    case "paused":
      return t("widgets.upcomingMedia.state.paused");
    case "queued":
      return t("widgets.upcomingMedia.state.queued");
    case "delayed":
      return t("widgets.upcomingMedia.state.delayed");
    case "importPending":
      return t("widgets.upcomingMedia.state.importPending");
    case "importing":
      return t("widgets.upcomingMedia.state.importing");
    case "importBlocked":
      return t("widgets.upcomingMedia.state.importBlocked");
    case "imported":
      return t("widgets.upcomingMedia.state.imported");
    case "failed":
      return t("widgets.upcomingMedia.state.failed");
    case "warning":
      return t("widgets.upcomingMedia.state.warning");
    case "clientUnavailable":
      return t("widgets.upcomingMedia.state.clientUnavailable");
    default:
      return t("widgets.upcomingMedia.state.unknown");
  }
}

/** Why an integration could not be read, in the reader's words (the server's English is fine print). */
export function reasonWords(reason: UpcomingErrorReason): string {
  switch (reason) {
    case "refused":
      return t("widgets.upcomingMedia.errors.refused");
    case "not_found":
      return t("widgets.upcomingMedia.errors.not_found");
    case "integration":
      return t("widgets.upcomingMedia.errors.integration");
    case "timeout":
      return t("widgets.upcomingMedia.errors.timeout");
    case "blocked":
      return t("widgets.upcomingMedia.errors.blocked");
    default:
      return t("widgets.upcomingMedia.errors.failed");
  }
}

/** "5 Dec": a day of a release, with its year only when it is another than `todayKey`'s. */
export function shortDay(key: string, todayKey: string, locale = appLocale()): string {
  return new Intl.DateTimeFormat(locale, {
    timeZone: "UTC",
    day: "numeric",
    month: "short",
    ...(key.slice(0, 4) === todayKey.slice(0, 4) ? {} : { year: "numeric" }),
  }).format(new Date(`${key}T12:00:00Z`));
}

/** A movie's release days as Radarr gives them, each named ("In cinemas 5 Dec"). */
export function releaseWords(movie: UpcomingMovie, todayKey: string, locale = appLocale()): string[] {
  const words: string[] = [];
  if (movie.inCinemas)
    words.push(
      t("widgets.upcomingMedia.release.inCinemas", { day: shortDay(movie.inCinemas, todayKey, locale) }),
    );
  if (movie.digitalRelease)
    words.push(
      t("widgets.upcomingMedia.release.digital", { day: shortDay(movie.digitalRelease, todayKey, locale) }),
    );
  if (movie.physicalRelease)
    words.push(
      t("widgets.upcomingMedia.release.physical", { day: shortDay(movie.physicalRelease, todayKey, locale) }),
    );
  return words;
}

export interface UpcomingDay {
  key: string;
  label: string;
  isToday: boolean;
  entries: (UpcomingEpisode | UpcomingMovie)[];
}

/**
 * The calendar by day in the reader's zone, from today to `days` ahead: an episode on the day it
 * airs there, a movie on its release day (a day, not an instant: the same everywhere); each day's
 * movies first, then its episodes by air time.
 */
export function upcomingDays(
  entries: readonly (UpcomingEpisode | UpcomingMovie)[],
  now: number,
  days: number,
  timezone: string,
  locale = appLocale(),
): UpcomingDay[] {
  const today = dayKey(now, timezone);
  const last = addDays(today, days - 1);
  const byDay = new Map<string, (UpcomingEpisode | UpcomingMovie)[]>();
  for (const entry of entries) {
    const key = entry.type === "movie" ? entry.day : dayKey(entry.airDateUtc, timezone);
    if (key < today || key > last) continue;
    byDay.set(key, [...(byDay.get(key) ?? []), entry]);
  }
  const at = (entry: UpcomingEpisode | UpcomingMovie) =>
    entry.type === "movie" ? Number.NEGATIVE_INFINITY : Date.parse(entry.airDateUtc);
  return [...byDay.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, list]) => ({
      key,
      label: dayLabel(key, today, locale),
      isToday: key === today,
      entries: list.sort((a, b) => at(a) - at(b)),
    }));
}

/** Why the widget has nothing at all to show, in the reader's language, with the server's detail as fine print. */
export function describeUpcomingError(error: unknown): { message: string; detail: string | null } {
  if (!(error instanceof ApiError)) return { message: describeError(error), detail: null };
  const detail = error.problem?.detail ?? null;
  if (error.code === "not_found") return { message: t("widgets.upcomingMedia.errors.nothing"), detail };
  return { message: describeError(error), detail };
}
