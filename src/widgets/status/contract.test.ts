import { describe, expect, it } from "vitest";
import { STATUS_CHECKS_MAX, statusWidget } from "./contract.js";

const parse = statusWidget.parse;

describe("Status config", () => {
  it("reads checks, normalising typed addresses and naming unnamed ones after their host", () => {
    expect(
      parse({
        checks: [
          { id: "a", url: "jellyfin.home.lan:8096", name: "" },
          { id: "b", url: "https://example.com/health", name: " Site " },
        ],
        notify: true,
      }),
    ).toEqual({
      checks: [
        { id: "a", url: "http://jellyfin.home.lan:8096/", name: "jellyfin.home.lan:8096" },
        { id: "b", url: "https://example.com/health", name: "Site" },
      ],
      notify: true,
    });
  });

  it("drops unusable checks and keeps at most the maximum", () => {
    expect(statusWidget.defaults()).toEqual({ checks: [] });
    expect(parse({ checks: [{ id: "x", url: "javascript:alert(1)" }, { id: "y" }] }).checks).toEqual([]);
    const many = Array.from({ length: 30 }, (_, i) => ({ id: `t${i}`, url: `example.com/${i}` }));
    expect(parse({ checks: many }).checks).toHaveLength(STATUS_CHECKS_MAX);
  });

  it("is watched only when it has checks", () => {
    const watched = (raw: unknown) => statusWidget.alerts!.watched!(parse(raw));
    expect(watched({})).toBe(false);
    expect(watched({ checks: [{ id: "a", url: "example.com" }] })).toBe(true);
  });

  it("tells a client that sends a notify that is not boolean", () => {
    const check = statusWidget.alerts!.check;
    expect(check({ notify: true })).toEqual([]);
    expect(check({})).toEqual([]);
    expect(check({ notify: "yes" })).toEqual([{ path: "/notify", message: "must be boolean" }]);
  });

  it("shows a visitor's page the stored checks only", () => {
    const config = parse({ checks: [{ id: "a", url: "example.com" }] });
    expect(statusWidget.data.visitorQuery(config)).toEqual(config.checks);
    expect(statusWidget.data.visitorQuery(parse({}))).toBeNull();
  });
});

describe("Status expectStatus", () => {
  it("keeps a whole HTTP status and drops anything else", () => {
    const one = (expectStatus: unknown) =>
      statusWidget.parse({ checks: [{ id: "a", url: "https://example.test", expectStatus }] }).checks[0];
    expect(one(204)?.expectStatus).toBe(204);
    expect(one(99)).not.toHaveProperty("expectStatus");
    expect(one("200")).not.toHaveProperty("expectStatus");
    expect(one(200.5)).not.toHaveProperty("expectStatus");
  });
});
