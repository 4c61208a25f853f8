import { createHash } from "node:crypto";
import { radarrCalendar } from "../../../integrations/radarr/calendar.js";
import { sonarrCalendar } from "../../../integrations/sonarr/calendar.js";
import type { AppContext } from "../../../server/context.js";
import { notFoundBecause, ProblemError } from "../../../server/http/errors.js";
import type { IntegrationRequest, UsableIntegration } from "../../../server/integrations/types.js";
import { jsonOf } from "../../../server/upstream/source.js";
import type { CachePolicy } from "../../../server/upstream/upstream.js";
import {
  type QueueEntry,
  UPCOMING_CALENDAR_MAX,
  UPCOMING_KINDS,
  type UpcomingEpisode,
  type UpcomingKind,
  type UpcomingMediaData,
  type UpcomingMediaQuery,
  type UpcomingMovie,
  type UpcomingSource,
} from "../contract.js";
import { calendarWindow, entryAt, episodeEntry, movieEntry } from "./calendar.js";
import { judged, reasonOf, UpcomingProblem } from "./problems.js";
import { QueueAnswer, queueEntries, queueRequest } from "./queue.js";

/**
 * What is coming changes over hours, and Sonarr and Radarr live at home on a small machine: a
 * calendar is asked at most every five minutes whoever looks, and the last one stands in while
 * the service is down.
 */
export const ARR_CALENDARS: CachePolicy = {
  kind: "arr-calendar",
  fresh: 5 * 60_000,
  failuresRemembered: true,
  staleIfError: true,
};

/** Progress moves by the second; a queue shown from before a failure would look current and be wrong. */
export const ARR_QUEUES: CachePolicy = {
  kind: "arr-queue",
  fresh: 15_000,
  failuresRemembered: true,
  staleIfError: false,
};

type Entry = UpcomingEpisode | UpcomingMovie;

const isArr = (kind: string): kind is UpcomingKind => (UPCOMING_KINDS as readonly string[]).includes(kind);

/** The integration as saved now: a changed address or key is a new key, never served the old answers. */
function connectionKey(integration: UsableIntegration): string {
  const hash = createHash("sha256")
    .update(`${integration.url}\0${integration.secrets.apiKey ?? ""}`)
    .digest("base64url");
  return `${integration.id}|${hash.slice(0, 16)}`;
}

async function usableArr(ctx: AppContext, ownerId: string, integrationId: string) {
  try {
    const integration = await ctx.integrations.usable(ownerId, integrationId);
    if (isArr(integration.kind)) return { integration, kind: integration.kind };
  } catch (error) {
    if (!(error instanceof ProblemError) || error.status !== 404) throw error;
  }
  throw new UpcomingProblem(
    "integration",
    notFoundBecause("This Sonarr or Radarr integration is gone, or not one the widget's owner may use"),
  );
}

/** One integration's calendar and queue, as the query asks; a failure names the integration. */
async function readOne(
  ctx: AppContext,
  query: UpcomingMediaQuery,
  ownerId: string,
  integrationId: string,
  now: number,
): Promise<{ source: UpcomingSource; calendar: Entry[]; queue: QueueEntry[] }> {
  const source: UpcomingSource = {
    integrationId,
    name: null,
    kind: null,
    error: null,
    calendarTruncated: false,
    queueTotal: null,
    queueMore: 0,
  };
  try {
    const { integration, kind } = await usableArr(ctx, ownerId, integrationId);
    source.name = integration.name;
    source.kind = kind;
    const ask = async (request: IntegrationRequest) =>
      judged(await ctx.integrations.call(integration, request), integration);
    const key = connectionKey(integration);
    const window = calendarWindow(now, query.days);
    const [calendar, queue] = await Promise.all([
      query.show === "queue"
        ? null
        : ctx.upstream.cached(ARR_CALENDARS, `${key}|${window.from}|${query.days}`, () =>
            calendarOf(kind, integrationId, ask, window),
          ),
      query.show === "calendar"
        ? null
        : ctx.upstream.cached(ARR_QUEUES, key, async () => {
            const response = await ask(queueRequest(kind));
            const page = QueueAnswer.parse(jsonOf(response), response);
            return {
              total: page.totalRecords,
              more: Math.max(0, page.totalRecords - page.records.length),
              entries: queueEntries(page.records, integrationId),
            };
          }),
    ]);
    source.calendarTruncated = calendar?.truncated ?? false;
    source.queueTotal = queue?.total ?? null;
    source.queueMore = queue?.more ?? 0;
    return { source, calendar: calendar?.entries ?? [], queue: queue?.entries ?? [] };
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    source.error = { reason: reasonOf(error), detail: error.detail };
    return { source, calendar: [], queue: [] };
  }
}

async function calendarOf(
  kind: UpcomingKind,
  integrationId: string,
  ask: (request: IntegrationRequest) => Promise<Awaited<ReturnType<typeof judged>>>,
  window: { from: number; to: number },
): Promise<{ entries: Entry[]; truncated: boolean }> {
  if (kind === "sonarr") {
    const { episodes, truncated } = await sonarrCalendar(ask, window, UPCOMING_CALENDAR_MAX);
    return { entries: episodes.map((e) => episodeEntry(integrationId, e)), truncated };
  }
  const { movies, truncated } = await radarrCalendar(ask, window, UPCOMING_CALENDAR_MAX);
  return {
    entries: movies.flatMap((m) => movieEntry(integrationId, m, window) ?? []),
    truncated,
  };
}

/** What an Upcoming Media widget shows, through its owner's integrations, each failing on its own. */
export function upcomingMediaSource(ctx: AppContext) {
  return async function load(query: UpcomingMediaQuery, ownerId: string): Promise<UpcomingMediaData> {
    const now = ctx.clock();
    const results = await Promise.all(
      query.integrationIds.map((id) => readOne(ctx, query, ownerId, id, now)),
    );
    const calendar = results
      .flatMap((r) => r.calendar)
      .sort((a, b) => entryAt(a) - entryAt(b) || Number(a.type === "episode") - Number(b.type === "episode"));
    return {
      sources: results.map((r) => r.source),
      calendar,
      queue: results.flatMap((r) => r.queue),
    };
  };
}
