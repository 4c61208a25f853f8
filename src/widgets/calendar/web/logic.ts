import { hostname } from "../../../contract/widget-kit/fields";
import { t } from "../../../web/i18n/i18n";
import {
  addDays,
  appLocale,
  dayKey,
  dayLabel,
  formatTime,
  type TimeOptions,
} from "../../../web/widget-kit/data/format";
import { remindOptions as remindChoices, withRemind } from "../../../web/widget-kit/settings/AlertOption";
import {
  type CalendarConfig,
  type CalendarErrorReason,
  type CalendarEvent,
  type CalendarSourceError,
  sourceColor,
} from "../contract";

/** A source as the view draws it: its name and colour. */
export interface SourceLook {
  name: string;
  color: string;
}

export function sourceLooks(config: CalendarConfig): Map<string, SourceLook> {
  return new Map(
    config.sources.map((source, index) => [
      source.id,
      {
        name: source.name || (source.url ? hostname(source.url) : t("widgets.calendar.fallbackName")),
        color: sourceColor(source.color, index),
      },
    ]),
  );
}

export interface AgendaEvent extends CalendarEvent {
  /** Over before now: drawn faintly, above the "now" line. */
  past: boolean;
  /** Running now. */
  live: boolean;
  /** A timed event that began on an earlier day of the agenda (or before it). */
  continued: boolean;
}

export interface AgendaDay {
  key: string;
  label: string;
  isToday: boolean;
  events: AgendaEvent[];
  /** Today only: how many of its events come before the "now" line (all-day ones and those begun); null on other days. */
  nowAt: number | null;
}

/**
 * The widget's agenda: from today to `days` ahead, in the user's zone, each day with its all-day
 * events first (every day they cover), then its timed events in start order. Today keeps what is
 * already over, faintly, above a "now" line; a timed event that runs over midnight is listed on
 * the day it started, or under today when it started before.
 */
export function agenda(
  events: readonly CalendarEvent[],
  now: number,
  days: number,
  timezone: string,
  locale = appLocale(),
): AgendaDay[] {
  const today = dayKey(now, timezone);
  const last = addDays(today, days - 1);
  const byDay = new Map<string, AgendaEvent[]>();
  const put = (key: string, event: AgendaEvent) => {
    if (key < today || key > last) return;
    const list = byDay.get(key) ?? [];
    list.push(event);
    byDay.set(key, list);
  };
  for (const event of events) {
    if (event.allDay) {
      for (let key = event.start; key < event.end && key <= last; key = addDays(key, 1))
        put(key, { ...event, past: false, live: key === today, continued: key !== event.start });
      continue;
    }
    const start = Date.parse(event.start);
    const end = Date.parse(event.end);
    const startDay = dayKey(start, timezone);
    // Over before today began: yesterday's, which the server sends for readers further west.
    if (end <= now && startDay < today) continue;
    const past = end <= now && start < now;
    put(startDay < today ? today : startDay, {
      ...event,
      past,
      live: start <= now && now < end,
      continued: startDay < today,
    });
  }
  return [...byDay.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, list]) => {
      const sorted = list.sort(
        (a, b) =>
          Number(b.allDay) - Number(a.allDay) ||
          (a.allDay ? 0 : Date.parse(a.start) - Date.parse(b.start)) ||
          a.title.localeCompare(b.title, locale),
      );
      const isToday = key === today;
      return {
        key,
        label: dayLabel(key, today, locale),
        isToday,
        events: sorted,
        nowAt: isToday ? sorted.filter((e) => e.allDay || Date.parse(e.start) <= now).length : null,
      };
    });
}

/** "09:30 – 10:00", "22:00 – Wed 02:00" when it ends another day, "all day" for a day of an all-day event. */
export function timeLabel(event: AgendaEvent, options: TimeOptions, locale = appLocale()): string {
  if (event.allDay) return t("widgets.calendar.allDay");
  const startDay = dayKey(event.start, options.timezone);
  const endDay = dayKey(Date.parse(event.end) - 1, options.timezone);
  const start = formatTime(event.start, options, locale);
  if (event.end === event.start) return start;
  const end = formatTime(event.end, options, locale);
  if (startDay === endDay) return `${start} – ${end}`;
  const weekday = new Intl.DateTimeFormat(locale, { timeZone: options.timezone, weekday: "short" }).format(
    new Date(event.end),
  );
  return `${start} – ${weekday} ${end}`;
}

/** Why a source could not be read, in the reader's words (never the server's English detail). */
export function describeSourceError(reason: CalendarErrorReason): string {
  switch (reason) {
    case "refused":
      return t("widgets.calendar.errors.refused");
    case "not_found":
      return t("widgets.calendar.errors.not_found");
    case "not_calendar":
      return t("widgets.calendar.errors.not_calendar");
    case "too_large":
      return t("widgets.calendar.errors.too_large");
    case "timeout":
      return t("widgets.calendar.errors.timeout");
    case "blocked":
      return t("widgets.calendar.errors.blocked");
    case "integration":
      return t("widgets.calendar.errors.integration");
    case "no_address":
      return t("widgets.calendar.errors.no_address");
    default:
      return t("widgets.calendar.errors.failed");
  }
}

/** Each failing source by its name and colour, with why, in the order of the config. */
export function failures(
  errors: readonly CalendarSourceError[],
  looks: Map<string, SourceLook>,
): { sourceId: string; look: SourceLook; text: string }[] {
  return errors.map((error) => ({
    sourceId: error.sourceId,
    look: looks.get(error.sourceId) ?? { name: t("widgets.calendar.fallbackName"), color: "var(--muted)" },
    text: describeSourceError(error.reason),
  }));
}

/** The lead times offered; "" (Off) leaves `remindMinutesBefore` out. */
export const REMIND_CHOICES = [0, 5, 10, 15, 30, 60, 120, 1440] as const;

/** The select's options (the widget kit's, with the Calendar's lead times). */
export const remindOptions = (current: number | undefined) => remindChoices(REMIND_CHOICES, current);

export { withRemind };
