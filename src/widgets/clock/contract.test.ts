import { describe, expect, it } from "vitest";
import { clockWidget } from "./contract.js";

const parse = clockWidget.parse;

describe("Clock config", () => {
  it("reads a full config", () => {
    expect(parse({ timezone: "Asia/Tokyo", hourFormat: "12", showSeconds: false })).toEqual({
      timezone: "Asia/Tokyo",
      hourFormat: "12",
      showSeconds: false,
    });
  });

  it("falls back to defaults for missing or malformed values", () => {
    expect(clockWidget.defaults()).toEqual({ showSeconds: true });
    expect(parse({})).toEqual(clockWidget.defaults());
    expect(parse(null)).toEqual(clockWidget.defaults());
    expect(parse([1, 2])).toEqual(clockWidget.defaults());
    expect(parse({ timezone: "Mars/Olympus", hourFormat: 12, showSeconds: "no" })).toEqual({
      showSeconds: true,
    });
    expect(parse({ timezone: 42, hourFormat: "13" })).toEqual({ showSeconds: true });
  });
});
