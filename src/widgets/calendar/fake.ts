import { type FakeAnswer, type FakeRequest, FakeServer } from "../../../test/fakes/oauth-http.js";

/**
 * Calendar feeds as the big publishers write them, dated from an injected clock so tests never
 * rot: each fixture keeps its publisher's quirks (RFC 5545 and the notes in
 * /work/shared/notes/integrations.md, section 10).
 */

const DAY = 86_400_000;
const pad = (n: number) => String(n).padStart(2, "0");

/** The UTC day `offset` days from the clock's, as `YYYYMMDD`. */
function day(now: number, offset: number): string {
  const d = new Date(Math.floor(now / DAY) * DAY + offset * DAY);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
}
/** A wall time on that day, `YYYYMMDDTHHMMSS` (no zone: the TZID or the calendar says which). */
const at = (now: number, offset: number, hhmm: string) => `${day(now, offset)}T${hhmm}00`;

const calendar = (...lines: string[]) => [...lines, "END:VCALENDAR", ""].join("\r\n");

const BERLIN = [
  "BEGIN:VTIMEZONE",
  "TZID:Europe/Berlin",
  "X-LIC-LOCATION:Europe/Berlin",
  "BEGIN:DAYLIGHT",
  "TZOFFSETFROM:+0100",
  "TZOFFSETTO:+0200",
  "TZNAME:CEST",
  "DTSTART:19700329T020000",
  "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
  "END:DAYLIGHT",
  "BEGIN:STANDARD",
  "TZOFFSETFROM:+0200",
  "TZOFFSETTO:+0100",
  "TZNAME:CET",
  "DTSTART:19701025T030000",
  "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
  "END:STANDARD",
  "END:VTIMEZONE",
];

/**
 * Google's "secret address in iCal format": X-WR-TIMEZONE, IANA TZIDs with their VTIMEZONE, and
 * the overrides of a series written before the series itself.
 */
export function googleFeed(now: number): string {
  return calendar(
    "BEGIN:VCALENDAR",
    "PRODID:-//Google Inc//Google Calendar 70.9054//EN",
    "VERSION:2.0",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    "X-WR-CALNAME:Family",
    "X-WR-TIMEZONE:Europe/Berlin",
    ...BERLIN,
    // Overrides first, as Google writes them: the day-after-tomorrow standup moved to 11:00...
    "BEGIN:VEVENT",
    `DTSTART;TZID=Europe/Berlin:${at(now, 2, "1100")}`,
    `DTEND;TZID=Europe/Berlin:${at(now, 2, "1115")}`,
    "DTSTAMP:20260101T000000Z",
    "UID:standup-0001@google.com",
    `RECURRENCE-ID;TZID=Europe/Berlin:${at(now, 2, "0930")}`,
    "SUMMARY:Standup (moved)",
    "STATUS:CONFIRMED",
    "END:VEVENT",
    // ...and the one three days ahead cancelled.
    "BEGIN:VEVENT",
    `DTSTART;TZID=Europe/Berlin:${at(now, 3, "0930")}`,
    `DTEND;TZID=Europe/Berlin:${at(now, 3, "0945")}`,
    "DTSTAMP:20260101T000000Z",
    "UID:standup-0001@google.com",
    `RECURRENCE-ID;TZID=Europe/Berlin:${at(now, 3, "0930")}`,
    "SUMMARY:Standup",
    "STATUS:CANCELLED",
    "END:VEVENT",
    "BEGIN:VEVENT",
    `DTSTART;TZID=Europe/Berlin:${at(now, -30, "0930")}`,
    `DTEND;TZID=Europe/Berlin:${at(now, -30, "0945")}`,
    "RRULE:FREQ=DAILY",
    `EXDATE;TZID=Europe/Berlin:${at(now, 4, "0930")}`,
    "DTSTAMP:20260101T000000Z",
    "UID:standup-0001@google.com",
    "SUMMARY:Standup",
    "LOCATION:https://meet.google.com/abc-defg-hij",
    "STATUS:CONFIRMED",
    "END:VEVENT",
    "BEGIN:VEVENT",
    `DTSTART;VALUE=DATE:${day(now, 1)}`,
    `DTEND;VALUE=DATE:${day(now, 2)}`,
    "RRULE:FREQ=YEARLY",
    "DTSTAMP:20260101T000000Z",
    "UID:birthday-anna@google.com",
    "SUMMARY:Anna's birthday",
    "TRANSP:TRANSPARENT",
    "END:VEVENT",
    "BEGIN:VEVENT",
    `DTSTART;TZID=Europe/Berlin:${at(now, 0, "1600")}`,
    `DTEND;TZID=Europe/Berlin:${at(now, 0, "1645")}`,
    "DTSTAMP:20260101T000000Z",
    "UID:dentist@google.com",
    "SUMMARY:Dentist",
    "END:VEVENT",
    // A floating time: the calendar's X-WR-TIMEZONE says where.
    "BEGIN:VEVENT",
    `DTSTART:${at(now, 1, "1900")}`,
    `DTEND:${at(now, 1, "2130")}`,
    "DTSTAMP:20260101T000000Z",
    "UID:dinner@google.com",
    "SUMMARY:Dinner at Rosa's",
    "END:VEVENT",
  );
}

/** Nextcloud's export (SabreDAV): its VTIMEZONE, a series ending on a UTC UNTIL, a multi-day event. */
export function nextcloudFeed(now: number): string {
  return calendar(
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//SabreDAV//SabreDAV//EN",
    "CALSCALE:GREGORIAN",
    "X-WR-CALNAME:Personal",
    "X-APPLE-CALENDAR-COLOR:#0082c9",
    ...BERLIN,
    "BEGIN:VEVENT",
    "CREATED:20260101T000000Z",
    "DTSTAMP:20260101T000000Z",
    "LAST-MODIFIED:20260101T000000Z",
    "SEQUENCE:2",
    "UID:0c3a4f6e-yoga",
    `DTSTART;TZID=Europe/Berlin:${at(now, 1, "1800")}`,
    `DTEND;TZID=Europe/Berlin:${at(now, 1, "1900")}`,
    "STATUS:CONFIRMED",
    "SUMMARY:Yoga",
    // Three Tuesdays-or-whatever, the last one included: 18:00 Berlin is 17:00Z in winter.
    `RRULE:FREQ=WEEKLY;UNTIL=${day(now, 15)}T170000Z`,
    "END:VEVENT",
    "BEGIN:VEVENT",
    "DTSTAMP:20260101T000000Z",
    "UID:1d2e3f-conference",
    `DTSTART;VALUE=DATE:${day(now, 3)}`,
    `DTEND;VALUE=DATE:${day(now, 6)}`,
    "SUMMARY:Conference",
    "LOCATION:Messe Berlin\\, Hall 7",
    "END:VEVENT",
  );
}

/** Outlook's "publish a calendar": Windows zone names, a 1601-based VTIMEZONE, and a label as TZID. */
export function outlookFeed(now: number): string {
  return calendar(
    "BEGIN:VCALENDAR",
    "METHOD:PUBLISH",
    "PRODID:Microsoft Exchange Server 2010",
    "VERSION:2.0",
    "X-WR-CALNAME:Work",
    "BEGIN:VTIMEZONE",
    "TZID:W. Europe Standard Time",
    "BEGIN:STANDARD",
    "DTSTART:16010101T030000",
    "TZOFFSETFROM:+0200",
    "TZOFFSETTO:+0100",
    "RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=10",
    "END:STANDARD",
    "BEGIN:DAYLIGHT",
    "DTSTART:16010101T020000",
    "TZOFFSETFROM:+0100",
    "TZOFFSETTO:+0200",
    "RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=3",
    "END:DAYLIGHT",
    "END:VTIMEZONE",
    "BEGIN:VEVENT",
    "UID:040000008200E00074C5B7101A82E00800000000",
    "SUMMARY:Quarterly review",
    `DTSTART;TZID=W. Europe Standard Time:${at(now, 2, "1400")}`,
    `DTEND;TZID=W. Europe Standard Time:${at(now, 2, "1530")}`,
    "CLASS:PUBLIC",
    "PRIORITY:5",
    "DTSTAMP:20260101T000000Z",
    "TRANSP:OPAQUE",
    "STATUS:CONFIRMED",
    "SEQUENCE:0",
    "LOCATION:Room 4.12",
    "X-MICROSOFT-CDO-APPT-SEQUENCE:0",
    "X-MICROSOFT-CDO-BUSYSTATUS:BUSY",
    "X-MICROSOFT-CDO-INTENDEDSTATUS:BUSY",
    "X-MICROSOFT-CDO-ALLDAYEVENT:FALSE",
    "END:VEVENT",
    "BEGIN:VEVENT",
    "UID:040000008200E00074C5B7101A82E00800000001",
    "SUMMARY:Call with New York",
    `DTSTART;TZID="(UTC-05:00) Eastern Time (US & Canada)":${at(now, 1, "1000")}`,
    `DTEND;TZID="(UTC-05:00) Eastern Time (US & Canada)":${at(now, 1, "1030")}`,
    "DTSTAMP:20260101T000000Z",
    "X-MICROSOFT-CDO-BUSYSTATUS:BUSY",
    "END:VEVENT",
  );
}

const LOGIN_PAGE =
  "<!DOCTYPE html><html><head><title>Sign in</title></head><body><form>Sign in</form></body></html>";

export interface FakeCalendarOptions {
  /** The fixtures' "now" (the app's clock in a test that moves time). */
  clock?: () => number;
  /** Nextcloud's users and their app passwords (HTTP Basic). */
  accounts?: Record<string, string>;
}

/**
 * A host serving feeds as Google, Nextcloud and Outlook do, plus what goes wrong with feeds: a
 * sign-in page where the feed was, a missing one, a redirect, one too large to read. Nextcloud's
 * feed asks for Basic auth as SabreDAV does (401 with its realm). Records what it was asked.
 */
export async function startFakeCalendars({ clock = Date.now, accounts = {} }: FakeCalendarOptions = {}) {
  const ics = (text: string): FakeAnswer => ({
    status: 200,
    text,
    headers: { "content-type": "text/calendar; charset=utf-8" },
  });
  const signedIn = (req: FakeRequest) => {
    const header = req.headers.authorization ?? "";
    if (!header.startsWith("Basic ")) return false;
    const [user, ...rest] = Buffer.from(header.slice(6), "base64").toString("utf8").split(":");
    return user !== undefined && accounts[user] !== undefined && accounts[user] === rest.join(":");
  };
  return FakeServer.start((req: FakeRequest): FakeAnswer => {
    if (req.method !== "GET") return { status: 405, text: "" };
    switch (req.path) {
      case "/calendar/ical/family%40group.calendar.google.com/private-5f1a/basic.ics":
        return ics(googleFeed(clock()));
      case "/remote.php/dav/calendars/anna/personal":
        if (!req.query.has("export")) return { status: 405, text: "" };
        if (!signedIn(req))
          return {
            status: 401,
            text: '<?xml version="1.0" encoding="utf-8"?><d:error xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns"><s:exception>Sabre\\DAV\\Exception\\NotAuthenticated</s:exception></d:error>',
            headers: {
              "content-type": "application/xml",
              "www-authenticate": 'Basic realm="Nextcloud", charset="UTF-8"',
            },
          };
        return ics(nextcloudFeed(clock()));
      case "/owa/calendar/0a1b/2c3d/calendar.ics":
        return ics(outlookFeed(clock()));
      case "/moved.ics":
        return { status: 301, text: "", headers: { location: "/owa/calendar/0a1b/2c3d/calendar.ics" } };
      case "/login.html":
        return { status: 200, text: LOGIN_PAGE, headers: { "content-type": "text/html; charset=utf-8" } };
      case "/huge.ics":
        return ics(`BEGIN:VCALENDAR\r\nX-FILLER:${"x".repeat(5 * 1024 * 1024)}\r\nEND:VCALENDAR\r\n`);
      default:
        return { status: 404, text: "Not Found" };
    }
  });
}

/** The fake's paths, for configs. */
export const FEEDS = {
  google: "/calendar/ical/family%40group.calendar.google.com/private-5f1a/basic.ics",
  nextcloud: "/remote.php/dav/calendars/anna/personal?export",
  outlook: "/owa/calendar/0a1b/2c3d/calendar.ics",
  moved: "/moved.ics",
  login: "/login.html",
  missing: "/gone.ics",
  huge: "/huge.ics",
} as const;
