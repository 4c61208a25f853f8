import { describe, expect, it } from "vitest";
import type { CalendarEvent } from "../../lib/data-api";
import { defaultEventTimes, dueReminders, groupByDay, timeRange, validateEvent } from "./logic";

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

  it("announces a meeting once it is within the lead time, with a key per event, start and lead", () => {
    const events = [
      event("soon", "2026-03-02T09:08:00Z", "2026-03-02T09:30:00Z", { title: "Design review" }),
      event("later", "2026-03-02T09:30:00Z", "2026-03-02T10:00:00Z"),
      event("started", "2026-03-02T08:59:30Z", "2026-03-02T10:00:00Z"),
      event("off", "2026-03-02T09:05:00Z", "2026-03-02T10:00:00Z", { status: "cancelled" }),
    ];
    const due = dueReminders(events, now, 10, berlin, "en-GB");
    expect(due).toEqual([
      {
        key: "meeting:soon:2026-03-02T09:08:00Z:10",
        message: "“Design review” starts in 8 minutes (10:08)",
      },
    ]);
    // "At the start" fires in the minute after it.
    expect(dueReminders(events, now, 0, berlin, "en-GB").map((r) => r.message)).toEqual([
      "“Event started” is starting now (09:59)",
    ]);
    expect(dueReminders(events, now, 60, { ...berlin, hourFormat: "12" }, "en-US").map((r) => r.key)).toEqual(
      ["meeting:soon:2026-03-02T09:08:00Z:60", "meeting:later:2026-03-02T09:30:00Z:60"],
    );
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
