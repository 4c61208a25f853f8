import { describe, expect, it } from "vitest";
import {
  BREAKPOINTS,
  breakpointFor,
  breakpointNamed,
  type Cell,
  cellOfPixels,
  changedIds,
  collides,
  compactUp,
  findFreeSpot,
  type Layout,
  type LayoutItem,
  layoutAt,
  moveTo,
  overlaps,
  pixelsOfCell,
  placeNew,
  resizeTo,
  stepMove,
  stepResize,
} from "./geometry";

const c = (x: number, y: number, w: number, h: number): Cell => ({ x, y, w, h });
const item = (id: string, xl: Cell, layouts?: LayoutItem["layouts"]): LayoutItem => ({
  id,
  xl,
  layouts,
  min: { w: 2, h: 4 },
});
const noOverlap = (layout: Layout) => {
  const cells = [...layout.values()];
  for (let i = 0; i < cells.length; i++)
    for (let j = i + 1; j < cells.length; j++) if (overlaps(cells[i]!, cells[j]!)) return false;
  return true;
};
const xl = breakpointNamed("xl");
const lg = breakpointNamed("lg");
const md = breakpointNamed("md");
const sm = breakpointNamed("sm");

describe("breakpoints", () => {
  it("follow the grid's width, widest first, down to phones", () => {
    expect(breakpointFor(1865).name).toBe("xl");
    expect(breakpointFor(1385).name).toBe("xl");
    expect(breakpointFor(969).name).toBe("lg");
    expect(breakpointFor(700).name).toBe("md");
    expect(breakpointFor(370).name).toBe("sm");
    expect(breakpointFor(0).name).toBe("sm");
    // About 60 px per column at each breakpoint's narrow end, so widgets keep their size.
    for (const b of BREAKPOINTS.filter((b) => b.minWidth > 0))
      expect(b.minWidth / b.columns).toBeGreaterThanOrEqual(50);
  });

  it("store the widest layout as pixels on a 60 × 20 px lattice, rounding stray pixels", () => {
    expect(pixelsOfCell(c(5, 10, 6, 19))).toEqual({
      positionX: 300,
      positionY: 200,
      width: 360,
      height: 380,
    });
    expect(cellOfPixels({ positionX: 300, positionY: 200, width: 360, height: 380 })).toEqual(
      c(5, 10, 6, 19),
    );
    expect(cellOfPixels({ positionX: 680, positionY: 0, width: 380, height: 7 })).toEqual(c(11, 0, 6, 1));
  });
});

describe("placement of a new widget", () => {
  it("takes the top-left corner of an empty grid", () => {
    expect(findFreeSpot({ w: 5, h: 10 }, [], 24)).toEqual({ x: 0, y: 0 });
  });

  it("fills the first row left to right before starting a new one", () => {
    expect(findFreeSpot({ w: 5, h: 10 }, [c(0, 0, 5, 10)], 24)).toEqual({ x: 5, y: 0 });
    const full = [c(0, 0, 8, 10), c(8, 0, 8, 10), c(16, 0, 6, 10)];
    // Two columns left in the row are too narrow: the next row it is.
    expect(findFreeSpot({ w: 5, h: 10 }, full, 24)).toEqual({ x: 0, y: 10 });
  });

  it("uses a hole in reading order and never overlaps", () => {
    const others = [c(0, 0, 4, 20), c(8, 0, 4, 5), c(4, 10, 8, 10)];
    expect(findFreeSpot({ w: 4, h: 5 }, others, 12)).toEqual({ x: 4, y: 0 });
    const tall = findFreeSpot({ w: 4, h: 15 }, others, 12);
    expect(collides({ ...tall, w: 4, h: 15 }, others)).toBe(false);
    expect(tall).toEqual({ x: 0, y: 20 });
  });

  it("never puts a widget past the right edge", () => {
    expect(findFreeSpot({ w: 30, h: 5 }, [c(0, 0, 2, 5)], 24)).toEqual({ x: 0, y: 5 });
  });
});

describe("reflow to narrower breakpoints", () => {
  const row = [
    item("clock", c(0, 0, 5, 10)),
    item("weather", c(5, 0, 6, 19)),
    item("crypto", c(11, 0, 6, 17)),
    item("inbox", c(17, 0, 7, 20)),
    item("countdown", c(0, 10, 5, 10)),
  ];

  it("keeps the widest layout as stored", () => {
    const layout = layoutAt(row, xl);
    expect(layout.get("inbox")).toEqual(c(17, 0, 7, 20));
    expect(layout.get("countdown")).toEqual(c(0, 10, 5, 10));
  });

  it("pours widgets in reading order into fewer columns, same sizes, no overlap, nothing past the edge", () => {
    for (const spec of [lg, md]) {
      const layout = layoutAt(row, spec);
      expect(noOverlap(layout)).toBe(true);
      for (const cell of layout.values()) expect(cell.x + cell.w).toBeLessThanOrEqual(spec.columns);
      expect(layout.get("clock")).toEqual(c(0, 0, 5, 10));
      expect(layout.get("weather")!.w).toBe(6);
    }
    const layout = layoutAt(row, lg);
    // 16 columns: clock and weather keep the first row; crypto (6 wide) no longer fits beside
    // them and takes the first spot that fits it; the countdown (5 wide) fills the rest of the row.
    expect(layout.get("weather")).toEqual(c(5, 0, 6, 19));
    expect(layout.get("crypto")).toEqual(c(0, 19, 6, 17));
    expect(layout.get("inbox")).toEqual(c(6, 19, 7, 20));
    expect(layout.get("countdown")).toEqual(c(11, 0, 5, 10));
  });

  it("stacks every widget full width on phones, in the reading order of the tablet layout", () => {
    const tablet = [...layoutAt(row, md)].sort((a, b) => a[1].y - b[1].y || a[1].x - b[1].x);
    const layout = layoutAt(row, sm);
    const order = [...layout].sort((a, b) => a[1].y - b[1].y).map(([id]) => id);
    expect(order).toEqual(tablet.map(([id]) => id));
    expect(order[0]).toBe("clock");
    for (const cell of layout.values()) expect(cell.w).toBe(4);
    expect(noOverlap(layout)).toBe(true);
  });

  it("keeps the cells the user arranged at a breakpoint, and fits the others around them", () => {
    const items = row.map((i) => (i.id === "inbox" ? { ...i, layouts: { lg: c(0, 0, 16, 8) } } : i));
    const layout = layoutAt(items, lg);
    expect(layout.get("inbox")).toEqual(c(0, 0, 16, 8));
    expect(noOverlap(layout)).toBe(true);
    expect(layout.get("clock")!.y).toBeGreaterThanOrEqual(8);
    // The other breakpoints do not change.
    expect(layoutAt(items, xl).get("inbox")).toEqual(c(17, 0, 7, 20));
  });

  it("pushes down arranged cells that overlap (an undone removal, another device's edit)", () => {
    const items = [
      item("a", c(0, 0, 5, 5), { md: c(0, 0, 10, 6) }),
      item("b", c(5, 0, 5, 5), { md: c(2, 3, 4, 4) }),
    ];
    const layout = layoutAt(items, md);
    expect(layout.get("a")).toEqual(c(0, 0, 10, 6));
    expect(layout.get("b")).toEqual(c(2, 6, 4, 4));
  });

  it("clamps cells stored for more columns into the grid", () => {
    const layout = layoutAt([item("wide", c(20, 0, 10, 5))], xl);
    expect(layout.get("wide")).toEqual(c(14, 0, 10, 5));
  });
});

describe("moving into occupied space", () => {
  const base = (): Layout =>
    new Map([
      ["a", c(0, 0, 5, 10)],
      ["b", c(5, 0, 5, 10)],
      ["c", c(0, 10, 10, 6)],
    ]);

  it("swaps with the one widget whose place it takes", () => {
    const after = moveTo(base(), "a", c(5, 0, 5, 10), 24);
    expect(after.get("a")).toEqual(c(5, 0, 5, 10));
    expect(after.get("b")).toEqual(c(0, 0, 5, 10));
    expect(after.get("c")).toEqual(c(0, 10, 10, 6));
  });

  it("pushes the widgets in the way down when it only partly covers them", () => {
    const after = moveTo(base(), "c", c(3, 4, 10, 6), 24);
    expect(after.get("c")).toEqual(c(3, 4, 10, 6));
    expect(after.get("a")).toEqual(c(0, 10, 5, 10));
    expect(after.get("b")).toEqual(c(5, 10, 5, 10));
    expect(noOverlap(after)).toBe(true);
  });

  it("cascades: a pushed widget pushes the next one", () => {
    const after = moveTo(base(), "b", c(0, 2, 5, 10), 24);
    expect(noOverlap(after)).toBe(true);
    expect(after.get("b")).toEqual(c(0, 2, 5, 10));
    expect(after.get("a")!.y).toBe(12);
    expect(after.get("c")!.y).toBe(22);
  });

  it("is computed from the layout before the gesture: moving on leaves the others where they were", () => {
    const start = base();
    moveTo(start, "c", c(3, 4, 10, 6), 24);
    const after = moveTo(start, "c", c(0, 30, 10, 6), 24);
    expect(after.get("a")).toEqual(c(0, 0, 5, 10));
    expect(changedIds(start, after)).toEqual(["c"]);
  });

  it("stays inside the grid", () => {
    expect(moveTo(base(), "a", c(22, -3, 5, 10), 24).get("a")).toEqual(c(19, 0, 5, 10));
  });
});

describe("resizing into occupied space", () => {
  it("pushes the neighbours below the grown widget, never under the minimum or past the edge", () => {
    const start: Layout = new Map([
      ["a", c(0, 0, 5, 10)],
      ["b", c(5, 0, 5, 10)],
      ["c", c(0, 10, 5, 5)],
    ]);
    const after = resizeTo(start, "a", { w: 7, h: 12 }, { w: 2, h: 4 }, 24);
    expect(after.get("a")).toEqual(c(0, 0, 7, 12));
    expect(after.get("b")).toEqual(c(5, 12, 5, 10));
    expect(after.get("c")).toEqual(c(0, 12, 5, 5));
    expect(noOverlap(after)).toBe(true);
    expect(resizeTo(start, "a", { w: 1, h: 1 }, { w: 2, h: 4 }, 24).get("a")).toEqual(c(0, 0, 2, 4));
    expect(resizeTo(start, "b", { w: 40, h: 10 }, { w: 2, h: 4 }, 24).get("b")).toEqual(c(5, 0, 19, 10));
  });
});

describe("keyboard steps", () => {
  const start: Layout = new Map([
    ["a", c(0, 0, 5, 10)],
    ["b", c(5, 0, 5, 10)],
  ]);

  it("move one column or row, pushing what is in the way, and stop at the edges", () => {
    const right = stepMove(start, "a", { x: 1, y: 0 }, 24)!;
    expect(right.get("a")).toEqual(c(1, 0, 5, 10));
    expect(right.get("b")).toEqual(c(5, 10, 5, 10));
    expect(stepMove(start, "a", { x: -1, y: 0 }, 24)).toBeNull();
    expect(stepMove(start, "a", { x: 0, y: -1 }, 24)).toBeNull();
    expect(stepMove(start, "b", { x: 1, y: 0 }, 10)).toBeNull();
    expect(stepMove(start, "a", { x: 0, y: 1 }, 24)!.get("a")).toEqual(c(0, 1, 5, 10));
  });

  it("resize one column or row at a time, within the minimum and the grid", () => {
    const wider = stepResize(start, "a", { x: 1, y: 0 }, { w: 2, h: 4 }, 24)!;
    expect(wider.get("a")).toEqual(c(0, 0, 6, 10));
    expect(wider.get("b")!.y).toBe(10);
    expect(stepResize(start, "a", { x: 0, y: -1 }, { w: 2, h: 10 }, 24)).toBeNull();
    expect(stepResize(start, "b", { x: 1, y: 0 }, { w: 2, h: 4 }, 10)).toBeNull();
  });
});

describe("a new widget on a dashboard arranged per breakpoint", () => {
  it("gets a free spot at the widest breakpoint and at each arranged one, moving nobody", () => {
    const items = [
      item("a", c(0, 0, 24, 10), { md: c(0, 0, 10, 4) }),
      item("b", c(0, 10, 5, 10), { md: c(0, 4, 5, 5) }),
    ];
    const placed = placeNew(items, { w: 6, h: 8 });
    expect(placed.xl).toEqual(c(5, 10, 6, 8));
    expect(placed.layouts).toEqual({ md: c(0, 9, 6, 8) });
    const after = layoutAt([...items, item("new", placed.xl, placed.layouts)], md);
    expect(after.get("a")).toEqual(c(0, 0, 10, 4));
    expect(after.get("b")).toEqual(c(0, 4, 5, 5));
    expect(noOverlap(after)).toBe(true);
  });
});

describe("closing holes (the public view without the private widgets)", () => {
  it("slides widgets up within their columns, keeping their order", () => {
    const layout: Layout = new Map([
      ["a", c(0, 0, 5, 10)],
      ["b", c(0, 25, 5, 5)],
      ["c", c(5, 12, 5, 5)],
    ]);
    const compact = compactUp(layout);
    expect(compact.get("a")).toEqual(c(0, 0, 5, 10));
    expect(compact.get("b")).toEqual(c(0, 10, 5, 5));
    expect(compact.get("c")).toEqual(c(5, 0, 5, 5));
  });
});
