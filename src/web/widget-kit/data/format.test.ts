import { afterEach, describe, expect, it } from "vitest";
import { switchLanguage, t } from "../../i18n/i18n";
import { ApiError } from "../../lib/api";
import { describeDataError } from "./errors";
import {
  addDays,
  dayKey,
  dayLabel,
  formatHour,
  formatNumber,
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

describe("data formatting in German", () => {
  afterEach(async () => {
    await switchLanguage("en");
  });

  it("writes an instant's time and day in two zones, the German way", async () => {
    await switchLanguage("de");
    // 23:30 UTC on 2 March: already Tuesday 3 March in Berlin, still Monday evening in New York.
    const at = "2026-03-02T23:30:00Z";
    const berlin = { timezone: "Europe/Berlin", hourFormat: "24" as const };
    const newYork = { timezone: "America/New_York", hourFormat: "24" as const };
    expect(formatTime(at, berlin, "de")).toBe("00:30");
    expect(formatTime(at, newYork, "de")).toBe("18:30");
    expect(dayLabel(dayKey(at, "Europe/Berlin"), "2026-03-01", "de")).toBe("Dienstag, 3. März");
    expect(dayLabel(dayKey(at, "America/New_York"), "2026-03-01", "de")).toBe("Morgen");
    expect(dayLabel("2026-03-02", "2026-03-02")).toBe("Heute");
  });

  it("writes numbers, prices and changes with German separators", async () => {
    await switchLanguage("de");
    expect(formatNumber(1234.5, "de")).toBe("1.234,5");
    expect(formatPrice(43210.4, "EUR", "de")).toBe("43.210\u00a0€");
    expect(formatPercent(1.234, "de")).toBe("+1,23\u00a0%");
    expect(formatPercent(-0.5, "de")).toBe("−0,50\u00a0%");
  });

  it("counts with German plurals through t", async () => {
    await switchLanguage("de");
    const now = Date.parse("2026-03-02T12:00:00Z");
    expect(relativeTime(now - 86_400_000, now)).toBe("vor 1 Tag");
    expect(relativeTime(now - 3 * 86_400_000, now)).toBe("vor 3 Tagen");
    expect(relativeTime(now - 5 * 60_000, now)).toBe("vor 5 Min.");
    expect(relativeTime(now - 10_000, now)).toBe("gerade eben");
    expect(t("widgets.kanban.cardCount", { count: 1 })).toBe("1 Karte");
    expect(t("widgets.kanban.cardCount", { count: 4 })).toBe("4 Karten");
  });

  it("names an upstream failure by its code, never with the server's English detail", async () => {
    await switchLanguage("de");
    const failed = new ApiError(
      502,
      { type: "t", title: "x", status: 502, detail: "raw detail", code: "upstream_failed" as never },
      "raw detail",
      4,
    );
    expect(describeDataError(failed, "weather")).toBe(
      "Open-Meteo, der Wetterdienst, ist nicht erreichbar. Versuche es in 4 Sekunden noch einmal.",
    );
    expect(describeDataError(failed, "suite")).not.toContain("raw detail");
  });
});
