import { eq } from "drizzle-orm";
import type { AppContext } from "../../../server/context.js";
import { widgets } from "../../../server/db/schema.js";
import { notFoundBecause, ProblemError } from "../../../server/http/errors.js";
import type { CachePolicy } from "../../../server/upstream/upstream.js";
import {
  CALENDAR_DAYS_MAX,
  type CalendarData,
  type CalendarEvent,
  type CalendarQuery,
  type CalendarSourceError,
  calendarWidget,
} from "../contract.js";
import { arrOccurrences, isArrKind } from "./arr.js";
import type { Expanded } from "./expand.js";
import {
  ACCEPT,
  CalendarProblem,
  expandFeed,
  feedText,
  fetchTypedFeed,
  reasonOf,
  splitCredentials,
} from "./feeds.js";

const DAY = 86_400_000;

/**
 * A calendar changes over hours, and its host is a person's (their Nextcloud) or a busy one's
 * (Google): read at most every ten minutes whoever asks, a failure not asked again at once, and
 * the last copy shown while the host is down.
 */
export const CALENDAR_FEEDS: CachePolicy = {
  kind: "calendar",
  fresh: 10 * 60_000,
  failuresRemembered: true,
  staleIfError: true,
};

/**
 * What is kept per feed: its occurrences from the start of yesterday (UTC) to the longest view
 * ahead, so every widget of that feed, whatever its `days`, is cut from one expansion a day.
 */
function horizon(now: number) {
  const today = Math.floor(now / DAY) * DAY;
  return { day: today, from: today - DAY, to: today + (CALENDAR_DAYS_MAX + 1) * DAY };
}

/** The instants an occurrence spans; an all-day one from its first day's start (UTC) on. */
function spanOf(event: Pick<CalendarEvent, "start" | "end">): { start: number; end: number } {
  return { start: Date.parse(event.start), end: Date.parse(event.end) };
}

type SourceQuery = CalendarQuery["sources"][number];

/** Reads the sources of Calendar widgets: each feed fetched and expanded once per freshness window. */
export function createCalendarReader(ctx: AppContext) {
  const { upstream, integrations } = ctx;

  const typed = (address: string, now: number) => {
    const window = horizon(now);
    return upstream.cached(CALENDAR_FEEDS, `${window.day}|url|${address}`, async () => {
      const host = splitCredentials(address).url.host;
      const response = await fetchTypedFeed(upstream, address);
      return expandFeed(feedText(response, host), host, response.headers.get("content-type"), window);
    });
  };

  const saved = async (ownerId: string, integrationId: string, now: number) => {
    let integration: Awaited<ReturnType<typeof integrations.usable>> | undefined;
    try {
      integration = await integrations.usable(ownerId, integrationId);
    } catch (error) {
      if (!(error instanceof ProblemError) || error.status !== 404) throw error;
    }
    if (!integration || !(integration.kind === "ical" || isArrKind(integration.kind)))
      throw new CalendarProblem(
        "integration",
        notFoundBecause("The calendar's integration is gone, or not one the widget's owner may use"),
      );
    const window = horizon(now);
    const key = `${window.day}|integration|${integration.id}`;
    const usable = integration;
    // Checked for this owner above; the feed itself is the same for everyone who may use it.
    if (isArrKind(usable.kind))
      return upstream.cached(CALENDAR_FEEDS, key, () => arrOccurrences(integrations, usable, window));
    return upstream.cached(CALENDAR_FEEDS, key, async () => {
      const host = hostOf(usable.url);
      const response = await integrations.call(usable, {
        what: "the calendar",
        headers: { accept: ACCEPT },
      });
      return expandFeed(feedText(response, host), host, response.headers.get("content-type"), window);
    });
  };

  return {
    /**
     * The events of the sources within `days` from now, earliest first, and what went wrong with
     * each source that failed: one failing source never hides the others. `ownerId` is whose
     * integrations may be used (the widget's owner); the stored widget fills in addresses a
     * visitor's query leaves out.
     */
    async read(
      query: CalendarQuery,
      owner: { widgetId: string; ownerId: string },
      now = ctx.clock(),
    ): Promise<CalendarData> {
      let stored: Promise<Map<string, SourceQuery>> | undefined;
      const widget = () => {
        stored ??= storedSources(ctx, owner.widgetId);
        return stored;
      };
      const results = await Promise.all(
        query.sources.map(async (asked): Promise<Expanded | CalendarSourceError> => {
          try {
            const source = asked.url || asked.integrationId ? asked : (await widget()).get(asked.id);
            if (source?.integrationId) return await saved(owner.ownerId, source.integrationId, now);
            if (source?.url) return await typed(source.url, now);
            throw noAddress();
          } catch (error) {
            if (!(error instanceof ProblemError)) throw error;
            return { sourceId: asked.id, reason: reasonOf(error), detail: error.detail };
          }
        }),
      );
      const from = horizon(now).from;
      const until = now + query.days * DAY;
      const events: (CalendarEvent & { at: number })[] = [];
      const errors: CalendarSourceError[] = [];
      const truncated: string[] = [];
      results.forEach((result, index) => {
        const sourceId = query.sources[index]!.id;
        if ("reason" in result) {
          errors.push(result);
          return;
        }
        if (result.truncated) truncated.push(sourceId);
        for (const occurrence of result.occurrences) {
          const span = spanOf(occurrence);
          if (span.start >= until || Math.max(span.end, span.start + 1) <= from) continue;
          events.push({ sourceId, ...occurrence, at: span.start });
        }
      });
      events.sort(
        (a, b) => a.at - b.at || Number(b.allDay) - Number(a.allDay) || a.title.localeCompare(b.title),
      );
      return { events: events.map(({ at: _at, ...event }) => answer(event)), errors, truncated };
    },
  };
}

/** The answer's fields in a fixed order, nothing else. */
function answer(event: CalendarEvent): CalendarEvent {
  const { sourceId, id, title, start, end, allDay, location } = event;
  return location
    ? { sourceId, id, title, start, end, allDay, location }
    : { sourceId, id, title, start, end, allDay };
}

const noAddress = () => new CalendarProblem("no_address", notFoundBecause("This source has no address"));

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The widget's sources as stored, with their addresses (a visitor's query has none). */
async function storedSources(ctx: AppContext, widgetId: string): Promise<Map<string, SourceQuery>> {
  const [row] = await ctx.database.db
    .select({ config: widgets.config })
    .from(widgets)
    .where(eq(widgets.id, widgetId));
  const { sources } = calendarWidget.parse(row?.config);
  return new Map(sources.map((s): [string, SourceQuery] => [s.id, s]));
}
