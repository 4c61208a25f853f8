import { type TSchema, Type } from "@sinclair/typebox";
import type { IntegrationRequest } from "../../server/integrations/types.js";
import type { UpstreamResponse } from "../../server/upstream/fetch.js";
import { defineSource, jsonOf } from "../../server/upstream/source.js";

/**
 * Sonarr's calendar, `GET /api/v3/calendar?start=&end=&includeSeries=true` (Sonarr v4,
 * Sonarr.Api.V3/Calendar/CalendarController.cs): the monitored episodes whose `airDateUtc` lies
 * between the two instants (both ends included), sorted by it. Sonarr writes no null fields, so
 * anything may be absent. Each episode carries its whole series when `includeSeries` is set (a
 * few kB each: overview, seasons, images), so a long window is asked in steps of
 * `SONARR_DAYS_PER_CALL` days: a big library's two months stay far below what the server reads of
 * one answer, and the steps stop once `max` episodes are in.
 */

/** The caller's call to the integration: it answers 2xx, or throws in the caller's own words. */
export type SonarrAsk = (request: IntegrationRequest) => Promise<UpstreamResponse>;

export const SONARR_DAYS_PER_CALL = 14;
const DAY = 86_400_000;
const TEXT_MAX = 300;

const Maybe = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));

const CalendarAnswer = defineSource(
  Type.Array(
    Type.Object({
      id: Type.Integer(),
      seriesId: Type.Integer(),
      seasonNumber: Type.Integer(),
      episodeNumber: Type.Integer(),
      title: Maybe(Type.String()),
      airDateUtc: Maybe(Type.String()),
      runtime: Maybe(Type.Integer()),
      hasFile: Maybe(Type.Boolean()),
      finaleType: Maybe(Type.String()),
      series: Maybe(
        Type.Object({
          title: Maybe(Type.String()),
          runtime: Maybe(Type.Integer()),
          seriesType: Maybe(Type.String()),
        }),
      ),
    }),
  ),
);

/** One episode as the widgets read it. */
export interface SonarrEpisode {
  id: number;
  seriesId: number;
  /** Null when Sonarr left the series out. */
  seriesTitle: string | null;
  /** `standard`, `daily` (episodes named by their date) or `anime`; null when not said. */
  seriesType: string | null;
  seasonNumber: number;
  episodeNumber: number;
  /** Null while it has none ("TBA" in Sonarr). */
  title: string | null;
  /** ISO 8601 UTC with milliseconds. */
  airDateUtc: string;
  /** The episode's runtime, else its series', in minutes; 0 when neither is known. */
  runtimeMinutes: number;
  hasFile: boolean;
  /** `series`, `season` or `midseason` for a finale. */
  finaleType: string | null;
}

const text = (value: string | null | undefined) => (value ? value.slice(0, TEXT_MAX) : null);

/** Sonarr's bare query values: instants as ISO 8601, flags as `true`/`false`. */
const query = (from: number, to: number) => ({
  start: new Date(from).toISOString(),
  end: new Date(to).toISOString(),
  unmonitored: "false",
  includeSeries: "true",
});

/**
 * The episodes airing from `from` (included) to `to` (excluded), earliest first, at most `max`;
 * `truncated` when there may be more.
 */
export async function sonarrCalendar(
  ask: SonarrAsk,
  window: { from: number; to: number },
  max: number,
): Promise<{ episodes: SonarrEpisode[]; truncated: boolean }> {
  const found = new Map<number, SonarrEpisode>();
  for (let start = window.from; start < window.to; start += SONARR_DAYS_PER_CALL * DAY) {
    if (found.size >= max) return { episodes: cut(found, max), truncated: true };
    const end = Math.min(start + SONARR_DAYS_PER_CALL * DAY, window.to);
    const response = await ask({
      path: "/api/v3/calendar",
      query: query(start, end),
      what: "its calendar",
      headers: { accept: "application/json" },
    });
    for (const episode of CalendarAnswer.parse(jsonOf(response), response)) {
      const at = episode.airDateUtc ? Date.parse(episode.airDateUtc) : Number.NaN;
      // Both ends are Sonarr's; one on a step's boundary comes twice.
      if (!(at >= window.from && at < window.to) || found.has(episode.id)) continue;
      found.set(episode.id, {
        id: episode.id,
        seriesId: episode.seriesId,
        seriesTitle: text(episode.series?.title),
        seriesType: text(episode.series?.seriesType),
        seasonNumber: episode.seasonNumber,
        episodeNumber: episode.episodeNumber,
        title: text(episode.title),
        airDateUtc: new Date(at).toISOString(),
        runtimeMinutes: Math.max(0, episode.runtime || episode.series?.runtime || 0),
        hasFile: episode.hasFile ?? false,
        finaleType: text(episode.finaleType),
      });
    }
  }
  return { episodes: cut(found, max), truncated: found.size > max };
}

function cut(found: Map<number, SonarrEpisode>, max: number): SonarrEpisode[] {
  return [...found.values()]
    .sort((a, b) => a.airDateUtc.localeCompare(b.airDateUtc) || a.id - b.id)
    .slice(0, max);
}
