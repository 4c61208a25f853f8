import { describe, expect, it } from "vitest";
import {
  contrastRatio,
  DARK_PAGE,
  LIGHT_PAGE,
  legibleOn,
  lookAttributes,
  parseHex,
  readableTextOn,
  relativeLuminance,
} from "./look";

const ratio = (a: string, b: string) =>
  contrastRatio(relativeLuminance(parseHex(a)!), relativeLuminance(parseHex(b)!));

describe("parseHex", () => {
  it("reads #rgb and #rrggbb in either case", () => {
    expect(parseHex("#fff")).toEqual([255, 255, 255]);
    expect(parseHex("#3A7bd5")).toEqual([58, 123, 213]);
    expect(parseHex("#0f8")).toEqual([0, 255, 136]);
  });
  it("refuses what is not a hex colour", () => {
    for (const bad of ["red", "#12", "#gggggg", "fff", "#abcd", "#1234567", ""])
      expect(parseHex(bad)).toBeNull();
  });
});

describe("relative luminance and contrast (WCAG 2.2)", () => {
  it("matches the reference values", () => {
    expect(relativeLuminance([0, 0, 0])).toBe(0);
    expect(relativeLuminance([255, 255, 255])).toBeCloseTo(1, 10);
    expect(relativeLuminance([255, 0, 0])).toBeCloseTo(0.2126, 4);
    expect(ratio("#000", "#fff")).toBeCloseTo(21, 5);
    expect(ratio("#fff", "#fff")).toBe(1);
    // #767676 on white is the well-known 4.54:1.
    expect(ratio("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
  });
});

describe("readableTextOn", () => {
  it("puts white on dark accents and black on light ones", () => {
    expect(readableTextOn("#000000")).toBe("#ffffff");
    expect(readableTextOn("#1e3a8a")).toBe("#ffffff");
    expect(readableTextOn("#5b5bd6")).toBe("#ffffff");
    expect(readableTextOn("#ffffff")).toBe("#000000");
    expect(readableTextOn("#ffeb3b")).toBe("#000000");
    expect(readableTextOn("#0f8")).toBe("#000000");
  });

  it("always reaches AA for normal text (4.5:1) on any accent", () => {
    for (let r = 0; r < 256; r += 17)
      for (let g = 0; g < 256; g += 17)
        for (let b = 0; b < 256; b += 17) {
          const hex = `#${[r, g, b].map((c) => c.toString(16).padStart(2, "0")).join("")}`;
          expect(ratio(hex, readableTextOn(hex)!), hex).toBeGreaterThanOrEqual(4.5);
        }
  });

  it("answers null for what is not a colour", () => {
    expect(readableTextOn("red")).toBeNull();
  });
});

describe("legibleOn", () => {
  it("keeps an accent that already reads as text, and moves one that does not only as far as needed", () => {
    expect(legibleOn("#1e3a8a", LIGHT_PAGE)).toBe("#1e3a8a");
    expect(legibleOn("#ffeb3b", DARK_PAGE)).toBe("#ffeb3b");
    const darker = legibleOn("#ffeb3b", LIGHT_PAGE);
    expect(ratio(darker, LIGHT_PAGE)).toBeGreaterThanOrEqual(4.5);
    // Not further than needed: a bit less dark would not do.
    expect(ratio(darker, LIGHT_PAGE)).toBeLessThan(5.2);
    expect(ratio(legibleOn("#1e3a8a", DARK_PAGE), DARK_PAGE)).toBeGreaterThanOrEqual(4.5);
  });

  it("reaches 4.5:1 on both pages for any accent", () => {
    for (let r = 0; r < 256; r += 51)
      for (let g = 0; g < 256; g += 51)
        for (let b = 0; b < 256; b += 51) {
          const hex = `#${[r, g, b].map((c) => c.toString(16).padStart(2, "0")).join("")}`;
          for (const page of [LIGHT_PAGE, DARK_PAGE])
            expect(ratio(legibleOn(hex, page), page), `${hex} on ${page}`).toBeGreaterThanOrEqual(4.5);
        }
  });
});

describe("lookAttributes", () => {
  it("is nothing for the plain look", () => {
    expect(lookAttributes({})).toEqual({});
    expect(lookAttributes(undefined)).toEqual({});
  });
  it("sets the accent for each theme, its text colour and the background", () => {
    expect(lookAttributes({ accent: "#ffeb3b", background: "https://example.org/a.jpg" })).toEqual({
      style: {
        "--look-accent-light": legibleOn("#ffeb3b", LIGHT_PAGE),
        "--look-accent-light-contrast": "#ffffff",
        "--look-accent-dark": "#ffeb3b",
        "--look-accent-dark-contrast": "#000000",
        "--look-background": 'url("https://example.org/a.jpg")',
      },
      "data-look-accent": "",
      "data-look-background": "",
    });
  });
  it("leaves out values that are not a colour or an http(s) URL", () => {
    expect(lookAttributes({ accent: "red", background: "javascript:alert(1)" })).toEqual({});
    expect(lookAttributes({ background: 'https://example.org/a.png") , url("x' })).toEqual({});
  });
});
