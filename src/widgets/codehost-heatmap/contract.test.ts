import { describe, expect, it } from "vitest";
import { heatmapWidget } from "./contract.js";

const parse = heatmapWidget.parse;

describe("Codehost Heatmap config", () => {
  it("reads a login, with or without @", () => {
    expect(parse({ login: "octo-ada" })).toEqual({ login: "octo-ada" });
    expect(parse({ login: " @grace-h " })).toEqual({ login: "grace-h" });
  });

  it("falls back to the connected account for missing or malformed values", () => {
    for (const raw of [
      null,
      "octo",
      [],
      {},
      { login: 5 },
      { login: "" },
      { login: "-bad" },
      { login: "a--b" },
    ])
      expect(parse(raw)).toEqual({});
    expect(parse({ login: "x".repeat(40) })).toEqual({});
  });
});
