import { describe, expect, it } from "vitest";
import { STATUS_TARGETS_MAX, statusWidget } from "./status.js";

const parse = statusWidget.parse;

describe("Status config", () => {
  it("reads targets, normalising typed addresses and naming unnamed ones after their host", () => {
    expect(
      parse({
        targets: [
          { id: "a", url: "jellyfin.home.lan:8096", name: "" },
          { id: "b", url: "https://example.com/health", name: " Site " },
        ],
        notify: true,
      }),
    ).toEqual({
      targets: [
        { id: "a", url: "http://jellyfin.home.lan:8096/", name: "jellyfin.home.lan:8096" },
        { id: "b", url: "https://example.com/health", name: "Site" },
      ],
      notify: true,
    });
  });

  it("drops unusable targets and keeps at most the maximum", () => {
    expect(statusWidget.defaults()).toEqual({ targets: [] });
    expect(parse({ targets: [{ id: "x", url: "javascript:alert(1)" }, { id: "y" }] }).targets).toEqual([]);
    const many = Array.from({ length: 30 }, (_, i) => ({ id: `t${i}`, url: `example.com/${i}` }));
    expect(parse({ targets: many }).targets).toHaveLength(STATUS_TARGETS_MAX);
  });

  it("is watched only when it has targets", () => {
    const watched = (raw: unknown) => statusWidget.alerts!.watched!(parse(raw));
    expect(watched({})).toBe(false);
    expect(watched({ targets: [{ id: "a", url: "example.com" }] })).toBe(true);
  });

  it("tells a client that sends a notify that is not boolean", () => {
    const check = statusWidget.alerts!.check;
    expect(check({ notify: true })).toEqual([]);
    expect(check({})).toEqual([]);
    expect(check({ notify: "yes" })).toEqual([{ path: "/notify", message: "must be boolean" }]);
  });

  it("shows a visitor's page the stored targets only", () => {
    const config = parse({ targets: [{ id: "a", url: "example.com" }] });
    expect(statusWidget.data.visitorQuery(config)).toEqual(config.targets);
    expect(statusWidget.data.visitorQuery(parse({}))).toBeNull();
  });
});
