import { describe, expect, it } from "vitest";
import { formatBytes, formatDuration, formatInstant, formatValue, instantOf, statusTone } from "./format";

const NOW = Date.parse("2026-11-28T10:00:00.000Z");
const en = { locale: "en", now: NOW };

describe("Custom API formats", () => {
  it("maps values to a status tone", () => {
    for (const good of [true, 200, 204, 1, "up", " OK ", "Healthy", "running", "200"])
      expect(statusTone(good)).toBe("good");
    for (const warn of [301, "degraded", "Paused", "maintenance"]) expect(statusTone(warn)).toBe("warning");
    for (const bad of [false, 0, 404, 503, "down", "ERROR", "exited", "offline", "0"])
      expect(statusTone(bad)).toBe("bad");
    for (const unknown of [null, "purple", '{"a":1}']) expect(statusTone(unknown)).toBe("unknown");
  });

  it("counts bytes in binary units", () => {
    expect(formatBytes(512, "en")).toBe("512 B");
    expect(formatBytes(1536, "en")).toBe("1.5 KiB");
    expect(formatBytes(3_221_225_472, "en")).toBe("3 GiB");
    expect(formatBytes(123_456_789, "de")).toBe("118 MiB");
    expect(formatBytes(1_288_490_188.8, "de")).toBe("1,2 GiB");
  });

  it("says durations in their two largest units", () => {
    expect(formatDuration(93_784, "en")).toBe("1d 2h");
    expect(formatDuration(45, "en")).toBe("45s");
    expect(formatDuration(0, "en")).toBe("0s");
    expect(formatDuration(3600, "en")).toBe("1h");
    expect(formatDuration(125, "en")).toBe("2m 5s");
    expect(formatDuration(93_784, "de")).toMatch(/^1\s?T 2/);
  });

  it("reads instants from Unix seconds, milliseconds and ISO text, relative within a week", () => {
    expect(instantOf(1_764_324_000)).toBe(1_764_324_000_000);
    expect(instantOf(1_764_324_000_000)).toBe(1_764_324_000_000);
    expect(instantOf("2026-11-28T09:30:00Z")).toBe(Date.parse("2026-11-28T09:30:00Z"));
    expect(instantOf("soon")).toBeNull();
    expect(formatInstant(NOW - 30 * 60_000, NOW, "en")).toBe("30 minutes ago");
    expect(formatInstant(NOW + 2 * 86_400_000, NOW, "en")).toBe("in 2 days");
    expect(formatInstant(NOW - 3 * 3600_000, NOW, "de")).toBe("vor 3 Stunden");
    expect(formatInstant(Date.parse("2026-01-05T12:00:00Z"), NOW, "en")).toMatch(/Jan 5, 2026/);
  });

  it("formats each kind of value, and shows what a format cannot read as text", () => {
    expect(formatValue(12.5, "percent", en)).toBe("12.5%");
    expect(formatValue(37.5, "percent", { ...en, locale: "de" })).toMatch(/^37,5\s%$/);
    expect(formatValue(1234.567, "number", { ...en, unit: "W" })).toBe("1,234.57 W");
    expect(formatValue("1234", "number", en)).toBe("1,234");
    expect(formatValue(3_221_225_472, "bytes", en)).toBe("3 GiB");
    expect(formatValue(93_784, "duration", en)).toBe("1d 2h");
    expect(formatValue("2026-11-28T09:30:00.000Z", "date", en)).toBe("30 minutes ago");
    expect(formatValue("n/a", "bytes", en)).toBe("n/a");
    expect(formatValue(null, "number", en)).toBe("—");
    expect(formatValue("web", "text", { ...en, unit: "host" })).toBe("web host");
    expect(formatValue(true, "text", en)).toBe("true");
  });
});
