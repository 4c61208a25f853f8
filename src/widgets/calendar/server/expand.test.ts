import { describe, expect, it } from "vitest";
import { EXPANSION_LIMITS, expandCalendar, NotACalendar } from "./expand.js";
import { WINDOWS_ZONE_LABELS, WINDOWS_ZONES } from "./windows-zones.js";
import { ianaZone } from "./zones.js";

/** A feed of these lines, folded as RFC 5545 writes them (CRLF). */
const feed = (...lines: string[]) =>
  ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Tessera tests//EN", ...lines, "END:VCALENDAR"].join("\r\n");
const event = (...lines: string[]) => ["BEGIN:VEVENT", "DTSTAMP:20260101T000000Z", ...lines, "END:VEVENT"];
const window = (from: string, to: string) => ({ from: Date.parse(from), to: Date.parse(to) });
const starts = (text: string, from: string, to: string) =>
  expandCalendar(text, window(from, to)).occurrences.map((o) => o.start);

/** Europe/Berlin as Google and Nextcloud write it (the rules since 1996). */
const BERLIN_VTIMEZONE = (tzid: string) => [
  "BEGIN:VTIMEZONE",
  `TZID:${tzid}`,
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

describe("recurring events across daylight saving time", () => {
  // 2026: Europe leaves summer time on 25 October, the US on 1 November.
  it("keeps a weekly 09:00 in Europe/Berlin at 09:00 on both sides of the change (IANA name, no VTIMEZONE)", () => {
    const text = feed(
      ...event(
        "UID:weekly@test",
        "SUMMARY:Planning",
        "DTSTART;TZID=Europe/Berlin:20261019T090000",
        "DTEND;TZID=Europe/Berlin:20261019T100000",
        "RRULE:FREQ=WEEKLY;BYDAY=MO",
      ),
    );
    const { occurrences } = expandCalendar(text, window("2026-10-18T00:00:00Z", "2026-11-10T00:00:00Z"));
    expect(occurrences.map((o) => [o.start, o.end])).toEqual([
      ["2026-10-19T07:00:00.000Z", "2026-10-19T08:00:00.000Z"],
      ["2026-10-26T08:00:00.000Z", "2026-10-26T09:00:00.000Z"],
      ["2026-11-02T08:00:00.000Z", "2026-11-02T09:00:00.000Z"],
      ["2026-11-09T08:00:00.000Z", "2026-11-09T09:00:00.000Z"],
    ]);
    expect(occurrences[0]).toMatchObject({
      id: "weekly@test|2026-10-19T09:00:00",
      title: "Planning",
      allDay: false,
    });
  });

  it("reads a TZID the platform does not know from the feed's own VTIMEZONE", () => {
    const text = feed(
      ...BERLIN_VTIMEZONE("Office time"),
      ...event(
        "UID:custom@test",
        "DTSTART;TZID=Office time:20261023T090000",
        "DURATION:PT30M",
        "RRULE:FREQ=DAILY;COUNT=4",
      ),
    );
    expect(starts(text, "2026-10-01T00:00:00Z", "2026-12-01T00:00:00Z")).toEqual([
      "2026-10-23T07:00:00.000Z",
      "2026-10-24T07:00:00.000Z",
      "2026-10-25T08:00:00.000Z",
      "2026-10-26T08:00:00.000Z",
    ]);
  });

  it("keeps a daily 09:00 in America/New_York at 09:00 through the change in November and March", () => {
    const text = feed(
      ...event(
        "UID:ny@test",
        "DTSTART;TZID=America/New_York:20261030T090000",
        "DTEND;TZID=America/New_York:20261030T093000",
        "RRULE:FREQ=DAILY",
      ),
    );
    expect(starts(text, "2026-10-30T00:00:00Z", "2026-11-03T00:00:00Z")).toEqual([
      "2026-10-30T13:00:00.000Z",
      "2026-10-31T13:00:00.000Z",
      "2026-11-01T14:00:00.000Z",
      "2026-11-02T14:00:00.000Z",
    ]);
    expect(starts(text, "2027-03-13T00:00:00Z", "2027-03-16T00:00:00Z")).toEqual([
      "2027-03-13T14:00:00.000Z",
      "2027-03-14T13:00:00.000Z",
      "2027-03-15T13:00:00.000Z",
    ]);
  });

  it("reads a wall time the spring change skips with the offset before it, a repeated one as its first", () => {
    const text = feed(
      ...event("UID:gap@test", "DTSTART;TZID=America/New_York:20270314T023000", "DURATION:PT1H"),
      ...event("UID:twice@test", "DTSTART;TZID=Europe/Berlin:20261025T023000", "DURATION:PT1H"),
    );
    expect(starts(text, "2026-10-24T00:00:00Z", "2027-03-20T00:00:00Z")).toEqual([
      // 02:30 CEST (+02:00), the first of the two 02:30s.
      "2026-10-25T00:30:00.000Z",
      // 02:30 EST (-05:00): what a clock shows as 03:30 EDT.
      "2027-03-14T07:30:00.000Z",
    ]);
  });
});

describe("exceptions", () => {
  it("leaves out EXDATEs written in the event's zone, in UTC, or as a whole day", () => {
    const text = feed(
      ...event(
        "UID:daily@test",
        "DTSTART;TZID=Europe/Berlin:20261102T100000",
        "DTEND;TZID=Europe/Berlin:20261102T103000",
        "RRULE:FREQ=DAILY;COUNT=6",
        "EXDATE;TZID=Europe/Berlin:20261103T100000",
        "EXDATE:20261104T090000Z",
        "EXDATE;VALUE=DATE:20261106",
      ),
    );
    expect(starts(text, "2026-11-01T00:00:00Z", "2026-11-30T00:00:00Z")).toEqual([
      "2026-11-02T09:00:00.000Z",
      "2026-11-05T09:00:00.000Z",
      "2026-11-07T09:00:00.000Z",
    ]);
  });

  it("applies overrides written before their series (Google), moves and cancels single occurrences", () => {
    const text = feed(
      "X-WR-TIMEZONE:Europe/Berlin",
      // Moved: Wednesday's sync is on Thursday afternoon this week, under a new title.
      ...event(
        "UID:sync@google.com",
        "RECURRENCE-ID;TZID=Europe/Berlin:20261104T100000",
        "DTSTART;TZID=Europe/Berlin:20261105T150000",
        "DTEND;TZID=Europe/Berlin:20261105T153000",
        "SUMMARY:Sync (moved)",
      ),
      // Cancelled, named in UTC.
      ...event(
        "UID:sync@google.com",
        "RECURRENCE-ID:20261111T090000Z",
        "DTSTART;TZID=Europe/Berlin:20261111T100000",
        "DTEND;TZID=Europe/Berlin:20261111T103000",
        "STATUS:CANCELLED",
        "SUMMARY:Sync",
      ),
      ...event(
        "UID:sync@google.com",
        "DTSTART;TZID=Europe/Berlin:20261028T100000",
        "DTEND;TZID=Europe/Berlin:20261028T103000",
        "RRULE:FREQ=WEEKLY;BYDAY=WE",
        "SUMMARY:Sync",
      ),
    );
    const { occurrences } = expandCalendar(text, window("2026-11-01T00:00:00Z", "2026-11-20T00:00:00Z"));
    expect(occurrences.map((o) => [o.id, o.title, o.start])).toEqual([
      ["sync@google.com|2026-11-04T10:00:00", "Sync (moved)", "2026-11-05T14:00:00.000Z"],
      ["sync@google.com|2026-11-18T10:00:00", "Sync", "2026-11-18T09:00:00.000Z"],
    ]);
  });

  it("shows an occurrence moved into the window from outside it, and not one moved out", () => {
    const text = feed(
      ...event("UID:m@test", "DTSTART:20261101T120000Z", "DURATION:PT1H", "RRULE:FREQ=DAILY;COUNT=30"),
      ...event("UID:m@test", "RECURRENCE-ID:20261125T120000Z", "DTSTART:20261110T180000Z", "DURATION:PT1H"),
      ...event("UID:m@test", "RECURRENCE-ID:20261111T120000Z", "DTSTART:20261201T120000Z", "DURATION:PT1H"),
    );
    expect(starts(text, "2026-11-10T00:00:00Z", "2026-11-12T00:00:00Z")).toEqual([
      "2026-11-10T12:00:00.000Z",
      "2026-11-10T18:00:00.000Z",
    ]);
  });

  it("leaves out cancelled events and cancelled series", () => {
    const text = feed(
      ...event("UID:gone@test", "DTSTART:20261110T120000Z", "DURATION:PT1H", "STATUS:CANCELLED"),
      ...event("UID:series@test", "DTSTART:20261110T120000Z", "RRULE:FREQ=DAILY", "STATUS:CANCELLED"),
      ...event("UID:kept@test", "DTSTART:20261110T130000Z", "DURATION:PT1H", "STATUS:CONFIRMED"),
    );
    expect(starts(text, "2026-11-09T00:00:00Z", "2026-11-20T00:00:00Z")).toEqual([
      "2026-11-10T13:00:00.000Z",
    ]);
  });
});

describe("all-day events", () => {
  it("answers days, with DTEND exclusive, whatever zone the reader is in", () => {
    const text = feed(
      ...event("UID:trip@test", "SUMMARY:Trip", "DTSTART;VALUE=DATE:20261124", "DTEND;VALUE=DATE:20261127"),
      ...event("UID:holiday@test", "DTSTART;VALUE=DATE:20261125"),
      ...event(
        "UID:birthday@test",
        "DTSTART;VALUE=DATE:19900311",
        "RRULE:FREQ=YEARLY",
        "EXDATE;VALUE=DATE:20280311",
      ),
    );
    const { occurrences } = expandCalendar(text, window("2026-11-24T00:00:00Z", "2028-04-01T00:00:00Z"));
    expect(occurrences.map((o) => [o.id, o.start, o.end, o.allDay])).toEqual([
      ["trip@test|2026-11-24", "2026-11-24", "2026-11-27", true],
      ["holiday@test|2026-11-25", "2026-11-25", "2026-11-26", true],
      ["birthday@test|2027-03-11", "2027-03-11", "2027-03-12", true],
    ]);
  });

  it("lists an event that began before the window and is still running", () => {
    const text = feed(...event("UID:conf@test", "DTSTART;VALUE=DATE:20261120", "DTEND;VALUE=DATE:20261124"));
    expect(starts(text, "2026-11-22T00:00:00Z", "2026-11-30T00:00:00Z")).toEqual(["2026-11-20"]);
    expect(starts(text, "2026-11-24T00:00:00Z", "2026-11-30T00:00:00Z")).toEqual([]);
  });
});

describe("time zones as publishers write them", () => {
  it("reads Outlook's Windows zone names and labels, with or without their VTIMEZONE", () => {
    const text = feed(
      "PRODID:Microsoft Exchange Server 2010",
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
      ...event(
        "UID:outlook-1",
        "DTSTART;TZID=W. Europe Standard Time:20261110T090000",
        "DTEND;TZID=W. Europe Standard Time:20261110T100000",
        "X-MICROSOFT-CDO-BUSYSTATUS:BUSY",
      ),
      ...event(
        "UID:outlook-2",
        'DTSTART;TZID="(UTC-05:00) Eastern Time (US & Canada)":20261110T090000',
        'DTEND;TZID="(UTC-05:00) Eastern Time (US & Canada)":20261110T100000',
      ),
      ...event("UID:outlook-3", 'DTSTART;TZID="(UTC+05:45) Kathmandu":20261110T090000', "DURATION:PT1H"),
      ...event("UID:outlook-4", "DTSTART;TZID=Pacific Standard Time:20261110T090000", "DURATION:PT1H"),
    );
    expect(starts(text, "2026-11-10T00:00:00Z", "2026-11-11T00:00:00Z")).toEqual([
      "2026-11-10T03:15:00.000Z",
      "2026-11-10T08:00:00.000Z",
      "2026-11-10T14:00:00.000Z",
      "2026-11-10T17:00:00.000Z",
    ]);
  });

  it("reads floating times in the calendar's X-WR-TIMEZONE, else in UTC", () => {
    const floating = event("UID:f@test", "DTSTART:20261110T090000", "DURATION:PT1H");
    expect(
      starts(
        feed("X-WR-TIMEZONE:Europe/Berlin", ...floating),
        "2026-11-10T00:00:00Z",
        "2026-11-11T00:00:00Z",
      ),
    ).toEqual(["2026-11-10T08:00:00.000Z"]);
    expect(starts(feed(...floating), "2026-11-10T00:00:00Z", "2026-11-11T00:00:00Z")).toEqual([
      "2026-11-10T09:00:00.000Z",
    ]);
  });

  it("reads a TZID behind a vendor prefix, and an unknown one in the calendar's zone", () => {
    const text = feed(
      "X-WR-TIMEZONE:America/New_York",
      ...event("UID:p@test", "DTSTART;TZID=/mozilla.org/20050126_1/Europe/Berlin:20261110T090000"),
      ...event("UID:u@test", "DTSTART;TZID=Somewhere Else:20261110T090000"),
    );
    expect(starts(text, "2026-11-10T00:00:00Z", "2026-11-11T00:00:00Z")).toEqual([
      "2026-11-10T08:00:00.000Z",
      "2026-11-10T14:00:00.000Z",
    ]);
  });

  it("maps every listed Windows zone to one the platform knows", () => {
    for (const zone of [...Object.values(WINDOWS_ZONES), ...Object.values(WINDOWS_ZONE_LABELS)])
      expect(ianaZone(zone), zone).not.toBeNull();
  });
});

describe("UNTIL", () => {
  const until = (value: string) =>
    feed(
      ...event(
        "UID:u@test",
        "DTSTART;TZID=Europe/Berlin:20261102T100000",
        "DURATION:PT1H",
        `RRULE:FREQ=DAILY;UNTIL=${value}`,
      ),
    );
  const last = (text: string) => starts(text, "2026-11-01T00:00:00Z", "2026-12-01T00:00:00Z").at(-1);

  it("includes the occurrence at a UTC UNTIL, read in the event's zone", () => {
    expect(last(until("20261105T090000Z"))).toBe("2026-11-05T09:00:00.000Z");
    expect(last(until("20261105T085959Z"))).toBe("2026-11-04T09:00:00.000Z");
  });

  it("reads a local UNTIL (against RFC 5545, as some feeds write it) in the event's zone", () => {
    expect(last(until("20261105T100000"))).toBe("2026-11-05T09:00:00.000Z");
    expect(last(until("20261105T095959"))).toBe("2026-11-04T09:00:00.000Z");
  });

  it("reads a date UNTIL beside timed occurrences as that whole day", () => {
    expect(last(until("20261105"))).toBe("2026-11-05T09:00:00.000Z");
  });
});

describe("bounds", () => {
  it("follows a daily rule from years ago to the window without walking every day", () => {
    const text = feed(
      ...event(
        "UID:old@test",
        "DTSTART;TZID=Europe/Berlin:20100104T091500",
        "DURATION:PT15M",
        "RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR",
      ),
    );
    const { occurrences, truncated } = expandCalendar(
      text,
      window("2026-11-09T00:00:00Z", "2026-11-16T00:00:00Z"),
      {
        ...EXPANSION_LIMITS,
        stepsPerEvent: 200,
      },
    );
    expect(truncated).toBe(false);
    expect(occurrences.map((o) => o.start)).toEqual([
      "2026-11-09T08:15:00.000Z",
      "2026-11-10T08:15:00.000Z",
      "2026-11-11T08:15:00.000Z",
      "2026-11-12T08:15:00.000Z",
      "2026-11-13T08:15:00.000Z",
    ]);
  });

  it("gives up on a rule that can never match instead of looping, and keeps the other events", () => {
    const text = feed(
      ...event("UID:never@test", "DTSTART:20260101T090000Z", "RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30"),
      ...event("UID:fine@test", "DTSTART:20261110T090000Z"),
    );
    const started = performance.now();
    const { occurrences, truncated } = expandCalendar(
      text,
      window("2026-11-01T00:00:00Z", "2026-12-01T00:00:00Z"),
    );
    expect(performance.now() - started).toBeLessThan(2000);
    expect(truncated).toBe(true);
    expect(occurrences.map((o) => o.id)).toEqual(["fine@test|2026-11-10T09:00:00"]);
  });

  it("keeps the earliest occurrences up to the limit and says it left some out", () => {
    const text = feed(
      ...event("UID:h@test", "DTSTART:20261101T000000Z", "DURATION:PT5M", "RRULE:FREQ=HOURLY"),
    );
    const { occurrences, truncated } = expandCalendar(
      text,
      window("2026-11-01T00:00:00Z", "2026-12-31T00:00:00Z"),
    );
    expect(occurrences).toHaveLength(EXPANSION_LIMITS.occurrences);
    expect(occurrences[0]!.start).toBe("2026-11-01T00:00:00.000Z");
    expect(truncated).toBe(true);
  });

  it("bounds titles and places, and makes them one line", () => {
    const text = feed(
      ...event(
        "UID:long@test",
        "DTSTART:20261110T090000Z",
        `SUMMARY:${"a".repeat(2000)}`,
        "LOCATION:Room 1\\nSecond floor",
      ),
    );
    const [only] = expandCalendar(text, window("2026-11-10T00:00:00Z", "2026-11-11T00:00:00Z")).occurrences;
    expect(only!.title).toHaveLength(300);
    expect(only!.location).toBe("Room 1 Second floor");
  });
});

describe("what is not a calendar", () => {
  it("refuses a web page and other text", () => {
    for (const text of ["<!doctype html><html><body>Sign in</body></html>", "", '{"events":[]}'])
      expect(() => expandCalendar(text, window("2026-11-10T00:00:00Z", "2026-11-11T00:00:00Z"))).toThrow(
        NotACalendar,
      );
  });

  it("reads a feed with a byte order mark and a stray broken line", () => {
    const text = `\uFEFF${feed(...event("UID:ok@test", "DTSTART:20261110T090000Z", "this line is broken"))}`;
    expect(starts(text, "2026-11-10T00:00:00Z", "2026-11-11T00:00:00Z")).toEqual([
      "2026-11-10T09:00:00.000Z",
    ]);
  });
});
