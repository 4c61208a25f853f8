import ICAL from "ical.js";
import { UTC_ZONE, type Wall, wallMs, wallOf, type Zone, zoneForTzid } from "./zones.js";

/** One occurrence of an event, as the widget shows it. */
export interface Occurrence {
  /** The event's UID and which of its occurrences: stable while the event keeps its place in the series. */
  id: string;
  title: string;
  /** An ISO instant (UTC), or for an all-day event its first day, `YYYY-MM-DD`. */
  start: string;
  /** An ISO instant, or for an all-day event the day after its last (exclusive, as DTEND says). */
  end: string;
  allDay: boolean;
  location?: string;
}

export interface Expanded {
  occurrences: Occurrence[];
  /** Some were left out: more than `occurrences` allows, or a rule that would take too long to follow. */
  truncated: boolean;
}

/** What one feed may cost: a 4 MiB feed is read, but its rules are followed only so far. */
export interface ExpansionLimits {
  /** Occurrences kept, the earliest first. */
  occurrences: number;
  /** Steps of the rule iterator for the whole feed (each about 10 µs)... */
  steps: number;
  /** ...and for one event, so one endless rule does not starve the others. */
  stepsPerEvent: number;
  /** And in time, however cheap the steps: the server's one thread serves everyone meanwhile. */
  timeMs: number;
}

export const EXPANSION_LIMITS: ExpansionLimits = {
  occurrences: 500,
  steps: 50_000,
  stepsPerEvent: 5_000,
  timeMs: 1000,
};

/** The text is not an iCalendar feed (a login page, an error page, another format). */
export class NotACalendar extends Error {}

const DAY = 86_400_000;
const TITLE_MAX = 300;
const LOCATION_MAX = 300;
const UID_MAX = 200;

const pad = (n: number, width = 2) => String(n).padStart(width, "0");
const dateKey = (w: Wall) => `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
const wallKey = (w: Wall) => `${dateKey(w)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
const dateOnly = (w: Wall): Wall => ({ ...w, hour: 0, minute: 0, second: 0 });

/** A time as a property wrote it: its wall clock, whether it is a date, and the zone it is in. */
interface Moment {
  wall: Wall;
  date: boolean;
  zone: Zone;
}

const instantOf = (m: Moment) => (m.date ? wallMs(m.wall) : m.zone.toInstant(m.wall));

/** The zones of one VCALENDAR: its VTIMEZONEs, X-WR-TIMEZONE for floating times, each TZID resolved once. */
class CalendarZones {
  readonly floating: Zone;
  private readonly byTzid = new Map<string, Zone>();
  private readonly vtimezones = new Map<string, ICAL.Component>();

  constructor(root: ICAL.Component) {
    for (const component of root.getAllSubcomponents("vtimezone")) {
      const tzid = component.getFirstPropertyValue("tzid");
      if (typeof tzid === "string" && !this.vtimezones.has(tzid)) this.vtimezones.set(tzid, component);
    }
    // ical.js looks each TZID up among all of the calendar's components, for every time it reads:
    // a feed of 10,000 events took seconds. Times are read as wall clocks and zoned here instead.
    root.getTimeZoneByID = () => null as unknown as ICAL.Timezone;
    const declared = root.getFirstPropertyValue("x-wr-timezone");
    // Floating times are the calendar's own zone when it names one (Google, Apple); else UTC.
    this.floating = (typeof declared === "string" && zoneForTzid(declared, () => null)) || UTC_ZONE;
  }

  private zone(tzid: string): Zone {
    let zone = this.byTzid.get(tzid);
    if (!zone) {
      zone =
        zoneForTzid(tzid, (id) => {
          const component = this.vtimezones.get(id);
          return component ? new ICAL.Timezone({ component, tzid: id }) : null;
        }) ?? this.floating;
      this.byTzid.set(tzid, zone);
    }
    return zone;
  }

  moment(time: ICAL.Time, tzid: unknown): Moment {
    const wall = {
      year: time.year,
      month: time.month,
      day: time.day,
      hour: time.isDate ? 0 : time.hour,
      minute: time.isDate ? 0 : time.minute,
      second: time.isDate ? 0 : time.second,
    };
    if (time.isDate) return { wall, date: true, zone: this.floating };
    if (time.zone === ICAL.Timezone.utcTimezone) return { wall, date: false, zone: UTC_ZONE };
    const name = typeof tzid === "string" ? tzid : Array.isArray(tzid) ? tzid[0] : undefined;
    return { wall, date: false, zone: typeof name === "string" && name ? this.zone(name) : this.floating };
  }

  /** The first value of a property as a Moment; null when it is missing or not a time. */
  read(component: ICAL.Component, name: string): Moment | null {
    const property = component.getFirstProperty(name);
    const value = property?.getFirstValue();
    return property && value instanceof ICAL.Time ? this.moment(value, property.getParameter("tzid")) : null;
  }
}

/** Where an event's occurrences are counted: its start's zone, or dates for an all-day event. */
interface Frame {
  date: boolean;
  zone: Zone;
}

/** A time seen from an event's frame (an EXDATE in UTC against a start in Europe/Berlin). */
function inFrame(m: Moment, frame: Frame): Wall {
  if (m.date) return m.wall;
  const wall = m.zone === frame.zone ? m.wall : frame.zone.toWall(instantOf(m));
  return frame.date ? dateOnly(wall) : wall;
}

const keyIn = (m: Moment, frame: Frame) =>
  frame.date ? dateKey(inFrame(m, frame)) : wallKey(inFrame(m, frame));

/** What an event says about itself, read once. */
interface EventParts {
  uid: string;
  start: Moment;
  /** An all-day event's length in days, a timed one's in milliseconds. */
  length: number;
  title: string;
  location: string;
  cancelled: boolean;
}

/** Free text from a feed, as one line within `max` characters. */
function line(value: unknown, max: number): string {
  if (typeof value !== "string") return "";
  const text = value
    .slice(0, max * 4)
    .replace(/[\p{Cc}\s]+/gu, " ")
    .trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

function readEvent(component: ICAL.Component, zones: CalendarZones, index: number): EventParts | null {
  const start = zones.read(component, "dtstart");
  if (!start) return null;
  const end = zones.read(component, "dtend");
  const duration = component.getFirstPropertyValue("duration");
  const seconds = duration instanceof ICAL.Duration ? duration.toSeconds() : null;
  let length: number;
  if (start.date) {
    const days = end?.date
      ? Math.round((wallMs(end.wall) - wallMs(start.wall)) / DAY)
      : seconds !== null
        ? Math.round(seconds / 86_400)
        : 1;
    length = Math.max(1, days);
  } else {
    const ms = end && !end.date ? instantOf(end) - instantOf(start) : seconds !== null ? seconds * 1000 : 0;
    length = Math.max(0, ms);
  }
  const uid = component.getFirstPropertyValue("uid");
  const status = component.getFirstPropertyValue("status");
  return {
    uid: typeof uid === "string" && uid ? uid.slice(0, UID_MAX) : `event-${index}`,
    start,
    length,
    title: line(component.getFirstPropertyValue("summary"), TITLE_MAX),
    location: line(component.getFirstPropertyValue("location"), LOCATION_MAX),
    cancelled: typeof status === "string" && status.toUpperCase() === "CANCELLED",
  };
}

/** Rules followed so far for this feed; running out ends the expansion early, marked truncated. */
class Budget {
  truncated = false;
  steps: number;
  readonly deadline: number;
  constructor(readonly limits: ExpansionLimits) {
    this.steps = limits.steps;
    this.deadline = performance.now() + limits.timeMs;
  }

  /** One step of an event's allowance; throws when it or the feed's time is spent. */
  step(allowance: { left: number }) {
    if (--allowance.left <= 0 || performance.now() > this.deadline) throw new OutOfSteps();
  }
}

class OutOfSteps extends Error {}

interface Window {
  from: number;
  to: number;
}

/**
 * Collects occurrences that overlap the window. A zero-length event (a deadline) counts when its
 * instant is inside.
 */
class Collector {
  readonly found: { occurrence: Occurrence; at: number }[] = [];
  constructor(readonly window: Window) {}

  add(parts: EventParts, key: string, wall: Wall, frame: Frame) {
    let start: number;
    let end: number;
    let occurrence: Occurrence;
    if (frame.date) {
      start = wallMs(wall);
      end = start + parts.length * DAY;
      occurrence = {
        id: `${parts.uid}|${key}`,
        title: parts.title,
        start: dateKey(wall),
        end: dateKey(wallOf(end)),
        allDay: true,
      };
    } else {
      start = frame.zone.toInstant(wall);
      end = start + parts.length;
      occurrence = {
        id: `${parts.uid}|${key}`,
        title: parts.title,
        start: new Date(start).toISOString(),
        end: new Date(end).toISOString(),
        allDay: false,
      };
    }
    if (Math.max(end, start + 1) <= this.window.from || start >= this.window.to) return;
    if (parts.location) occurrence.location = parts.location;
    this.found.push({ occurrence, at: start });
  }
}

const UNIT_SECONDS: Partial<Record<string, number>> = {
  SECONDLY: 1,
  MINUTELY: 60,
  HOURLY: 3600,
  DAILY: 86_400,
  WEEKLY: 604_800,
};
const WEEK_SECONDS = 604_800;
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * Where to start following a rule that began long ago (a daily stand-up since 2015): a whole
 * number of weeks and of the rule's periods later, so weekdays and intervals line up as they
 * would have, and still before the window, so the first occurrence it yields (the start itself,
 * which need not match the rule) is never shown. Rules with COUNT are counted from their start.
 */
function skipAhead(start: Wall, recur: ICAL.Recur, length: number, window: Window): Wall {
  const unit = UNIT_SECONDS[recur.freq ?? ""];
  const interval = recur.interval || 1;
  if (!unit || recur.count || interval > 10_000) return start;
  const period = interval * unit;
  const step = (period / gcd(period, WEEK_SECONDS)) * WEEK_SECONDS * 1000;
  // Walls and instants differ by at most a day's offset: two days keep clear of the window.
  const target = window.from - 2 * DAY - length - step;
  const at = wallMs(start);
  if (at >= target) return start;
  return wallOf(at + Math.floor((target - at) / step) * step);
}

/**
 * UNTIL as a wall time in the event's frame, so the rule is followed on wall clocks alone: a UTC
 * UNTIL (as RFC 5545 requires beside a TZID) is read in the event's zone, a local one (as some
 * feeds write it anyway) as it stands, and a date beside timed occurrences takes in its whole day.
 */
function untilInFrame(until: ICAL.Time, frame: Frame, zones: CalendarZones): ICAL.Time {
  const moment = zones.moment(until, undefined);
  const utc = !until.isDate && until.zone === ICAL.Timezone.utcTimezone;
  let wall = utc && !frame.date ? frame.zone.toWall(wallMs(moment.wall)) : moment.wall;
  if (frame.date) {
    if (utc) wall = zones.floating.toWall(wallMs(moment.wall));
    return ICAL.Time.fromData({ year: wall.year, month: wall.month, day: wall.day, isDate: true });
  }
  if (moment.date) wall = { ...wall, hour: 23, minute: 59, second: 59 };
  return ICAL.Time.fromData({ ...wall, isDate: false });
}

/** Counts the iterator's inner steps too: a rule that can never match (Feb 30) loops there. */
function guarded(iterator: ICAL.RecurIterator, budget: Budget, allowance: { left: number }) {
  const inner = iterator as unknown as { check_contracting_rules(): boolean };
  const check = inner.check_contracting_rules.bind(iterator);
  inner.check_contracting_rules = () => {
    budget.step(allowance);
    return check();
  };
  return iterator;
}

/** The occurrences of one event with RRULE or RDATE, less EXDATEs and the overridden ones. */
function expandSeries(
  component: ICAL.Component,
  parts: EventParts,
  frame: Frame,
  excluded: Set<string>,
  zones: CalendarZones,
  collector: Collector,
  budget: Budget,
) {
  const seen = new Set<string>();
  const emit = (wall: Wall) => {
    const key = frame.date ? dateKey(wall) : wallKey(wall);
    if (seen.has(key)) return;
    seen.add(key);
    if (excluded.has(key) || (!frame.date && excluded.has(`date:${dateKey(wall)}`))) return;
    collector.add(parts, key, wall, frame);
  };
  const allowed = Math.min(budget.limits.stepsPerEvent, budget.steps);
  const steps = { left: allowed };
  try {
    for (const property of component.getAllProperties("rrule")) {
      const rule = property.getFirstValue();
      if (!(rule instanceof ICAL.Recur)) continue;
      const recur = rule.clone();
      if (recur.until) recur.until = untilInFrame(recur.until, frame, zones);
      const first = skipAhead(
        parts.start.wall,
        recur,
        frame.date ? parts.length * DAY : parts.length,
        collector.window,
      );
      const iterator = guarded(
        recur.iterator(ICAL.Time.fromData({ ...first, isDate: frame.date })),
        budget,
        steps,
      );
      for (;;) {
        budget.step(steps);
        const next = iterator.next();
        if (!next) break;
        const wall = {
          year: next.year,
          month: next.month,
          day: next.day,
          hour: next.hour,
          minute: next.minute,
          second: next.second,
        };
        const at = frame.date ? wallMs(wall) : frame.zone.toInstant(wall);
        if (at >= collector.window.to) break;
        emit(frame.date ? dateOnly(wall) : wall);
      }
    }
  } catch (error) {
    if (!(error instanceof OutOfSteps)) throw error;
    budget.truncated = true;
  } finally {
    budget.steps -= allowed - Math.max(steps.left, 0);
  }
  for (const property of component.getAllProperties("rdate")) {
    for (const value of property.getValues()) {
      const time = value instanceof ICAL.Period ? value.start : value;
      if (time instanceof ICAL.Time) emit(inFrame(zones.moment(time, property.getParameter("tzid")), frame));
    }
  }
  // The start is an occurrence even when the rule would not make it one (RFC 5545 3.8.5.3).
  emit(parts.start.wall);
}

/** The EXDATEs of an event as keys in its frame; a date beside timed occurrences takes the whole day. */
function exdates(component: ICAL.Component, frame: Frame, zones: CalendarZones): Set<string> {
  const keys = new Set<string>();
  for (const property of component.getAllProperties("exdate")) {
    for (const value of property.getValues()) {
      if (!(value instanceof ICAL.Time)) continue;
      const moment = zones.moment(value, property.getParameter("tzid"));
      keys.add(moment.date && !frame.date ? `date:${dateKey(moment.wall)}` : keyIn(moment, frame));
    }
  }
  return keys;
}

interface Series {
  masters: ICAL.Component[];
  overrides: ICAL.Component[];
}

/** One UID's VEVENTs: the series and the occurrences it overrides, in whatever order the feed has them. */
function expandSeriesGroup(
  series: Series,
  zones: CalendarZones,
  collector: Collector,
  budget: Budget,
  index: number,
) {
  const master = series.masters[0];
  const masterParts = master ? readEvent(master, zones, index) : null;
  const frame: Frame | null = masterParts
    ? { date: masterParts.start.date, zone: masterParts.start.zone }
    : null;
  const overridden = new Set<string>();
  for (const component of series.overrides) {
    const parts = readEvent(component, zones, index);
    const recurrenceId = zones.read(component, "recurrence-id");
    if (!parts || !recurrenceId) continue;
    const key = frame ? keyIn(recurrenceId, frame) : wallKey(recurrenceId.wall);
    overridden.add(key);
    // A cancelled occurrence is only taken out of its series.
    if (parts.cancelled) continue;
    const own: Frame = { date: parts.start.date, zone: parts.start.zone };
    collector.add(parts, key, parts.start.wall, own);
  }
  for (const component of series.masters) {
    const parts = component === master ? masterParts : readEvent(component, zones, index);
    if (!parts || parts.cancelled || budget.steps <= 0) continue;
    const own: Frame = { date: parts.start.date, zone: parts.start.zone };
    const repeats = component.hasProperty("rrule") || component.hasProperty("rdate");
    if (!repeats) {
      collector.add(
        parts,
        own.date ? dateKey(parts.start.wall) : wallKey(parts.start.wall),
        parts.start.wall,
        own,
      );
      continue;
    }
    const excluded = exdates(component, own, zones);
    for (const key of overridden) excluded.add(key);
    expandSeries(component, parts, own, excluded, zones, collector, budget);
  }
}

function parse(text: string): ICAL.Component[] {
  let jcal: unknown;
  try {
    jcal = ICAL.parse(text);
  } catch {
    // One malformed line (a stray HTML fragment, a broken fold) should not lose the whole feed.
    try {
      jcal = ICAL.parse(contentLinesOnly(text));
    } catch {
      throw new NotACalendar("not an iCalendar feed");
    }
  }
  const roots = (Array.isArray((jcal as unknown[])[0]) ? jcal : [jcal]) as unknown[];
  return roots.map((root) => new ICAL.Component(root as never)).filter((c) => c.name === "vcalendar");
}

/** The lines that are content lines (`NAME;PARAM=x:value`) or their folded continuations. */
function contentLinesOnly(text: string): string {
  return text
    .split(/\r?\n/)
    .filter((row) => /^[ \t]/.test(row) || /^[A-Za-z0-9-]+[;:]/.test(row))
    .join("\r\n");
}

/**
 * The occurrences of an iCalendar feed that overlap `window` (milliseconds), earliest first:
 * recurring events expanded with their EXDATEs and overridden occurrences (the override may come
 * before its series, as Google writes them), cancelled ones left out, every time read in its zone
 * (a VTIMEZONE, an IANA or Windows name, or the calendar's zone for floating times).
 */
export function expandCalendar(text: string, window: Window, limits = EXPANSION_LIMITS): Expanded {
  const body = text.replace(/^\uFEFF/, "").trimStart();
  if (!/^BEGIN:VCALENDAR/i.test(body)) throw new NotACalendar("not an iCalendar feed");
  const roots = parse(body);
  const collector = new Collector(window);
  const budget = new Budget(limits);
  let index = 0;
  for (const root of roots) {
    const zones = new CalendarZones(root);
    const byUid = new Map<string, Series>();
    for (const component of root.getAllSubcomponents("vevent")) {
      const uid = component.getFirstPropertyValue("uid");
      const key = typeof uid === "string" && uid ? uid : `event-${index++}`;
      let series = byUid.get(key);
      if (!series) {
        series = { masters: [], overrides: [] };
        byUid.set(key, series);
      }
      (component.hasProperty("recurrence-id") ? series.overrides : series.masters).push(component);
    }
    for (const series of byUid.values()) {
      try {
        expandSeriesGroup(series, zones, collector, budget, index++);
      } catch (error) {
        // An event ical.js cannot read (a malformed date or rule) is left out, not the feed.
        if (error instanceof OutOfSteps) budget.truncated = true;
      }
    }
  }
  const found = collector.found.sort(
    (a, b) =>
      a.at - b.at ||
      Number(b.occurrence.allDay) - Number(a.occurrence.allDay) ||
      a.occurrence.title.localeCompare(b.occurrence.title),
  );
  const truncated = budget.truncated || found.length > limits.occurrences;
  // A copy: cut strings can keep the whole feed's text alive in the cache (V8 slices share it).
  const occurrences = JSON.parse(
    JSON.stringify(found.slice(0, limits.occurrences).map((f) => f.occurrence)),
  ) as Occurrence[];
  return { occurrences, truncated };
}
