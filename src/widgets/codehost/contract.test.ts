import { describe, expect, it } from "vitest";
import { codehostWidget } from "./contract.js";

const parse = codehostWidget.parse;

describe("Codehost config", () => {
  it("reads the tab and repositories", () => {
    expect(parse({ tab: "pulls", repos: ["octo/alpha", "a-b/c.d_e"] })).toEqual({
      tab: "pulls",
      repos: ["octo/alpha", "a-b/c.d_e"],
    });
  });

  it("falls back to defaults for missing or malformed values", () => {
    expect(codehostWidget.defaults()).toEqual({ tab: "issues", repos: [] });
    for (const raw of [null, "issues", [], {}]) expect(parse(raw)).toEqual(codehostWidget.defaults());
    expect(parse({ tab: "prs", repos: "octo/alpha" })).toEqual(codehostWidget.defaults());
    expect(parse({ repos: ["octo/alpha", " octo/alpha ", "no-slash", "/x", "-bad/x", 3, "a/b/c"] })).toEqual({
      tab: "issues",
      repos: ["octo/alpha"],
    });
    expect(parse({ repos: Array.from({ length: 12 }, (_, i) => `o/r${i}`) }).repos).toHaveLength(10);
  });
});
