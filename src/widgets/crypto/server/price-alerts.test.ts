import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PriceAlert } from "../contract.js";
import { decide } from "./price-alerts.js";

const above: PriceAlert = { id: "a", pair: "BTC-USD", direction: "above", price: 100 };
const below: PriceAlert = { id: "b", pair: "BTC-USD", direction: "below", price: 100 };

/** Runs a price series through `decide` and answers at which steps it fired. */
function firings(alert: PriceAlert, series: number[]) {
  let state: ReturnType<typeof decide>["next"] | undefined;
  const at: number[] = [];
  series.forEach((price, i) => {
    const { next, fire } = decide(alert, state, price);
    state = next;
    if (fire) at.push(i);
  });
  return at;
}

describe("price alert decisions", () => {
  it("fires on each crossing, once, and re-arms only after crossing back", () => {
    expect(firings(above, [90, 95, 101, 120, 99, 100, 130, 80])).toEqual([2, 5]);
    expect(firings(below, [120, 100, 90, 101, 99])).toEqual([1, 4]);
  });

  it("does not fire for a price already past the line when the alert is first seen", () => {
    expect(firings(above, [150, 160, 90, 110])).toEqual([3]);
  });

  it("starts over when the line is edited", () => {
    const first = decide(above, undefined, 90).next;
    const fired = decide(above, first, 110);
    expect(fired.fire).toBe(true);
    // Same alert id, line moved to 200 while the price is 110: armed again, no fire yet.
    const moved = decide({ ...above, price: 200 }, fired.next, 110);
    expect(moved).toEqual({ next: { line: "above:200", armed: true, fired: 0 }, fire: false });
  });

  it("never fires twice without crossing back in between (any series)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 200 }), { maxLength: 60 }), (series) => {
        const fired = firings(above, series);
        for (let k = 1; k < fired.length; k++) {
          const between = series.slice(fired[k - 1]! + 1, fired[k]);
          expect(between.some((price) => price < above.price)).toBe(true);
        }
        // And each firing is a real crossing: at or past the line.
        for (const i of fired) expect(series[i]!).toBeGreaterThanOrEqual(above.price);
      }),
      { numRuns: 300 },
    );
  });
});
