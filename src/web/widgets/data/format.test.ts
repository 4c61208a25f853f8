import { describe, expect, it } from "vitest";
import {
  addDays,
  dayKey,
  dayLabel,
  formatHour,
  formatPercent,
  formatPrice,
  formatTime,
  readableOn,
  relativeTime,
  zonedTimeToUtc,
  zonedWallClock,
} from "./format";

describe("data formatting", () => {
  it("says how old data is", () => {
    const now = Date.parse("2026-03-02T12:00:00Z");
    expect(relativeTime(now - 10_000, now)).toBe("just now");
    expect(relativeTime(now + 5_000, now)).toBe("just now");
    expect(relativeTime(now - 5 * 60_000, now)).toBe("5 min ago");
    expect(relativeTime(now - 3 * 3_600_000, now)).toBe("3 h ago");
    expect(relativeTime(now - 86_400_000, now)).toBe("1 day ago");
    expect(relativeTime(now - 3 * 86_400_000, now)).toBe("3 days ago");
  });

  it("formats times in the user's zone and hour format", () => {
    const at = "2026-03-02T13:05:00Z";
    expect(formatTime(at, { timezone: "Europe/Berlin", hourFormat: "24" }, "en-GB")).toBe("14:05");
    expect(formatTime(at, { timezone: "America/Los_Angeles", hourFormat: "12" }, "en-US")).toBe("5:05 AM");
    expect(formatHour(at, { timezone: "Asia/Tokyo", hourFormat: "12" }, "en-US")).toBe("10 PM");
    expect(formatHour(at, { timezone: "Asia/Tokyo", hourFormat: "24" }, "en-GB")).toBe("22:05");
  });

  it("names calendar days in a zone", () => {
    expect(dayKey("2026-03-02T23:30:00Z", "Europe/Berlin")).toBe("2026-03-03");
    expect(dayKey("2026-03-02T23:30:00Z", "America/New_York")).toBe("2026-03-02");
    expect(addDays("2026-02-28", 1)).toBe("2026-03-01");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(dayLabel("2026-03-02", "2026-03-02")).toBe("Today");
    expect(dayLabel("2026-03-03", "2026-03-02")).toBe("Tomorrow");
    expect(dayLabel("2026-03-04", "2026-03-02", "en-US")).toBe("Wednesday, March 4");
  });

  it("turns a wall time in a zone into the instant, across DST changes", () => {
    expect(zonedTimeToUtc("2026-03-02", "14:30", "Europe/Berlin").toISOString()).toBe(
      "2026-03-02T13:30:00.000Z",
    );
    expect(zonedTimeToUtc("2026-07-02", "14:30", "Europe/Berlin").toISOString()).toBe(
      "2026-07-02T12:30:00.000Z",
    );
    expect(zonedTimeToUtc("2026-03-02", "09:00", "America/New_York").toISOString()).toBe(
      "2026-03-02T14:00:00.000Z",
    );
    expect(zonedTimeToUtc("2026-03-02", "09:00", "UTC").toISOString()).toBe("2026-03-02T09:00:00.000Z");
    expect(zonedTimeToUtc("2026-03-02", "09:00", "Asia/Kolkata").toISOString()).toBe(
      "2026-03-02T03:30:00.000Z",
    );
    // 02:30 does not exist in Berlin on 29 March 2026: it moves forward by the gap, to 03:30.
    expect(zonedTimeToUtc("2026-03-29", "02:30", "Europe/Berlin").toISOString()).toBe(
      "2026-03-29T01:30:00.000Z",
    );
    expect(zonedWallClock(Date.parse("2026-03-02T13:30:00Z"), "Europe/Berlin")).toEqual({
      date: "2026-03-02",
      time: "14:30",
    });
  });

  it("formats prices in their quote currency and changes with a sign", () => {
    expect(formatPrice(43210.4, "USD", "en-US")).toBe("$43,210");
    expect(formatPrice(2.5, "EUR", "en-GB")).toBe("€2.50");
    expect(formatPrice(0.0012345, "USD", "en-US")).toBe("$0.001235");
    expect(formatPrice(12.3456, "USDT", "en-US")).toBe("12.35 USDT");
    expect(formatPercent(1.234)).toBe("+1.23%");
    expect(formatPercent(-0.5)).toBe("−0.50%");
    expect(formatPercent(0)).toBe("0.00%");
    expect(formatPercent(null)).toBe("–");
  });

  it("picks readable text on label colours", () => {
    expect(readableOn("#ffffff")).toBe("#000");
    expect(readableOn("d73a4a")).toBe("#fff");
    expect(readableOn("nonsense")).toBe("#000");
  });
});
