import { describe, expect, it } from "vitest";
import type { Problem } from "../../../contract/errors";
import { ApiError } from "../../lib/api";
import { sparklinePaths } from "./Sparkline";
import { dataState, retryData } from "./useWidgetData";

const problem = (status: number, code: string) =>
  new ApiError(
    status,
    { type: "about:blank", title: code, status, code: code as Problem["code"], detail: code },
    code,
  );

const base = { data: undefined, error: null, isError: false, dataUpdatedAt: 0, errorUpdatedAt: 0 };

describe("data widget states", () => {
  it("loads, then shows data", () => {
    expect(dataState(base)).toEqual({ kind: "loading" });
    expect(dataState({ ...base, data: [1], dataUpdatedAt: 10 })).toEqual({ kind: "fresh" });
  });

  it("keeps data after a failed refresh and marks it stale; a later success clears the mark", () => {
    const failed = problem(502, "upstream_failed");
    const stale = dataState({
      ...base,
      data: [1],
      dataUpdatedAt: 10,
      isError: true,
      error: failed,
      errorUpdatedAt: 20,
    });
    expect(stale).toEqual({ kind: "stale", error: failed });
    expect(
      dataState({ ...base, data: [2], dataUpdatedAt: 30, isError: false, error: null, errorUpdatedAt: 20 }),
    ).toEqual({ kind: "fresh" });
  });

  it("shows an error only when there is nothing to show", () => {
    const failed = problem(504, "upstream_timeout");
    expect(dataState({ ...base, isError: true, error: failed, errorUpdatedAt: 5 })).toEqual({
      kind: "error",
      error: failed,
    });
  });

  it("asks to connect, reconnect or sign in when the server says so, even over old data", () => {
    expect(dataState({ ...base, isError: true, error: problem(404, "account_not_connected") })).toEqual({
      kind: "connect",
    });
    expect(
      dataState({
        ...base,
        data: [1],
        isError: true,
        error: problem(502, "reconnect_required"),
        errorUpdatedAt: 9,
      }),
    ).toEqual({ kind: "reconnect" });
    expect(dataState({ ...base, isError: true, error: problem(401, "unauthenticated") })).toEqual({
      kind: "signin",
    });
  });

  it("retries upstream hiccups once, never client errors or reconnect answers", () => {
    expect(retryData(0, problem(502, "upstream_failed"))).toBe(true);
    expect(retryData(1, problem(502, "upstream_failed"))).toBe(false);
    expect(retryData(0, new ApiError(0, null, "offline"))).toBe(true);
    expect(retryData(0, problem(404, "account_not_connected"))).toBe(false);
    expect(retryData(0, problem(429, "rate_limited"))).toBe(false);
    expect(retryData(0, problem(502, "reconnect_required"))).toBe(false);
  });
});

describe("sparkline", () => {
  it("scales values into the box, oldest on the left, highest at the top", () => {
    const paths = sparklinePaths([1, 3, 2], 100, 20, 0);
    expect(paths?.line).toBe("M0.0,20.0L50.0,0.0L100.0,10.0");
    expect(paths?.area).toBe("M0.0,20.0L50.0,0.0L100.0,10.0L100.0,20L0,20Z");
  });

  it("draws a flat series through the middle and nothing for fewer than two points", () => {
    expect(sparklinePaths([5, 5], 10, 10, 0)?.line).toBe("M0.0,5.0L10.0,5.0");
    expect(sparklinePaths([5], 10, 10)).toBeNull();
    expect(sparklinePaths([Number.NaN, 1], 10, 10)).toBeNull();
  });
});
