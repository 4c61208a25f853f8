import { describe, expect, it } from "vitest";
import { clockWidget } from "../widgets/clock/contract.js";
import { weatherWidget } from "../widgets/weather/contract.js";
import { parseLayouts } from "./layout.js";

describe("config.layout, the cells of the narrower breakpoints", () => {
  it("keeps whole, in-range cells and drops the rest", () => {
    expect(
      parseLayouts({
        lg: { x: 2, y: 0, w: 5, h: 10 },
        md: { x: 0.5, y: 0, w: 5, h: 10 },
        sm: { x: 0, y: -1, w: 4, h: 10 },
        xl: { x: 0, y: 0, w: 4, h: 10 },
      }),
    ).toEqual({ lg: { x: 2, y: 0, w: 5, h: 10 } });
    expect(parseLayouts({ lg: { x: 0, y: 0, w: 0, h: 3 } })).toBeUndefined();
    expect(parseLayouts({ sm: { x: 0, y: 0, w: 25, h: 3 } })).toBeUndefined();
    expect(parseLayouts("lg")).toBeUndefined();
    expect(parseLayouts(null)).toBeUndefined();
  });

  it("survives every widget type's parser, and only when usable", () => {
    const layout = { md: { x: 0, y: 4, w: 10, h: 12 } };
    expect(clockWidget.parse({ showSeconds: true, layout })).toEqual({
      showSeconds: true,
      layout,
    });
    expect(clockWidget.parse({ layout: { md: "x" } })).toEqual(clockWidget.defaults());
  });

  it("stays in the public view of a config, next to what the type hides", () => {
    const stored = weatherWidget.parse({
      location: { name: "Home", latitude: 52.520_07, longitude: 13.404_95 },
      layout: { sm: { x: 0, y: 0, w: 4, h: 16 } },
    });
    const shown = weatherWidget.publicConfig(stored);
    expect(shown.layout).toEqual({ sm: { x: 0, y: 0, w: 4, h: 16 } });
    expect(shown.location?.latitude).not.toBe(52.520_07);
  });
});
