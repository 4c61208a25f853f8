import {
  RADARR_RELEASES,
  type RadarrRelease,
  radarrCalendar,
} from "../../../integrations/radarr/calendar.js";
import { sonarrCalendar } from "../../../integrations/sonarr/calendar.js";
import { notFoundBecause, upstreamFailed } from "../../../server/http/errors.js";
import type {
  IntegrationRequest,
  Integrations,
  UsableIntegration,
} from "../../../server/integrations/types.js";
import type { Expanded, Occurrence } from "./expand.js";
import { EXPANSION_LIMITS } from "./expand.js";
import { CalendarProblem } from "./feeds.js";

/** The integration kinds whose calendar is a source beside iCal feeds. */
export const ARR_KINDS = ["sonarr", "radarr"] as const;
export const isArrKind = (kind: string) => (ARR_KINDS as readonly string[]).includes(kind);

const DAY = 86_400_000;

/** Their own iCal feeds' words for a movie's release days (Radarr's CalendarFeedController). */
const RELEASE_WORDS: Record<RadarrRelease, string> = {
  inCinemas: "Theatrical Release",
  digitalRelease: "Digital Release",
  physicalRelease: "Physical Release",
};

/** Sonarr's or Radarr's answer when it is a success; else why not, as the Calendar names it. */
function judged(response: Awaited<ReturnType<Integrations["call"]>>, integration: UsableIntegration) {
  const { status } = response;
  if (status >= 200 && status <= 299) return response;
  if (status === 401 || status === 403)
    throw new CalendarProblem(
      "refused",
      upstreamFailed(
        `${integration.name} refused the API key (${status}): save the current one in the integration`,
      ),
    );
  if (status === 404)
    throw new CalendarProblem(
      "not_found",
      notFoundBecause(
        `${integration.name} has no calendar at this address (404): is its URL Base in the address?`,
      ),
    );
  throw new CalendarProblem(
    "failed",
    upstreamFailed(`${integration.name} answered ${status} for its calendar`),
  );
}

/** "05", as Sonarr's feed writes episode numbers. */
const two = (n: number) => String(n).padStart(2, "0");

/**
 * A Sonarr or Radarr integration's calendar as a Calendar source's occurrences, titled as their
 * own iCal feeds title them: an episode from its air time for its runtime ("Severance - 2x10 -
 * Cold Harbor"; a daily show's by its title alone, which is its date), a movie's each release as
 * an all-day event ("Dune: Part Three (Digital Release)").
 */
export async function arrOccurrences(
  integrations: Integrations,
  integration: UsableIntegration,
  window: { from: number; to: number },
): Promise<Expanded> {
  const ask = async (request: IntegrationRequest) =>
    judged(await integrations.call(integration, request), integration);
  const max = EXPANSION_LIMITS.occurrences;
  if (integration.kind === "sonarr") {
    const { episodes, truncated } = await sonarrCalendar(ask, window, max);
    const occurrences = episodes.map(
      (e): Occurrence => ({
        id: `sonarr-episode-${e.id}`,
        title:
          e.seriesType === "daily"
            ? `${e.seriesTitle ?? "?"} - ${e.title ?? "TBA"}`
            : `${e.seriesTitle ?? "?"} - ${e.seasonNumber}x${two(e.episodeNumber)} - ${e.title ?? "TBA"}`,
        start: e.airDateUtc,
        end: new Date(Date.parse(e.airDateUtc) + e.runtimeMinutes * 60_000).toISOString(),
        allDay: false,
      }),
    );
    return { occurrences, truncated };
  }
  const { movies, truncated } = await radarrCalendar(ask, window, max);
  const first = new Date(window.from).toISOString().slice(0, 10);
  const occurrences = movies.flatMap((movie) =>
    RADARR_RELEASES.flatMap((release): Occurrence[] => {
      const day = movie[release];
      if (!day || day < first || Date.parse(day) >= window.to) return [];
      return [
        {
          id: `radarr-movie-${movie.id}-${release}`,
          title: `${movie.title} (${RELEASE_WORDS[release]})`,
          start: day,
          end: new Date(Date.parse(day) + DAY).toISOString().slice(0, 10),
          allDay: true,
        },
      ];
    }),
  );
  return { occurrences: occurrences.slice(0, max), truncated: truncated || occurrences.length > max };
}
