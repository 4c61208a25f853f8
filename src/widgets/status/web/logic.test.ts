import { describe, expect, it } from "vitest";
import { downReason, formatLatency, healthOf, rowsOf } from "./logic";

const at = "2026-11-26T07:00:00.000Z";
const state = (more: object) => ({
  up: true,
  httpStatus: 200,
  latencyMs: 12,
  checkedAt: at,
  changedAt: at,
  ...more,
});

describe("Status widget logic", () => {
  it("tells up, down, unchecked and refused apart", () => {
    expect(healthOf(null)).toBe("unknown");
    expect(healthOf(state({}))).toBe("up");
    expect(healthOf(state({ up: false, httpStatus: 503 }))).toBe("down");
    expect(
      healthOf(state({ up: false, httpStatus: null, error: { code: "address_not_allowed", message: "" } })),
    ).toBe("not-allowed");
  });

  it("says why a target is down", () => {
    expect(downReason(state({}))).toBeNull();
    expect(downReason(state({ up: false, httpStatus: 502 }))).toBe("HTTP 502");
    expect(downReason(state({ up: false, httpStatus: null, error: { code: "timeout", message: "" } }))).toBe(
      "No answer",
    );
    expect(
      downReason(state({ up: false, httpStatus: null, error: { code: "unreachable", message: "" } })),
    ).toBe("Unreachable");
  });

  it("formats latency", () => {
    expect(formatLatency(null)).toBeNull();
    expect(formatLatency(42)).toBe("42 ms");
    expect(formatLatency(2345)).toBe("2.3 s");
  });

  it("shows the config's checks, with the server's state where it has one for that address", () => {
    const answer = [
      { id: "a", name: "Old name", url: "http://a/", state: state({}) },
      { id: "b", name: "B", url: "http://old-b/", state: state({}) },
    ];
    const rows = rowsOf(
      [
        { id: "a", name: "A", url: "http://a/" },
        { id: "b", name: "B", url: "http://b/" },
        { id: "c", name: "C", url: "http://c/" },
      ],
      answer,
    );
    expect(rows.map((r) => [r.name, r.state !== null])).toEqual([
      ["A", true],
      ["B", false],
      ["C", false],
    ]);
  });
});
