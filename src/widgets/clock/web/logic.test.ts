import { describe, expect, it } from "vitest";
import { clockFace } from "./logic";

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
