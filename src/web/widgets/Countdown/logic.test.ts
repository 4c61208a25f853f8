import { describe, expect, it } from "vitest";
import { fromLocalInput, remaining, toLocalInput } from "./logic";

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
