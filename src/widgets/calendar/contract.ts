import type { Static } from "@sinclair/typebox";
import { Type } from "../../contract/typebox.js";
import { defineWidgetType } from "../../contract/widget-kit/define.js";
import { Id, ItemList, Matching, Text, webAddress } from "../../contract/widget-kit/fields.js";
import type { RepairKeywords } from "../../contract/widget-kit/parse.js";
import {
  REMIND_MINUTES_MAX,
  RemindMinutesBefore,
  remindMinutesIssues,
} from "../../contract/widget-kit/reminders.js";

/** Every source is fetched and expanded by the server; more calendars than this is a calendar app. */
export const CALENDAR_SOURCES_MAX = 10;
export const CALENDAR_DAYS_MAX = 60;
export const CALENDAR_DAYS_DEFAULT = 7;
/** A reminder at most a day ahead, as for Meetings. */
export const CALENDAR_REMIND_MAX = REMIND_MINUTES_MAX;
export const CALENDAR_NAME_MAX = 100;

/** Colours offered for sources; a source without one takes the one of its position. */
export const CALENDAR_PALETTE = [
  "#3b82f6",
  "#10b981",
  "#f59e0b",
  "#ef4444",
  "#8b5cf6",
  "#ec4899",
  "#14b8a6",
  "#64748b",
] as const;

export const sourceColor = (color: string | undefined, index: number): string =>
  color ?? CALENDAR_PALETTE[index % CALENDAR_PALETTE.length]!;

/**
 * A feed's address as people paste it: `webcal://` (what Nextcloud, Apple and Outlook show) is
 * the same feed over https; anything else as a web address is typed.
 */
export function calendarAddress(input: string): string | undefined {
  const trimmed = input.trim();
  return webAddress(/^webcals?:\/\//i.test(trimmed) ? trimmed.replace(/^webcals?:/i, "https:") : trimmed);
}

const addressKeywords: RepairKeywords = { clean: calendarAddress };
const UUID = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

const CalendarSource = Type.Object({
  id: Id("source"),
  name: Text({ maxLength: CALENDAR_NAME_MAX, trim: true, default: "" }),
  /** The feed's address (a secret one, as Google's, is better kept in an integration). */
  url: Type.Optional(Type.String({ maxLength: 2048, ...addressKeywords })),
  /**
   * A saved connection of kind `ical` (its address and password stay on the server), or `sonarr`
   * or `radarr` (their calendars: episodes, and movies' release days).
   */
  integrationId: Type.Optional(Matching(UUID, { clean: (s) => s.toLowerCase() })),
  color: Type.Optional(Matching("^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")),
});

export const CalendarConfig = Type.Object({
  sources: ItemList(CalendarSource, { maxItems: CALENDAR_SOURCES_MAX }),
  /** How many days ahead, today included. */
  days: Type.Integer({ minimum: 1, maximum: CALENDAR_DAYS_MAX, default: CALENDAR_DAYS_DEFAULT }),
  /** A reminder this many minutes before each timed event, sent by the server; absent: none. */
  remindMinutesBefore: RemindMinutesBefore(),
});
export type CalendarConfig = Static<typeof CalendarConfig>;
export type CalendarSource = CalendarConfig["sources"][number];

/**
 * What the server fetches for a config: each source by id with its address or integration. A
 * source with neither is one whose address the viewer is not shown (a public dashboard's
 * visitor): the server reads it from the stored widget.
 */
export interface CalendarQuery {
  days: number;
  sources: { id: string; url?: string; integrationId?: string }[];
}

const ErrorReasons = [
  "refused",
  "not_found",
  "not_calendar",
  "too_large",
  "timeout",
  "blocked",
  "integration",
  "no_address",
  "failed",
] as const;
export type CalendarErrorReason = (typeof ErrorReasons)[number];

export const CalendarEventSchema = Type.Object(
  {
    sourceId: Type.String(),
    id: Type.String({ description: "The event's UID and which of its occurrences" }),
    title: Type.String({ description: "Empty when the event has none" }),
    start: Type.String({
      description: "ISO 8601 instant (UTC); for an all-day event its first day, YYYY-MM-DD",
    }),
    end: Type.String({
      description: "ISO 8601 instant; for an all-day event the day after its last (exclusive)",
    }),
    allDay: Type.Boolean(),
    location: Type.Optional(Type.String()),
  },
  { title: "CalendarEvent", additionalProperties: false },
);
export type CalendarEvent = Static<typeof CalendarEventSchema>;

export const CalendarSourceErrorSchema = Type.Object(
  {
    sourceId: Type.String(),
    reason: Type.Union(
      ErrorReasons.map((r) => Type.Literal(r)),
      {
        description:
          "refused (401/403: a password or a new secret address), not_found, not_calendar (a web page or another format), too_large, timeout, blocked (a private address), integration (not usable by the widget's owner), no_address, failed",
      },
    ),
    detail: Type.String({ description: "What went wrong, naming the host" }),
  },
  { title: "CalendarSourceError", additionalProperties: false },
);
export type CalendarSourceError = Static<typeof CalendarSourceErrorSchema>;

export const CalendarDataSchema = Type.Object(
  {
    events: Type.Array(CalendarEventSchema, {
      description: "Occurrences from the start of yesterday (UTC) to `days` ahead, earliest first",
    }),
    errors: Type.Array(CalendarSourceErrorSchema, {
      description: "The sources that could not be read; the others' events are answered all the same",
    }),
    truncated: Type.Array(Type.String(), {
      description: "Sources with more occurrences than are answered (500 each)",
    }),
  },
  { title: "CalendarData", additionalProperties: false },
);
export type CalendarData = Static<typeof CalendarDataSchema>;

/** iCal feeds (Google, Nextcloud, Outlook, Proton, Fastmail), fetched and expanded by the server. */
export const calendarWidget = defineWidgetType({
  type: "Calendar",
  server: true,
  config: CalendarConfig,
  data: {
    kind: "service",
    publicRoute: "calendar",
    visitorQuery: ({ sources, days }: CalendarConfig): CalendarQuery | null =>
      sources.length
        ? {
            days,
            sources: sources.map(({ id, url, integrationId }) =>
              integrationId ? { id, integrationId } : url ? { id, url } : { id },
            ),
          }
        : null,
  },
  // Exactly one of the two: a saved connection wins over a typed address.
  refine: (config) => ({
    ...config,
    sources: config.sources.map(({ url, ...source }) =>
      source.integrationId || url === undefined ? source : { ...source, url },
    ),
  }),
  // A feed's address is often its only secret (Google's "secret address"): visitors never see it.
  publicConfig: (config) => ({
    ...config,
    sources: config.sources.map(({ url: _secret, ...source }) => source),
  }),
  alerts: {
    watched: (config) => config.remindMinutesBefore !== undefined && config.sources.length > 0,
    check: remindMinutesIssues,
  },
});
