import { type TSchema, Type } from "@sinclair/typebox";
import type { IntegrationRequest } from "../../server/integrations/types.js";
import type { UpstreamResponse } from "../../server/upstream/fetch.js";
import { defineSource, jsonOf } from "../../server/upstream/source.js";

/**
 * Radarr's calendar, `GET /api/v3/calendar?start=&end=` (Radarr v6,
 * Radarr.Api.V3/Calendar/CalendarController.cs): the monitored movies of which any of
 * `inCinemas`, `digitalRelease` or `physicalRelease` lies between the two instants (both ends
 * included), each with all three dates as Radarr knows them (the others may lie outside), sorted
 * by `inCinemas`. The dates are days Radarr keeps as midnight UTC ("2026-12-04T00:00:00Z"), so
 * they are read as UTC dates, never shifted into a zone. Radarr writes no null fields.
 */

/** The caller's call to the integration: it answers 2xx, or throws in the caller's own words. */
export type RadarrAsk = (request: IntegrationRequest) => Promise<UpstreamResponse>;

const TEXT_MAX = 300;

const Maybe = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));

const CalendarAnswer = defineSource(
  Type.Array(
    Type.Object({
      id: Type.Integer(),
      title: Maybe(Type.String()),
      year: Maybe(Type.Integer()),
      inCinemas: Maybe(Type.String()),
      digitalRelease: Maybe(Type.String()),
      physicalRelease: Maybe(Type.String()),
      hasFile: Maybe(Type.Boolean()),
    }),
  ),
);

/** The three release dates as Radarr names them. */
export const RADARR_RELEASES = ["inCinemas", "digitalRelease", "physicalRelease"] as const;
export type RadarrRelease = (typeof RADARR_RELEASES)[number];

/** One movie as the widgets read it; release dates as YYYY-MM-DD, null where Radarr has none. */
export interface RadarrMovie {
  id: number;
  title: string;
  /** 0 or absent in Radarr while unknown: null then. */
  year: number | null;
  inCinemas: string | null;
  digitalRelease: string | null;
  physicalRelease: string | null;
  hasFile: boolean;
}

/** Radarr's "2026-12-04T00:00:00Z" as the day it names. */
export function radarrDate(value: string | null | undefined): string | null {
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 10) : null;
}

/** The movies with a release from `from` to `to` (both included), as Radarr sorts them, at most `max`. */
export async function radarrCalendar(
  ask: RadarrAsk,
  window: { from: number; to: number },
  max: number,
): Promise<{ movies: RadarrMovie[]; truncated: boolean }> {
  const response = await ask({
    path: "/api/v3/calendar",
    query: {
      start: new Date(window.from).toISOString(),
      end: new Date(window.to).toISOString(),
      unmonitored: "false",
    },
    what: "its calendar",
    headers: { accept: "application/json" },
  });
  const answer = CalendarAnswer.parse(jsonOf(response), response);
  const movies = answer.map(
    (movie): RadarrMovie => ({
      id: movie.id,
      title: (movie.title || `#${movie.id}`).slice(0, TEXT_MAX),
      year: movie.year || null,
      inCinemas: radarrDate(movie.inCinemas),
      digitalRelease: radarrDate(movie.digitalRelease),
      physicalRelease: radarrDate(movie.physicalRelease),
      hasFile: movie.hasFile ?? false,
    }),
  );
  return { movies: movies.slice(0, max), truncated: movies.length > max };
}
