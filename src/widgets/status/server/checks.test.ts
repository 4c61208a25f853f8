import { describe, expect, it } from "vitest";
import { decideStatus, nextCheckAt } from "./checks.js";

const url = "http://nas.lan/";
const up = { up: true, httpStatus: 200, latencyMs: 12 };
const down = { up: false, httpStatus: 502, latencyMs: 30 };
const noAnswer = {
  up: false,
  httpStatus: null,
  latencyMs: null,
  error: { code: "timeout" as const, message: "did not answer within 10 s" },
};
const refused = {
  up: false,
  httpStatus: null,
  latencyMs: null,
  error: { code: "address_not_allowed" as const, message: "FETCH_ALLOW_PRIVATE" },
};

describe("a Status target's state between passes", () => {
  it("remembers the first check without announcing it", () => {
    const { next, changed } = decideStatus(undefined, url, down, "t1");
    expect(changed).toBe(false);
    expect(next).toEqual({ url, ...down, checkedAt: "t1", changedAt: "t1" });
  });

  it("announces a flip once and keeps changedAt while nothing flips", () => {
    const first = decideStatus(undefined, url, up, "t1").next;
    const same = decideStatus(first, url, { ...up, latencyMs: 40 }, "t2");
    expect(same).toMatchObject({ changed: false, next: { changedAt: "t1", checkedAt: "t2", latencyMs: 40 } });
    const flipped = decideStatus(same.next, url, down, "t3");
    expect(flipped).toMatchObject({ changed: true, next: { up: false, changedAt: "t3" } });
  });

  it("starts over for an edited address, and never announces our own refusals", () => {
    const first = decideStatus(undefined, url, up, "t1").next;
    expect(decideStatus(first, "http://other.lan/", down, "t2").changed).toBe(false);
    const blocked = decideStatus(first, url, refused, "t2");
    expect(blocked).toMatchObject({ changed: false, next: { changedAt: "t2", error: refused.error } });
    expect(decideStatus(blocked.next, url, up, "t3").changed).toBe(false);
  });

  it("counts timeouts in a row and backs the target off from the second, doubling up to ten minutes", () => {
    const at = (s: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, s)).toISOString();
    let state = decideStatus(undefined, url, noAnswer, at(0)).next;
    expect(state.timeouts).toBe(1);
    expect(nextCheckAt(state)).toBe(Number.NEGATIVE_INFINITY);
    state = decideStatus(state, url, noAnswer, at(30)).next;
    expect(state.timeouts).toBe(2);
    expect(nextCheckAt(state)).toBe(Date.parse(at(30)) + 60_000);
    state = decideStatus(state, url, noAnswer, at(40)).next;
    expect(nextCheckAt(state)).toBe(Date.parse(at(40)) + 120_000);
    for (let i = 0; i < 10; i++) state = decideStatus(state, url, noAnswer, at(50)).next;
    expect(nextCheckAt(state)).toBe(Date.parse(at(50)) + 600_000);
    // Any answer, or another address, starts the count over.
    const answered = decideStatus(state, url, down, at(59)).next;
    expect(answered.timeouts).toBeUndefined();
    expect(nextCheckAt(answered)).toBe(Number.NEGATIVE_INFINITY);
    expect(decideStatus(state, "http://other.lan/", noAnswer, at(59)).next.timeouts).toBe(1);
  });
});
