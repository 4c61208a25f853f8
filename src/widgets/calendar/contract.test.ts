import { describe, expect, it } from "vitest";
import { CALENDAR_PALETTE, calendarAddress, calendarWidget, sourceColor } from "./contract.js";

const parse = calendarWidget.parse;
const ID = "0190d4a0-1234-7000-8000-00000000abcd";

describe("Calendar config", () => {
  it("starts with no sources, a week ahead and no reminders", () => {
    expect(calendarWidget.defaults()).toEqual({ sources: [], days: 7 });
    for (const raw of [null, "x", [], { sources: "x", days: 0 }, { days: 61 }, { days: 2.5 }])
      expect(parse(raw)).toEqual({ sources: [], days: 7 });
  });

  it("reads sources by address or integration, webcal:// as https://", () => {
    expect(
      parse({
        sources: [
          {
            id: "a",
            name: " Family ",
            url: "webcal://p12-caldav.icloud.com/published/2/abc",
            color: "#EF4444",
          },
          { id: "b", name: "Work", integrationId: ID.toUpperCase() },
          { id: "c", name: "Typed", url: "calendar.example.com/feed.ics" },
        ],
        days: 14,
        remindMinutesBefore: 10,
      }),
    ).toEqual({
      sources: [
        { id: "a", name: "Family", url: "https://p12-caldav.icloud.com/published/2/abc", color: "#EF4444" },
        { id: "b", name: "Work", integrationId: ID },
        { id: "c", name: "Typed", url: "https://calendar.example.com/feed.ics" },
      ],
      days: 14,
      remindMinutesBefore: 10,
    });
    expect(calendarAddress("webcals://cloud.example/remote.php/dav/public-calendars/x?export")).toBe(
      "https://cloud.example/remote.php/dav/public-calendars/x?export",
    );
  });

  it("keeps exactly one of address and integration, and drops what is not usable", () => {
    const { sources } = parse({
      sources: [
        { id: "both", name: "Both", url: "https://a.example/x.ics", integrationId: ID },
        { id: "bad", name: "Bad", url: "javascript:alert(1)", integrationId: "nope", color: "red" },
        "not a source",
      ],
    });
    expect(sources).toEqual([
      { id: "both", name: "Both", integrationId: ID },
      { id: "bad", name: "Bad" },
    ]);
  });

  it("holds at most ten sources", () => {
    const many = Array.from({ length: 12 }, (_, i) => ({
      id: `s${i}`,
      name: "",
      url: `https://a.example/${i}.ics`,
    }));
    expect(parse({ sources: many }).sources).toHaveLength(10);
  });

  it("gives each source a colour of its own when it has none", () => {
    expect(sourceColor(undefined, 0)).toBe(CALENDAR_PALETTE[0]);
    expect(sourceColor(undefined, CALENDAR_PALETTE.length + 1)).toBe(CALENDAR_PALETTE[1]);
    expect(sourceColor("#123456", 3)).toBe("#123456");
  });
});

describe("Calendar data and privacy", () => {
  const config = parse({
    sources: [
      { id: "g", name: "Google", url: "https://calendar.google.com/calendar/ical/x/private-5f1a/basic.ics" },
      { id: "n", name: "Nextcloud", integrationId: ID },
    ],
    days: 3,
  });

  it("asks the server for each source's address or integration, and for nothing without sources", () => {
    expect(calendarWidget.data.visitorQuery(config)).toEqual({
      days: 3,
      sources: [
        { id: "g", url: "https://calendar.google.com/calendar/ical/x/private-5f1a/basic.ics" },
        { id: "n", integrationId: ID },
      ],
    });
    expect(calendarWidget.data.visitorQuery(parse({}))).toBeNull();
  });

  it("never shows a visitor a feed's address (it is often the secret)", () => {
    const shown = calendarWidget.publicConfig(config);
    expect(JSON.stringify(shown)).not.toContain("private-5f1a");
    expect(shown.sources).toEqual([
      { id: "g", name: "Google" },
      { id: "n", name: "Nextcloud", integrationId: ID },
    ]);
    // The server then reads the stored widget for the address.
    expect(calendarWidget.data.visitorQuery(shown)?.sources[0]).toEqual({ id: "g" });
  });
});

describe("Calendar reminders", () => {
  it("is watched when a lead time is set and there is something to watch", () => {
    const watched = calendarWidget.alerts!.watched!;
    const source = { id: "a", name: "", url: "https://a.example/a.ics" };
    expect(watched(parse({ sources: [source], remindMinutesBefore: 0 }))).toBe(true);
    expect(watched(parse({ sources: [source] }))).toBe(false);
    expect(watched(parse({ remindMinutesBefore: 10 }))).toBe(false);
  });

  it("refuses anything but a whole number of minutes up to a day", () => {
    const check = calendarWidget.alerts!.check;
    expect(check({ remindMinutesBefore: 15 })).toEqual([]);
    expect(check({})).toEqual([]);
    for (const bad of [-1, 1.5, 1441, "10", null])
      expect(check({ remindMinutesBefore: bad })).toEqual([
        { path: "/remindMinutesBefore", message: "must be a whole number from 0 to 1440" },
      ]);
  });
});
