import { describe, expect, it } from "vitest";
import { type CalendarEvent, calendarWidget } from "../contract";
import { agenda, failures, remindOptions, sourceLooks, timeLabel, withRemind } from "./logic";

const timed = (id: string, start: string, end: string, sourceId = "a"): CalendarEvent => ({
  sourceId,
  id,
  title: id,
  start,
  end,
  allDay: false,
});
const allDay = (id: string, start: string, end: string, sourceId = "a"): CalendarEvent => ({
  sourceId,
  id,
  title: id,
  start,
  end,
  allDay: true,
});

describe("the agenda", () => {
  // Monday 30 November 2026, 10:00 in Berlin.
  const now = Date.parse("2026-11-30T09:00:00Z");
  const events = [
    timed("yesterday", "2026-11-29T08:30:00Z", "2026-11-29T08:45:00Z"),
    timed("standup", "2026-11-30T08:30:00Z", "2026-11-30T08:45:00Z"),
    timed("review", "2026-11-30T08:45:00Z", "2026-11-30T09:30:00Z"),
    timed("lunch", "2026-11-30T11:00:00Z", "2026-11-30T12:00:00Z"),
    allDay("birthday", "2026-12-01", "2026-12-02"),
    timed("late", "2026-12-01T22:00:00Z", "2026-12-02T01:00:00Z"),
    allDay("conference", "2026-12-02", "2026-12-05"),
    timed("far", "2026-12-20T09:00:00Z", "2026-12-20T10:00:00Z"),
  ];

  it("groups by day in the user's zone, all-day first, with today's past faint above the now line", () => {
    const days = agenda(events, now, 7, "Europe/Berlin", "en");
    expect(days.map((d) => [d.key, d.events.map((e) => e.id)])).toEqual([
      ["2026-11-30", ["standup", "review", "lunch"]],
      ["2026-12-01", ["birthday", "late"]],
      ["2026-12-02", ["conference"]],
      ["2026-12-03", ["conference"]],
      ["2026-12-04", ["conference"]],
    ]);
    const [today] = days;
    expect(today).toMatchObject({ isToday: true, nowAt: 2 });
    expect(today!.events.map((e) => [e.past, e.live])).toEqual([
      [true, false],
      [false, true],
      [false, false],
    ]);
    expect(days[1]!.nowAt).toBeNull();
    expect(days[3]!.events[0]!.continued).toBe(true);
  });

  it("reads the same instants on the reader's own days", () => {
    const days = agenda(events, now, 7, "America/Los_Angeles", "en");
    // 22:00Z on 1 December is 14:00 in Los Angeles; the all-day dates stay as written.
    expect(days.find((d) => d.key === "2026-12-01")!.events.map((e) => e.id)).toEqual(["birthday", "late"]);
    expect(days[0]!.key).toBe("2026-11-30");
  });

  it("lists an event still running from yesterday under today", () => {
    const night = timed("night", "2026-11-29T22:00:00Z", "2026-11-30T10:00:00Z");
    const [today] = agenda([night], now, 1, "Europe/Berlin", "en");
    expect(today!.events[0]).toMatchObject({ id: "night", live: true, continued: true });
  });

  it("says when an event ends on another day", () => {
    const options = { timezone: "Europe/Berlin", hourFormat: "24" as const };
    const [, tomorrow] = agenda(events, now, 7, "Europe/Berlin", "en");
    expect(timeLabel(tomorrow!.events[1]!, options, "en")).toBe("23:00 – Wed 02:00");
    const [today] = agenda(events, now, 7, "Europe/Berlin", "en");
    expect(timeLabel(today!.events[0]!, options, "en")).toBe("09:30 – 09:45");
  });
});

describe("sources and their failures", () => {
  const config = calendarWidget.parse({
    sources: [
      { id: "a", name: "Family", url: "https://calendar.example/a.ics", color: "#ef4444" },
      { id: "b", name: "", url: "https://cloud.example.org/b.ics" },
    ],
  });

  it("names and colours each source, by its host when it has no name", () => {
    const looks = sourceLooks(config);
    expect(looks.get("a")).toEqual({ name: "Family", color: "#ef4444" });
    expect(looks.get("b")).toEqual({ name: "cloud.example.org", color: "#10b981" });
  });

  it("says which source failed", () => {
    const [failure] = failures(
      [{ sourceId: "b", reason: "refused", detail: "x answered 401" }],
      sourceLooks(config),
    );
    expect(failure).toMatchObject({ sourceId: "b", look: { name: "cloud.example.org" } });
    expect(failure!.text).not.toContain("401");
  });
});

describe("the reminder setting", () => {
  it("offers Off and lead times, keeping one set through the API", () => {
    expect(remindOptions(undefined).map(([v]) => v)).toEqual([
      "",
      "0",
      "5",
      "10",
      "15",
      "30",
      "60",
      "120",
      "1440",
    ]);
    expect(remindOptions(45).map(([v]) => v)).toContain("45");
    const config = calendarWidget.parse({});
    expect(withRemind(config, "15").remindMinutesBefore).toBe(15);
    expect("remindMinutesBefore" in withRemind({ ...config, remindMinutesBefore: 15 }, "")).toBe(false);
  });
});
