import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { centredSquare } from "./avatar-image";

describe("centredSquare", () => {
  it("keeps the middle of a landscape and of a portrait picture", () => {
    expect(centredSquare(400, 300)).toEqual({ x: 50, y: 0, size: 300 });
    expect(centredSquare(300, 400)).toEqual({ x: 0, y: 50, size: 300 });
    expect(centredSquare(64, 64)).toEqual({ x: 0, y: 0, size: 64 });
  });

  it("always stays inside the picture, as large as it can be", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 1, max: 10_000 }), (w, h) => {
        const { x, y, size } = centredSquare(w, h);
        expect(size).toBe(Math.min(w, h));
        expect(x).toBeGreaterThanOrEqual(0);
        expect(y).toBeGreaterThanOrEqual(0);
        expect(x + size).toBeLessThanOrEqual(w);
        expect(y + size).toBeLessThanOrEqual(h);
        expect(x).toBeCloseTo(w - size - x);
      }),
    );
  });
});
