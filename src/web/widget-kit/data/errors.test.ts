import { describe, expect, it } from "vitest";
import { ApiError, describeError } from "../../lib/api";
import { describeDataError } from "./errors";

const problem = (status: number, code: string, retryAfter: number | null = null) =>
  new ApiError(
    status,
    { type: "t", title: "x", status, detail: "raw detail", code: code as never },
    "raw detail",
    retryAfter,
  );

describe("upstream failures named from the problem code", () => {
  it("names the service that failed, not the server", () => {
    expect(describeDataError(problem(502, "upstream_failed"), "exchange")).toBe(
      "Can't reach the exchange. Try again in a moment.",
    );
    expect(describeDataError(problem(502, "upstream_failed"), "weather")).toBe(
      "Can't reach Open-Meteo, the weather service. Try again in a moment.",
    );
    expect(describeDataError(problem(504, "upstream_timeout"), "suite")).toBe(
      "Google didn't answer in time. Try again in a moment.",
    );
    // A service the widget knows by name, where the generic words would say "the service behind this".
    expect(describeDataError(problem(502, "upstream_failed"), { service: "Open-Meteo" })).toBe(
      "Can't reach Open-Meteo. Try again in a moment.",
    );
    expect(describeError(problem(502, "upstream_failed"))).toContain("The service behind this");
  });

  it("gives the wait from Retry-After", () => {
    expect(describeDataError(problem(503, "service_unavailable", 4), "exchange")).toBe(
      "The exchange is busy. Try again in 4 s.",
    );
    expect(describeDataError(problem(429, "rate_limited", 120), "weather")).toBe(
      "Too many requests. Try again in 2 min.",
    );
  });

  it("says the server had a problem only when it did", () => {
    expect(describeDataError(problem(500, "internal_error"), "weather")).toBe(
      "The server had a problem. Try again in a moment.",
    );
    expect(describeError(new ApiError(0, null, "Can't reach the server. Check your connection."))).toBe(
      "Can't reach the server. Check your connection.",
    );
  });
});
