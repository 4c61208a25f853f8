import { describe, expect, it } from "vitest";
import { isTimeZone } from "./fields";

describe("isTimeZone", () => {
  it("answers the same on a second ask, valid or not", () => {
    for (let ask = 0; ask < 2; ask++) {
      expect(isTimeZone("Europe/Berlin")).toBe(true);
      expect(isTimeZone("Mars/Olympus")).toBe(false);
      expect(isTimeZone("")).toBe(false);
      expect(isTimeZone(`Europe/${"x".repeat(70)}`)).toBe(false);
    }
  });

  it("keeps answering past the bound of remembered zones", () => {
    // ICU takes any mix of case, so users can name one zone in many spellings.
    const spellings = Array.from({ length: 1500 }, (_, i) =>
      [..."america/new_york"].map((c, j) => ((i >> j) & 1 ? c.toUpperCase() : c)).join(""),
    );
    expect(spellings.every((zone) => isTimeZone(zone))).toBe(true);
    expect(isTimeZone("America/Nowhere")).toBe(false);
  });
});
