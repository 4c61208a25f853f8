import { describe, expect, it } from "vitest";
import { expiresText, formatDate, relativeTime } from "./relative-time";

const NOW = Date.parse("2026-11-26T12:00:00Z");
const at = (seconds: number) => new Date(NOW + seconds * 1000).toISOString();

describe("relativeTime", () => {
  it("reads the past", () => {
    expect(relativeTime(at(-10), NOW, "en")).toBe("just now");
    expect(relativeTime(at(-5 * 60), NOW, "en")).toBe("5 minutes ago");
    expect(relativeTime(at(-3 * 3600), NOW, "en")).toBe("3 hours ago");
    expect(relativeTime(at(-86_400), NOW, "en")).toBe("yesterday");
    expect(relativeTime(at(-4 * 86_400), NOW, "en")).toBe("4 days ago");
  });

  it("reads the future", () => {
    expect(relativeTime(at(10), NOW, "en")).toBe("in a moment");
    expect(relativeTime(at(30 * 60), NOW, "en")).toBe("in 30 minutes");
    expect(relativeTime(at(72 * 3600), NOW, "en")).toBe("in 3 days");
    expect(relativeTime(at(86_400), NOW, "en")).toBe("tomorrow");
  });

  it("gives the date past a month, and nothing for a broken date", () => {
    expect(relativeTime(at(-90 * 86_400), NOW, "en-GB")).toBe(formatDate(at(-90 * 86_400), "en-GB"));
    expect(formatDate("2026-08-28T12:00:00Z", "en-GB")).toBe("28 Aug 2026");
    expect(relativeTime("not a date", NOW, "en")).toBe("");
  });
});

describe("expiresText", () => {
  it("tells never, expired and when", () => {
    expect(expiresText(null, NOW, "en")).toBe("Never");
    expect(expiresText(at(-1), NOW, "en")).toBe("Expired");
    expect(expiresText(at(7 * 86_400), NOW, "en")).toBe("in 7 days");
  });
});
