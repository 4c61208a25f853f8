import { describe, expect, it } from "vitest";
import {
  collides,
  compactUp,
  findFreeSpot,
  fitResize,
  moveStep,
  nearestFree,
  overlaps,
  type Rect,
  readingOrder,
  snap,
  snapRect,
} from "./geometry";

const r = (x: number, y: number, w: number, h: number): Rect => ({ x, y, w, h });

describe("snapping", () => {
  it("rounds to the nearest 20 px step", () => {
    expect(snap(0)).toBe(0);
    expect(snap(9)).toBe(0);
    expect(snap(10)).toBe(20);
    expect(snap(29)).toBe(20);
    expect(snap(31)).toBe(40);
    expect(snap(-7)).toBe(-0);
  });

  it("snaps a rect, keeps it on the canvas and at least the minimum size", () => {
    expect(snapRect(r(-13, 47, 3, 111))).toEqual({ x: 0, y: 40, w: 20, h: 120 });
    expect(snapRect(r(101, 0, 50, 50), 20, { w: 100, h: 80 })).toEqual({ x: 100, y: 0, w: 100, h: 80 });
  });
});

describe("collision", () => {
  it("treats touching edges as free and any shared area as overlap", () => {
    expect(overlaps(r(0, 0, 100, 100), r(100, 0, 100, 100))).toBe(false);
    expect(overlaps(r(0, 0, 100, 100), r(0, 100, 100, 100))).toBe(false);
    expect(overlaps(r(0, 0, 100, 100), r(99, 99, 10, 10))).toBe(true);
    expect(overlaps(r(50, 50, 10, 10), r(0, 0, 200, 200))).toBe(true);
    expect(collides(r(0, 0, 10, 10), [r(20, 20, 5, 5), r(5, 5, 5, 5)])).toBe(true);
    expect(collides(r(0, 0, 10, 10), [])).toBe(false);
  });
});

describe("placement of a new widget", () => {
  it("takes the top-left corner of an empty canvas", () => {
    expect(findFreeSpot({ w: 200, h: 100 }, [], 1000)).toEqual({ x: 0, y: 0 });
  });

  it("fills the first row left to right before starting a new one", () => {
    const others = [r(0, 0, 300, 200)];
    expect(findFreeSpot({ w: 300, h: 200 }, others, 1000)).toEqual({ x: 300, y: 0 });
    const full = [r(0, 0, 300, 200), r(300, 0, 300, 200), r(600, 0, 300, 200)];
    // 100 px left in the row is too narrow: the next row it is.
    expect(findFreeSpot({ w: 300, h: 200 }, full, 1000)).toEqual({ x: 0, y: 200 });
  });

  it("uses a hole in reading order and never overlaps", () => {
    const others = [r(0, 0, 200, 400), r(400, 0, 200, 100), r(200, 200, 400, 200)];
    const spot = findFreeSpot({ w: 200, h: 100 }, others, 600);
    expect(spot).toEqual({ x: 200, y: 0 });
    const tall = findFreeSpot({ w: 200, h: 300 }, others, 600);
    expect(collides({ ...tall, w: 200, h: 300 }, others)).toBe(false);
    expect(tall).toEqual({ x: 0, y: 400 });
  });

  it("puts a widget wider than the canvas at the left edge below the rest", () => {
    expect(findFreeSpot({ w: 900, h: 100 }, [r(0, 0, 100, 100)], 500)).toEqual({ x: 0, y: 100 });
  });
});

describe("dragging", () => {
  const others = [r(200, 0, 200, 200)];

  it("lands exactly where asked when that spot is free", () => {
    expect(nearestFree(r(0, 200, 200, 200), others, 1000)).toEqual({ x: 0, y: 200 });
  });

  it("moves to the nearest free lattice spot when the target is taken", () => {
    // Asked to sit mostly on the other widget, slightly to its right: the right side wins.
    const spot = nearestFree(r(260, 0, 200, 200), others, 1000);
    expect(spot).toEqual({ x: 400, y: 0 });
    expect(collides({ ...spot, w: 200, h: 200 }, others)).toBe(false);
    const left = nearestFree(r(120, 0, 200, 200), others, 1000);
    expect(left).toEqual({ x: 0, y: 0 });
  });

  it("stays inside the canvas width and above zero", () => {
    expect(nearestFree(r(950, -40, 200, 100), [], 1000)).toEqual({ x: 800, y: 0 });
    expect(nearestFree(r(-100, 0, 200, 100), [], 1000)).toEqual({ x: 0, y: 0 });
  });

  it("falls back to below everything when the neighbourhood is full", () => {
    const wall = [r(0, 0, 400, 2000)];
    const spot = nearestFree(r(0, 0, 400, 100), wall, 400, 20, 3);
    expect(spot).toEqual({ x: 0, y: 2000 });
  });
});

describe("resizing", () => {
  const min = { w: 100, h: 100 };

  it("grows freely into empty space", () => {
    expect(fitResize(r(0, 0, 200, 200), { w: 400, h: 300 }, [], min)).toEqual({ w: 400, h: 300 });
  });

  it("stops at the neighbour instead of overlapping it", () => {
    const right = [r(300, 0, 200, 200)];
    expect(fitResize(r(0, 0, 200, 200), { w: 400, h: 200 }, right, min)).toEqual({ w: 300, h: 200 });
    const below = [r(0, 300, 200, 200)];
    expect(fitResize(r(0, 0, 200, 200), { w: 200, h: 500 }, below, min)).toEqual({ w: 200, h: 300 });
  });

  it("never goes below the minimum size", () => {
    expect(fitResize(r(0, 0, 200, 200), { w: 10, h: 10 }, [], min)).toEqual({ w: 100, h: 100 });
  });

  it("gives up (null) when even the minimum would overlap", () => {
    expect(fitResize(r(0, 0, 200, 200), { w: 200, h: 200 }, [r(50, 50, 100, 100)], min)).toBeNull();
  });
});

describe("keyboard moves", () => {
  it("moves one step, hops over a neighbour, and refuses to leave the canvas", () => {
    const rect = r(0, 0, 100, 100);
    expect(moveStep(rect, { x: 1, y: 0 }, [], 1000)).toEqual({ x: 20, y: 0 });
    expect(moveStep(rect, { x: 0, y: -1 }, [], 1000)).toBeNull();
    const hop = moveStep(rect, { x: 1, y: 0 }, [r(100, 0, 100, 100)], 1000);
    expect(hop).toEqual({ x: 200, y: 0 });
    expect(moveStep(r(900, 0, 100, 100), { x: 1, y: 0 }, [], 1000)).toBeNull();
  });
});

describe("stacking on narrow screens", () => {
  it("orders top to bottom, then left to right", () => {
    const items = [
      { id: "c", rect: r(0, 400, 100, 100) },
      { id: "b", rect: r(300, 0, 100, 100) },
      { id: "a", rect: r(0, 0, 100, 100) },
      { id: "d", rect: r(200, 200, 100, 100) },
    ];
    expect(readingOrder(items).map((i) => i.id)).toEqual(["a", "b", "d", "c"]);
  });

  it("is stable for widgets on the same spot (by id)", () => {
    const items = [
      { id: "y", rect: r(0, 0, 1, 1) },
      { id: "x", rect: r(0, 0, 1, 1) },
    ];
    expect(readingOrder(items).map((i) => i.id)).toEqual(["x", "y"]);
  });
});

describe("compacting upwards", () => {
  it("closes holes left by removed widgets, keeping columns and never overlapping", () => {
    const items = [
      { id: "a", rect: r(0, 0, 300, 200) },
      // Below a removed widget that sat at (0, 200, 300, 400).
      { id: "b", rect: r(0, 600, 300, 200) },
      { id: "c", rect: r(300, 0, 300, 400) },
      // Straddles a and c: it can rise only to c's bottom.
      { id: "d", rect: r(200, 800, 200, 100) },
    ];
    const out = compactUp(items);
    const byId = Object.fromEntries(out.map((i) => [i.id, i.rect]));
    expect(byId.a).toEqual(r(0, 0, 300, 200));
    expect(byId.b).toEqual(r(0, 200, 300, 200));
    expect(byId.c).toEqual(r(300, 0, 300, 400));
    expect(byId.d).toEqual(r(200, 400, 200, 100));
    for (const [i, one] of out.entries())
      expect(
        collides(
          one.rect,
          out.filter((_, j) => j !== i).map((o) => o.rect),
        ),
      ).toBe(false);
  });
});
