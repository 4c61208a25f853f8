import { afterEach, describe, expect, it } from "vitest";
import { switchLanguage } from "../../../web/i18n/i18n";
import { formatTarget, fromLocalInput, remaining, timeLeftLabel, toLocalInput } from "./logic";

describe("remaining time", () => {
  it("splits the time left into days, hours, minutes and seconds", () => {
    const now = Date.UTC(2026, 0, 1);
    const target = now + ((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000;
    expect(remaining(target, now)).toEqual({ ended: false, days: 2, hours: 3, minutes: 4, seconds: 5 });
  });

  it("is ended (all zero) at and after the target", () => {
    expect(remaining(1000, 1000)).toEqual({ ended: true, days: 0, hours: 0, minutes: 0, seconds: 0 });
    expect(remaining(1000, 99_999).ended).toBe(true);
  });

  it("round-trips a local datetime input", () => {
    const iso = fromLocalInput("2031-05-06T07:08");
    expect(iso).toBeDefined();
    expect(toLocalInput(iso)).toBe("2031-05-06T07:08");
    expect(fromLocalInput("")).toBeUndefined();
  });
});

describe("countdown words in German", () => {
  afterEach(async () => {
    await switchLanguage("en");
  });

  it("says the time left with plurals, in English and in German", async () => {
    const left = { ended: false, days: 1, hours: 2, minutes: 1, seconds: 0 };
    expect(timeLeftLabel(left)).toBe("1 day 2 hours 1 minute left");
    await switchLanguage("de");
    expect(timeLeftLabel(left)).toBe("Noch 1 Tag 2 Stunden 1 Minute");
    expect(timeLeftLabel({ ...left, days: 3, hours: 1, minutes: 5 })).toBe("Noch 3 Tage 1 Stunde 5 Minuten");
  });

  it("writes the target in German in the reader's zone", async () => {
    await switchLanguage("de");
    const target = new Date("2026-12-24T17:30:00Z");
    expect(formatTarget(target, { timezone: "Europe/Berlin", hourFormat: "24" }, "de")).toBe(
      "24.12.2026, 18:30",
    );
    expect(formatTarget(target, { timezone: "America/New_York", hourFormat: "24" }, "de")).toBe(
      "24.12.2026, 12:30",
    );
    // Late evening in New York is already the next day in Berlin.
    const late = new Date("2026-03-02T03:15:00Z");
    expect(formatTarget(late, { timezone: "America/New_York", hourFormat: "24" }, "de")).toBe(
      "01.03.2026, 22:15",
    );
    expect(formatTarget(late, { timezone: "Europe/Berlin", hourFormat: "24" }, "de")).toBe(
      "02.03.2026, 04:15",
    );
  });
});
