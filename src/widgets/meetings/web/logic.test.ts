import { describe, expect, it } from "vitest";
import type { CalendarEvent } from "../../../web/lib/data-api";
import { meetingsWidget } from "../contract";
import {
  defaultEventTimes,
  groupByDay,
  remindOptions,
  remindValue,
  timeRange,
  validateEvent,
  withRemind,
} from "./logic";

const event = (
  id: string,
  start: string,
  end: string,
  extra: Partial<CalendarEvent> = {},
): CalendarEvent => ({
  id,
  calendarId: "primary",
  title: `Event ${id}`,
  start,
  end,
  location: null,
  meetUrl: null,
  htmlLink: null,
  status: "confirmed",
  ...extra,
});

describe("meetings shaping", () => {
  const berlin = { timezone: "Europe/Berlin", hourFormat: "24" as const };
  const now = Date.parse("2026-03-02T09:00:00Z"); // 10:00 in Berlin, a Monday

  it("groups upcoming and running events by day in the user's zone, dropping ended and cancelled ones", () => {
    const groups = groupByDay(
      [
        event("tomorrow", "2026-03-03T08:00:00Z", "2026-03-03T09:00:00Z"),
        event("ended", "2026-03-02T07:00:00Z", "2026-03-02T08:00:00Z"),
        event("running", "2026-03-02T08:30:00Z", "2026-03-02T09:30:00Z"),
        event("late", "2026-03-02T22:30:00Z", "2026-03-02T23:00:00Z"),
        event("cancelled", "2026-03-02T12:00:00Z", "2026-03-02T13:00:00Z", { status: "cancelled" }),
        event("later", "2026-03-05T08:00:00Z", "2026-03-05T09:00:00Z"),
      ],
      now,
      "Europe/Berlin",
      "en-GB",
    );
    // 22:30 UTC is 23:30 in Berlin: still today there.
    expect(groups.map((g) => g.events.map((e) => e.id))).toEqual([
      ["running", "late"],
      ["tomorrow"],
      ["later"],
    ]);
    expect(groups.map((g) => g.label).slice(0, 2)).toEqual(["Today", "Tomorrow"]);
    expect(groups[2]!.label).toMatch(/^Thursday,? 5 March$/);
    expect(timeRange(groups[0]!.events[0]!, berlin, "en-GB")).toBe("09:30 – 10:30");
  });

  it("suggests the next half hour in the user's zone", () => {
    expect(defaultEventTimes(Date.parse("2026-03-02T09:10:00Z"), "Europe/Berlin")).toEqual({
      date: "2026-03-02",
      start: "10:30",
      end: "11:00",
    });
    expect(defaultEventTimes(Date.parse("2026-03-02T22:40:00Z"), "Europe/Berlin")).toEqual({
      date: "2026-03-03",
      start: "00:00",
      end: "00:30",
    });
    expect(defaultEventTimes(Date.parse("2026-03-02T22:10:00Z"), "Europe/Berlin")).toEqual({
      date: "2026-03-02",
      start: "23:30",
      end: "23:59",
    });
  });

  it("validates the create form", () => {
    const ok = { calendarId: "primary", title: "Sync", date: "2026-03-02", start: "10:00", end: "10:30" };
    expect(validateEvent(ok)).toEqual({});
    expect(validateEvent({ ...ok, title: "  " })).toEqual({ title: "Give the event a title" });
    expect(validateEvent({ ...ok, end: "09:00" })).toEqual({ end: "The end must be after the start" });
    expect(validateEvent({ ...ok, end: "10:00" })).toEqual({ end: "The end must be after the start" });
    expect(
      Object.keys(validateEvent({ calendarId: "", title: "", date: "", start: "", end: "" })).sort(),
    ).toEqual(["calendarId", "date", "end", "start", "title"]);
  });
});

describe("Meetings reminder choice", () => {
  it("offers Off and the usual lead times, keeping an unusual stored one", () => {
    expect(remindOptions(undefined)).toEqual([
      ["", "Off"],
      ["5", "5 minutes before"],
      ["10", "10 minutes before"],
      ["15", "15 minutes before"],
      ["30", "30 minutes before"],
      ["60", "1 hour before"],
    ]);
    expect(remindOptions(0).slice(0, 2)).toEqual([
      ["", "Off"],
      ["0", "At the start"],
    ]);
    expect(remindOptions(120).at(-1)).toEqual(["120", "2 hours before"]);
    expect(remindOptions(45).map(([v]) => v)).toEqual(["", "5", "10", "15", "30", "45", "60"]);
    expect(remindValue(undefined)).toBe("");
    expect(remindValue(10)).toBe("10");
  });

  it("stores the choice as a whole number, and Off as the key left out", () => {
    const config = { calendars: ["primary"] };
    const on = withRemind(config, "15");
    expect(on).toEqual({ calendars: ["primary"], remindMinutesBefore: 15 });
    expect(meetingsWidget.alerts?.check(on)).toEqual([]);
    expect(withRemind(on, "")).toEqual({ calendars: ["primary"] });
    expect(withRemind(on, "abc")).toEqual({ calendars: ["primary"] });
  });
});
