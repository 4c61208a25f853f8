import ICAL from "ical.js";
import { WINDOWS_ZONE_LABELS, WINDOWS_ZONES } from "./windows-zones.js";

/** A wall-clock time as a calendar writes it (month 1..12), in no zone of its own. */
export interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** A time zone as expansion needs it: wall clock to instant and back. */
export interface Zone {
  /** For tests and logs: the IANA name, "UTC", `VTIMEZONE <tzid>` or `UTC+01:00`. */
  readonly name: string;
  toInstant(wall: Wall): number;
  toWall(instant: number): Wall;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/** Wall-clock arithmetic is done on the wall read as UTC: no zone ever shifts it. */
export const wallMs = (w: Wall) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);

export function wallOf(ms: number): Wall {
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

export const UTC_ZONE: Zone = { name: "UTC", toInstant: wallMs, toWall: wallOf };

function fixedZone(offsetMinutes: number): Zone {
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  const name = `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  return {
    name,
    toInstant: (w) => wallMs(w) - offsetMinutes * MINUTE,
    toWall: (ms) => wallOf(ms + offsetMinutes * MINUTE),
  };
}

/**
 * A zone the platform's time zone data knows (Intl), with its whole history. A wall time that a
 * spring-forward skips is read with the offset before the gap, and one that a fall-back repeats
 * as its first occurrence, as RFC 5545 (3.3.5) says.
 */
function intlZone(name: string, format: Intl.DateTimeFormat): Zone {
  const toWall = (ms: number): Wall => {
    const parts: Record<string, number> = {};
    for (const part of format.formatToParts(Math.floor(ms / 1000) * 1000))
      if (part.type !== "literal") parts[part.type] = Number(part.value);
    return {
      year: parts.year!,
      month: parts.month!,
      day: parts.day!,
      hour: parts.hour! % 24,
      minute: parts.minute!,
      second: parts.second!,
    };
  };
  const offsetAt = (ms: number) => wallMs(toWall(ms)) - Math.floor(ms / 1000) * 1000;
  return {
    name,
    toWall,
    toInstant(wall) {
      const local = wallMs(wall);
      const before = offsetAt(local - DAY);
      const after = offsetAt(local + DAY);
      const candidates = [local - before, local - after].filter((ms) => offsetAt(ms) === local - ms);
      // No candidate: the wall time falls in a gap, read with the offset in force before it.
      return candidates.length ? Math.min(...candidates) : local - before;
    },
  };
}

const intlZones = new Map<string, Zone | null>();
/** Names looked up so far; feeds name few zones, but the names come from outside. */
const INTL_ZONES_MAX = 512;

/** The platform's zone of that IANA name, or null when it knows none. */
export function ianaZone(name: string): Zone | null {
  if (name.length === 0 || name.length > 64) return null;
  const known = intlZones.get(name);
  if (known !== undefined) return known;
  let zone: Zone | null = null;
  try {
    const format = new Intl.DateTimeFormat("en-US", {
      timeZone: name,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    const canonical = format.resolvedOptions().timeZone;
    zone = /^(Etc\/)?(UTC|GMT|UCT|Zulu|Universal)$/i.test(canonical) ? UTC_ZONE : intlZone(canonical, format);
  } catch {
    zone = null;
  }
  if (intlZones.size < INTL_ZONES_MAX) intlZones.set(name, zone);
  return zone;
}

/** A VTIMEZONE of the feed itself, for a TZID nothing else knows: ical.js reads its rules. */
export function vtimezoneZone(tzid: string, timezone: ICAL.Timezone): Zone {
  return {
    name: `VTIMEZONE ${tzid}`,
    toInstant: (w) => new ICAL.Time({ ...w, isDate: false }, timezone).toUnixTime() * 1000,
    toWall(ms) {
      const t = ICAL.Time.fromJSDate(new Date(Math.floor(ms / 1000) * 1000), true).convertToZone(timezone);
      return { year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second };
    },
  };
}

const caseless = (table: Readonly<Record<string, string>>) =>
  new Map(Object.entries(table).map(([key, value]) => [key.toLowerCase(), value]));
const windowsZones = caseless(WINDOWS_ZONES);
const windowsLabels = caseless(WINDOWS_ZONE_LABELS);

/** "/mozilla.org/20050126_1/Europe/Berlin", "/freeassociation.sourceforge.net/Europe/Berlin": the IANA name at the end. */
const PREFIXED_IANA =
  /\/((?:Africa|America|Antarctica|Asia|Atlantic|Australia|Europe|Indian|Pacific|Etc)\/[A-Za-z0-9_+\-/]+)$/;
/** "(UTC+05:45) Kathmandu", "(GMT-03:00) …": a label whose offset is all there is to go on. */
const LABEL_OFFSET = /^\((?:UTC|GMT)(?:([+-])(\d{1,2}):(\d{2}))?\)/i;

/**
 * The zone a TZID names, from what is most to least trustworthy: an IANA name (the platform's
 * data, with history, is better than a feed's copy of it), a Windows name or label, an IANA name
 * behind a vendor prefix, the feed's own VTIMEZONE, the offset in a Windows label. Null when
 * none of these fits: the caller falls back to the calendar's zone.
 */
export function zoneForTzid(tzid: string, vtimezone: (tzid: string) => ICAL.Timezone | null): Zone | null {
  const name = tzid.trim().replace(/^"|"$/g, "");
  if (/^(tzone:\/\/Microsoft\/Utc|Z)$/i.test(name)) return UTC_ZONE;
  const iana =
    ianaZone(name) ??
    ianaZone(windowsZones.get(name.toLowerCase()) ?? windowsLabels.get(name.toLowerCase()) ?? "") ??
    ianaZone(PREFIXED_IANA.exec(name)?.[1] ?? "");
  if (iana) return iana;
  const own = vtimezone(tzid);
  if (own) return vtimezoneZone(name, own);
  const label = LABEL_OFFSET.exec(name);
  if (label) {
    const minutes = label[1] ? Number(label[2]) * 60 + Number(label[3]) : 0;
    return fixedZone(label[1] === "-" ? -minutes : minutes);
  }
  return null;
}
