import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compactionToStore,
  moveCompacted,
  putBack,
  resizeCompacted,
  shownLayout,
  stepMoveCompacted,
  stepResizeCompacted,
  storedBreakpoints,
  toStore,
  withStored,
} from "./compaction";
import {
  BREAKPOINTS,
  type BreakpointSpec,
  breakpointNamed,
  type Cell,
  compactUp,
  type Direction,
  type Layout,
  type LayoutItem,
  layoutAt,
  overlaps,
} from "./geometry";

const c = (x: number, y: number, w: number, h: number): Cell => ({ x, y, w, h });
const MIN = { w: 2, h: 2 };
const item = (id: string, xl: Cell, layouts?: LayoutItem["layouts"]): LayoutItem => ({
  id,
  xl,
  layouts,
  min: MIN,
});
const xl = breakpointNamed("xl");
const lg = breakpointNamed("lg");

/** Why a layout is not compact and whole, or null: overlaps, holes, cells past the edge. */
function flaw(layout: Layout, columns: number): string | null {
  const entries = [...layout];
  for (const [id, cell] of entries) {
    if (cell.x < 0 || cell.y < 0 || cell.w < 1 || cell.h < 1 || cell.x + cell.w > columns)
      return `${id} is outside the grid: ${JSON.stringify(cell)}`;
    for (const [other, o] of entries) if (other !== id && overlaps(cell, o)) return `${id} overlaps ${other}`;
    // No hole: at the top, or resting on a widget spanning one of its columns directly above.
    const rests = entries.some(
      ([other, o]) => other !== id && o.y + o.h === cell.y && o.x < cell.x + cell.w && cell.x < o.x + o.w,
    );
    if (cell.y !== 0 && !rests) return `${id} floats at row ${cell.y}`;
  }
  return null;
}
const expectCompact = (layout: Layout, columns: number) => expect(flaw(layout, columns)).toBeNull();

const DIRECTIONS: Direction[] = [
  { x: -1, y: 0 },
  { x: 1, y: 0 },
  { x: 0, y: -1 },
  { x: 0, y: 1 },
];

/** A dashboard as stored: random, overlapping and full of holes, some cells arranged per breakpoint. */
const arbCell = (columns: number) =>
  fc
    .record({
      x: fc.integer({ min: 0, max: columns - 1 }),
      y: fc.integer({ min: 0, max: 60 }),
      w: fc.integer({ min: 1, max: columns }),
      h: fc.integer({ min: 1, max: 20 }),
    })
    .map((cell) => ({ ...cell, w: Math.min(cell.w, columns - cell.x) }));
const arbItems = fc
  .array(
    fc.record({
      xl: arbCell(24),
      lg: fc.option(arbCell(16), { nil: undefined }),
      md: fc.option(arbCell(10), { nil: undefined }),
      sm: fc.option(arbCell(4), { nil: undefined }),
    }),
    { minLength: 1, maxLength: 10 },
  )
  .map((rows) =>
    rows.map(({ xl: cell, lg: l, md, sm }, i) => {
      const layouts = Object.fromEntries(
        Object.entries({ lg: l, md, sm }).filter(([, v]) => v !== undefined),
      ) as LayoutItem["layouts"];
      return item(`w${i}`, cell, Object.keys(layouts ?? {}).length ? layouts : undefined);
    }),
  );

type Op =
  | { kind: "move"; pick: number; x: number; y: number }
  | { kind: "resize"; pick: number; w: number; h: number }
  | { kind: "step"; pick: number; direction: number }
  | { kind: "stepResize"; pick: number; direction: number }
  | { kind: "remove"; pick: number };
const pick = fc.nat({ max: 1000 });
const arbOp: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("move" as const),
    pick,
    x: fc.integer({ min: -2, max: 25 }),
    y: fc.integer({ min: 0, max: 90 }),
  }),
  fc.record({
    kind: fc.constant("resize" as const),
    pick,
    w: fc.integer({ min: 1, max: 24 }),
    h: fc.integer({ min: 1, max: 24 }),
  }),
  fc.record({ kind: fc.constant("step" as const), pick, direction: fc.nat({ max: 3 }) }),
  fc.record({ kind: fc.constant("stepResize" as const), pick, direction: fc.nat({ max: 3 }) }),
  fc.record({ kind: fc.constant("remove" as const), pick }),
);
const arbSpec = fc.constantFrom(...BREAKPOINTS);

/** One edit on the layout as shown, as the grid makes it; null when it changes nothing. */
function apply(layout: Layout, op: Op, spec: BreakpointSpec): { id: string; after: Layout | null } {
  const ids = [...layout.keys()];
  const id = ids[op.pick % ids.length]!;
  const start = layout.get(id)!;
  const columns = spec.columns;
  switch (op.kind) {
    case "move":
      return { id, after: moveCompacted(layout, id, { ...start, x: op.x, y: op.y }, columns) };
    case "resize":
      return { id, after: resizeCompacted(layout, id, { w: op.w, h: op.h }, MIN, columns) };
    case "step":
      return { id, after: stepMoveCompacted(layout, id, DIRECTIONS[op.direction]!, columns) };
    case "stepResize":
      return { id, after: stepResizeCompacted(layout, id, DIRECTIONS[op.direction]!, MIN, columns) };
    case "remove":
      return { id, after: compactUp(new Map([...layout].filter(([other]) => other !== id))) };
  }
}

describe("vertical compaction", () => {
  it("slides widgets straight up in their columns, never past one another", () => {
    const layout: Layout = new Map([
      ["p", c(5, 0, 19, 10)],
      ["b", c(0, 15, 24, 10)],
      ["m", c(0, 40, 5, 10)],
    ]);
    const compact = compactUp(layout);
    // The full-width widget rests on the one beside the hole; the small one cannot jump into it.
    expect(compact.get("b")).toEqual(c(0, 10, 24, 10));
    expect(compact.get("m")).toEqual(c(0, 20, 5, 10));
    expectCompact(compact, 24);
    expect(compactUp(compact)).toEqual(compact);
  });

  it("shows stored holes closed without storing anything until an edit", () => {
    const items = [item("a", c(0, 0, 5, 10)), item("b", c(0, 25, 5, 5)), item("c", c(5, 12, 5, 5))];
    const shown = shownLayout(items, xl);
    expect([shown.get("b"), shown.get("c")]).toEqual([c(0, 10, 5, 5), c(5, 0, 5, 5)]);
    expect(toStore(items, xl, shown).map((s) => s.id)).toEqual(["b", "c"]);
    expect(compactionToStore(withStored(items, compactionToStore(items)))).toEqual([]);
  });
});

describe("keyboard steps in a compacted grid", () => {
  const stack: Layout = new Map([
    ["top", c(0, 0, 6, 10)],
    ["mid", c(0, 10, 6, 8)],
    ["low", c(0, 18, 6, 4)],
    ["side", c(6, 0, 6, 4)],
  ]);

  it("passes the widget below on Down, and the one above on Up, each in one press", () => {
    const down = stepMoveCompacted(stack, "top", { x: 0, y: 1 }, 24)!;
    expect([down.get("mid"), down.get("top"), down.get("low")]).toEqual([
      c(0, 0, 6, 8),
      c(0, 8, 6, 10),
      c(0, 18, 6, 4),
    ]);
    const up = stepMoveCompacted(down, "top", { x: 0, y: -1 }, 24)!;
    expect(up).toEqual(stack);
    // Compacting again does not undo a step.
    expect(compactUp(down)).toEqual(down);
  });

  it("says no where a widget cannot go: down from the bottom of its column, up from the top", () => {
    expect(stepMoveCompacted(stack, "low", { x: 0, y: 1 }, 24)).toBeNull();
    expect(stepMoveCompacted(stack, "side", { x: 0, y: 1 }, 24)).toBeNull();
    expect(stepMoveCompacted(stack, "top", { x: 0, y: -1 }, 24)).toBeNull();
    expect(stepMoveCompacted(stack, "top", { x: -1, y: 0 }, 24)).toBeNull();
  });

  it("gets below a full-width widget held up by another, and back above it", () => {
    const layout: Layout = new Map([
      ["m", c(0, 0, 5, 10)],
      ["p", c(5, 0, 19, 10)],
      ["b", c(0, 10, 24, 10)],
    ]);
    const down = stepMoveCompacted(layout, "m", { x: 0, y: 1 }, 24)!;
    expect(down.get("b")).toEqual(c(0, 10, 24, 10));
    expect(down.get("m")).toEqual(c(0, 20, 5, 10));
    expectCompact(down, 24);
    const up = stepMoveCompacted(down, "m", { x: 0, y: -1 }, 24)!;
    expect(up.get("m")).toEqual(c(0, 0, 5, 10));
    expect(up.get("b")).toEqual(c(0, 10, 24, 10));
  });

  it("moves sideways into a gap and settles there", () => {
    const layout: Layout = new Map([
      ["a", c(0, 0, 4, 10)],
      ["b", c(0, 10, 4, 4)],
    ]);
    const right = stepMoveCompacted(layout, "b", { x: 1, y: 0 }, 24)!;
    expect(right.get("b")).toEqual(c(1, 10, 4, 4));
    const far = [1, 2, 3, 4].reduce((l) => stepMoveCompacted(l, "b", { x: 1, y: 0 }, 24)!, layout);
    expect(far.get("b")).toEqual(c(4, 0, 4, 4));
  });

  it("steps in a direction or not at all, from any compacted layout, at every breakpoint", () => {
    fc.assert(
      fc.property(arbItems, arbSpec, pick, fc.nat({ max: 3 }), (items, spec, p, d) => {
        const layout = shownLayout(items, spec);
        const id = items[p % items.length]!.id;
        const start = layout.get(id)!;
        const direction = DIRECTIONS[d]!;
        const after = stepMoveCompacted(layout, id, direction, spec.columns);
        if (!after) return;
        expectCompact(after, spec.columns);
        const cell = after.get(id)!;
        if (direction.x) expect(cell.x).toBe(start.x + direction.x);
        if (direction.y > 0) expect(cell.y).toBeGreaterThan(start.y);
        if (direction.y < 0) expect(cell.y).toBeLessThan(start.y);
      }),
      { numRuns: 300 },
    );
  });
});

describe("random sequences of moves, resizes and removals", () => {
  it("leave no overlap and no hole, and keep every widget, at every breakpoint", () => {
    fc.assert(
      fc.property(arbItems, arbSpec, fc.array(arbOp, { maxLength: 25 }), (items, spec, ops) => {
        let layout = shownLayout(items, spec);
        expectCompact(layout, spec.columns);
        const kept = new Set(layout.keys());
        for (const op of ops) {
          if (layout.size === 0) break;
          const { id, after } = apply(layout, op, spec);
          if (op.kind === "remove") kept.delete(id);
          if (!after) continue;
          expectCompact(after, spec.columns);
          expect(new Set(after.keys())).toEqual(kept);
          layout = after;
        }
      }),
      { numRuns: 300 },
    );
  });

  it("store what was shown: every stored layout compact, the edited one exactly as drawn", () => {
    fc.assert(
      fc.property(arbItems, arbSpec, fc.array(arbOp, { maxLength: 15 }), (start, spec, ops) => {
        let items = start;
        for (const op of ops) {
          if (items.length === 0) break;
          const shown = shownLayout(items, spec);
          const { id, after } = apply(shown, op, spec);
          if (op.kind === "remove") {
            // The grid's removal: the widget goes, what is stored is compacted everywhere.
            const rest = items.filter((i) => i.id !== id);
            items = withStored(rest, compactionToStore(rest));
            expect(items.map((i) => i.id)).toEqual(rest.map((i) => i.id));
          } else if (after) {
            // The grid's commit: the cells at this breakpoint that differ from the stored ones.
            items = withStored(items, toStore(items, spec, after));
            expect(shownLayout(items, spec)).toEqual(after);
          }
          // The stored cells themselves have no holes: at the breakpoint edited, and after a
          // removal at every breakpoint that has stored cells.
          const stored = op.kind === "remove" ? storedBreakpoints(items) : after ? [spec] : [];
          for (const s of stored) expectCompact(layoutAt(items, s), s.columns);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("put a removed widget back in its place, the others compacted around it", () => {
    fc.assert(
      fc.property(arbItems, pick, (start, p) => {
        const items = withStored(start, compactionToStore(start));
        const removed = items[p % items.length]!;
        const rest = items.filter((i) => i.id !== removed.id);
        const compacted = withStored(rest, compactionToStore(rest));
        const { xl: cell, layouts, others } = putBack(compacted, removed);
        const back = withStored(compacted, others).concat(item(removed.id, cell, layouts));
        for (const spec of storedBreakpoints(back)) {
          const stored = layoutAt(back, spec);
          expectCompact(stored, spec.columns);
          expect(stored.size).toBe(items.length);
        }
        // Its place at the widest breakpoint is its old one whenever that was resting at the top.
        if (removed.xl.y === 0) expect(cell).toEqual(removed.xl);
      }),
      { numRuns: 300 },
    );
  });

  it("undoes a removal exactly when nothing else changed", () => {
    const items = [
      item("r", c(0, 0, 10, 10), { lg: c(0, 0, 16, 5) }),
      item("a", c(0, 10, 5, 5), { lg: c(0, 5, 8, 5) }),
      item("b", c(5, 10, 5, 10), { lg: c(8, 5, 8, 10) }),
      item("c", c(0, 20, 10, 10), { lg: c(0, 15, 16, 10) }),
    ];
    const rest = items.slice(1);
    const compacted = withStored(rest, compactionToStore(rest));
    expect(layoutAt(compacted, xl).get("c")).toEqual(c(0, 10, 10, 10));
    const { xl: cell, layouts, others } = putBack(compacted, items[0]!);
    expect(cell).toEqual(items[0]!.xl);
    expect(layouts).toEqual(items[0]!.layouts);
    const back = withStored(compacted, others).concat(item("r", cell, layouts));
    for (const spec of [xl, lg]) expect(layoutAt(back, spec)).toEqual(layoutAt(items, spec));
  });
});
