import { RADARR_RELEASES, type RadarrMovie } from "../../../integrations/radarr/calendar.js";
import type { SonarrEpisode } from "../../../integrations/sonarr/calendar.js";
import type { UpcomingEpisode, UpcomingMovie } from "../contract.js";

const DAY = 86_400_000;

/**
 * The window the widget asks for: from the start of yesterday (UTC), so a reader west of UTC
 * still has all of their today, to `days` from now.
 */
export function calendarWindow(now: number, days: number) {
  const today = Math.floor(now / DAY) * DAY;
  return { from: today - DAY, to: now + days * DAY };
}

export function episodeEntry(integrationId: string, episode: SonarrEpisode): UpcomingEpisode {
  return {
    type: "episode",
    integrationId,
    id: String(episode.id),
    series: episode.seriesTitle,
    seasonNumber: episode.seasonNumber,
    episodeNumber: episode.episodeNumber,
    title: episode.title,
    airDateUtc: episode.airDateUtc,
    runtimeMinutes: episode.runtimeMinutes,
    hasFile: episode.hasFile,
    finaleType: episode.finaleType,
  };
}

/**
 * A movie with all of Radarr's release days, listed on the first of them within the window
 * (null when none is: Radarr's window and ours differ at the edges).
 */
export function movieEntry(
  integrationId: string,
  movie: RadarrMovie,
  window: { from: number; to: number },
): UpcomingMovie | null {
  const first = new Date(window.from).toISOString().slice(0, 10);
  const last = new Date(window.to).toISOString().slice(0, 10);
  const days = RADARR_RELEASES.flatMap((release) => {
    const day = movie[release];
    return day && day >= first && day <= last ? [day] : [];
  }).sort();
  if (days.length === 0) return null;
  return {
    type: "movie",
    integrationId,
    id: String(movie.id),
    title: movie.title,
    year: movie.year,
    day: days[0]!,
    inCinemas: movie.inCinemas,
    digitalRelease: movie.digitalRelease,
    physicalRelease: movie.physicalRelease,
    hasFile: movie.hasFile,
  };
}

/** Where an entry sorts: an episode at its air time, a movie at the start of its day (UTC). */
export const entryAt = (entry: UpcomingEpisode | UpcomingMovie) =>
  entry.type === "episode" ? Date.parse(entry.airDateUtc) : Date.parse(`${entry.day}T00:00:00Z`);
