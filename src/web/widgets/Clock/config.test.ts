import { describe, expect, it } from "vitest";
import { clockFace, defaultClockConfig, parseClockConfig } from "./config";

describe("Clock config", () => {
  it("reads a full config", () => {
    expect(parseClockConfig({ timezone: "Asia/Tokyo", hourFormat: "12", showSeconds: false })).toEqual({
      timezone: "Asia/Tokyo",
      hourFormat: "12",
      showSeconds: false,
    });
  });

  it("falls back to defaults for missing or malformed values", () => {
    expect(parseClockConfig({})).toEqual(defaultClockConfig());
    expect(parseClockConfig(null)).toEqual(defaultClockConfig());
    expect(parseClockConfig([1, 2])).toEqual(defaultClockConfig());
    expect(parseClockConfig({ timezone: "Mars/Olympus", hourFormat: 12, showSeconds: "no" })).toEqual({
      showSeconds: true,
    });
    expect(parseClockConfig({ timezone: 42, hourFormat: "13" })).toEqual({ showSeconds: true });
  });
});

describe("clock face", () => {
  const instant = new Date("2026-03-02T15:04:05Z");
  it("formats 24 h with seconds in the chosen zone", () => {
    const face = clockFace(
      instant,
      { timezone: "Europe/Berlin", hourFormat: "24", showSeconds: true },
      "en-GB",
    );
    expect(face.time).toBe("16:04:05");
    expect(face.period).toBe("");
    expect(face.date).toContain("2026");
    expect(face.zone).toBe("Berlin");
  });

  it("formats 12 h with a day period and no seconds", () => {
    const face = clockFace(
      instant,
      { timezone: "America/New_York", hourFormat: "12", showSeconds: false },
      "en-US",
    );
    expect(face.time).toBe("10:04");
    expect(face.period).toBe("AM");
    expect(face.zone).toBe("New York");
  });
});
