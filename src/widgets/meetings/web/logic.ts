import { t } from "../../../web/i18n/i18n";
import type { CalendarEvent } from "../../../web/lib/data-api";
import {
  appLocale,
  dayKey,
  dayLabel,
  formatTime,
  type TimeOptions,
  zonedWallClock,
} from "../../../web/widget-kit/data/format";
import { remindOptions as remindChoices, withRemind } from "../../../web/widget-kit/settings/AlertOption";

export interface DayGroup {
  key: string;
  label: string;
  events: CalendarEvent[];
}

/** Events not yet over, in start order, under their day in the user's zone. */
export function groupByDay(
  events: readonly CalendarEvent[],
  now: number,
  timezone: string,
  locale = appLocale(),
): DayGroup[] {
  const today = dayKey(now, timezone);
  const groups = new Map<string, DayGroup>();
  const upcoming = events
    .filter((e) => e.status !== "cancelled" && Date.parse(e.end) > now)
    .sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
  for (const event of upcoming) {
    // An event that began before today (running over midnight) is listed under today.
    const start = Math.max(Date.parse(event.start), now);
    const key = dayKey(start, timezone);
    let group = groups.get(key);
    if (!group) {
      group = { key, label: dayLabel(key, today, locale), events: [] };
      groups.set(key, group);
    }
    group.events.push(event);
  }
  return [...groups.values()];
}

export function timeRange(event: CalendarEvent, options: TimeOptions, locale = appLocale()): string {
  return `${formatTime(event.start, options, locale)} – ${formatTime(event.end, options, locale)}`;
}

/** The create form's first guess: the next half hour, lasting half an hour, in the user's zone. */
export function defaultEventTimes(
  now: number,
  timezone: string,
): { date: string; start: string; end: string } {
  const half = 30 * 60_000;
  const startAt = Math.ceil((now + 60_000) / half) * half;
  const start = zonedWallClock(startAt, timezone);
  const end = zonedWallClock(startAt + half, timezone);
  return { date: start.date, start: start.time, end: end.date === start.date ? end.time : "23:59" };
}

/** Problems with the form, by field, in the app's language; empty when it can be sent. */
export function validateEvent(input: {
  calendarId: string;
  title: string;
  date: string;
  start: string;
  end: string;
}): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!input.calendarId) errors.calendarId = t("widgets.meetings.errors.calendar");
  if (!input.title.trim()) errors.title = t("widgets.meetings.errors.title");
  else if (input.title.length > 200) errors.title = t("widgets.meetings.errors.titleLength", { max: 200 });
  if (!/^\d{4}-\d{2}-\d{2}$/.test(input.date)) errors.date = t("widgets.meetings.errors.date");
  if (!/^\d{2}:\d{2}$/.test(input.start)) errors.start = t("widgets.meetings.errors.start");
  if (!/^\d{2}:\d{2}$/.test(input.end)) errors.end = t("widgets.meetings.errors.end");
  else if (!errors.start && input.end <= input.start)
    errors.end = t("widgets.meetings.errors.endBeforeStart");
  return errors;
}

/** The lead times offered; "" (Off) leaves `remindMinutesBefore` out. */
export const REMIND_CHOICES = [5, 10, 15, 30, 60] as const;

/** The select's options (the widget kit's, with Meetings' lead times). */
export const remindOptions = (current: number | undefined) => remindChoices(REMIND_CHOICES, current);

export const remindValue = (current: number | undefined) => (current === undefined ? "" : String(current));

export { withRemind };
