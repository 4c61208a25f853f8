import {
  type Cell,
  COLUMN_PX,
  LAYOUT_BREAKPOINTS,
  type LayoutBreakpoint,
  ROW_PX,
  type WidgetLayouts,
} from "../../contract/layout";

/**
 * Layout maths of the responsive dashboard grid, pure so it can be tested without a browser.
 *
 * Columns follow the window: each breakpoint has a column count, and its columns share the
 * grid's width; rows are ROW_PX high everywhere. A widget's place at the widest breakpoint is
 * its stored pixels (COLUMN_PX per column, see src/contract/layout.ts); at a narrower one it is
 * the cell the user arranged there (config.layout), or else derived: the widgets are poured, in
 * the reading order of the next wider layout, into the first free spot that fits them.
 * Moving or resizing into occupied space pushes the widgets in the way down (or swaps with the
 * one widget whose place the moved one takes over), so nothing ever overlaps. The grids draw and
 * edit these layouts compacted, without holes (compactUp below; compaction.ts).
 */

export type { Cell };
export type Breakpoint = "xl" | LayoutBreakpoint;

export interface BreakpointSpec {
  name: Breakpoint;
  /** The grid's own width (not the window's) from which this breakpoint applies. */
  minWidth: number;
  columns: number;
  /** Phones: widgets laid out here by default take the whole width. */
  fullWidth: boolean;
}

/** Widest first. A column is about 60 px wide at each breakpoint's narrow end. */
export const BREAKPOINTS: readonly BreakpointSpec[] = [
  { name: "xl", minWidth: 1200, columns: 24, fullWidth: false },
  { name: "lg", minWidth: 900, columns: 16, fullWidth: false },
  { name: "md", minWidth: 600, columns: 10, fullWidth: false },
  { name: "sm", minWidth: 0, columns: 4, fullWidth: true },
];

export { COLUMN_PX, ROW_PX };

export function breakpointFor(width: number): BreakpointSpec {
  return BREAKPOINTS.find((b) => width >= b.minWidth) ?? BREAKPOINTS[BREAKPOINTS.length - 1]!;
}

export function breakpointNamed(name: Breakpoint): BreakpointSpec {
  return BREAKPOINTS.find((b) => b.name === name)!;
}

/** The stored pixels (spec fields), as they are kept for the widest breakpoint. */
export interface Geometry {
  positionX: number;
  positionY: number;
  width: number;
  height: number;
}

/** A stored widget's cell at the widest breakpoint; pixels off the lattice round to the nearest. */
export function cellOfPixels(g: Geometry): Cell {
  return {
    x: Math.max(0, Math.round(g.positionX / COLUMN_PX)),
    y: Math.max(0, Math.round(g.positionY / ROW_PX)),
    w: Math.max(1, Math.round(g.width / COLUMN_PX)),
    h: Math.max(1, Math.round(g.height / ROW_PX)),
  };
}

export function pixelsOfCell(c: Cell): Geometry {
  return {
    positionX: c.x * COLUMN_PX,
    positionY: c.y * ROW_PX,
    width: c.w * COLUMN_PX,
    height: c.h * ROW_PX,
  };
}

export interface Size {
  w: number;
  h: number;
}

/** What the layout needs to know about one widget. */
export interface LayoutItem {
  id: string;
  /** Its cell at the widest breakpoint (from the stored pixels). */
  xl: Cell;
  /** The cells the user arranged at narrower breakpoints. */
  layouts?: WidgetLayouts;
  /** Smallest size in columns and rows; never more columns than the breakpoint has. */
  min: Size;
}

export type Layout = Map<string, Cell>;

/** Touching edges do not overlap. */
export function overlaps(a: Cell, b: Cell): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

export function collides(cell: Cell, others: Iterable<Cell>): boolean {
  for (const other of others) if (overlaps(cell, other)) return true;
  return false;
}

export function bottom(cells: Iterable<Cell>): number {
  let max = 0;
  for (const c of cells) max = Math.max(max, c.y + c.h);
  return max;
}

export function sameCell(a: Cell | undefined, b: Cell | undefined): boolean {
  return !!a && !!b && a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h;
}

/** A cell inside a grid this many columns wide: never wider, never past its right edge. */
export function clampCell(cell: Cell, columns: number): Cell {
  const w = Math.min(Math.max(1, cell.w), columns);
  return { x: Math.min(Math.max(0, cell.x), columns - w), y: Math.max(0, cell.y), w, h: Math.max(1, cell.h) };
}

/** Top to bottom, then left to right (ids break ties, so the order is stable). */
export function readingOrder<T extends { id: string; cell: Cell }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => a.cell.y - b.cell.y || a.cell.x - b.cell.x || a.id.localeCompare(b.id));
}

/**
 * The first free spot in reading order for a widget this size. The best spot always touches the
 * top or the bottom of another widget, and the left edge or the right of another, so only those
 * candidates are tried; below everything is always free.
 */
export function findFreeSpot(size: Size, others: readonly Cell[], columns: number): { x: number; y: number } {
  const w = Math.min(size.w, columns);
  const ys = [...new Set([0, ...others.map((c) => c.y + c.h)])].sort((a, b) => a - b);
  const xs = [...new Set([0, ...others.map((c) => c.x + c.w)])].sort((a, b) => a - b);
  for (const y of ys) {
    for (const x of xs) {
      if (x + w > columns) break;
      if (!collides({ x, y, w, h: size.h }, others)) return { x, y };
    }
  }
  return { x: 0, y: bottom(others) };
}

/**
 * Settles widgets around some that stay put: in reading order, each keeps its cell unless it
 * overlaps one already settled, and then moves down just below it, until it is free.
 */
function settle(
  fixed: readonly { id: string; cell: Cell }[],
  rest: readonly { id: string; cell: Cell }[],
): Layout {
  const placed: Cell[] = fixed.map((f) => f.cell);
  const out: Layout = new Map(fixed.map((f) => [f.id, f.cell]));
  for (const item of readingOrder(rest)) {
    const cell = { ...item.cell };
    for (let hit = placed.find((p) => overlaps(p, cell)); hit; hit = placed.find((p) => overlaps(p, cell)))
      cell.y = hit.y + hit.h;
    placed.push(cell);
    out.set(item.id, cell);
  }
  return out;
}

/** The layout with one widget held at `cell`; the others in its way move down below it. */
export function pinAt(layout: Layout, id: string, cell: Cell): Layout {
  const others = [...layout].filter(([other]) => other !== id).map(([other, c]) => ({ id: other, cell: c }));
  return settle([{ id, cell }], others);
}

/** The next wider breakpoint (the list is widest first). */
const wider = (spec: BreakpointSpec): BreakpointSpec =>
  BREAKPOINTS[Math.max(0, BREAKPOINTS.findIndex((b) => b.name === spec.name) - 1)]!;

/** The width a widget takes where nobody arranged it: its width in the wider layout, or all of it. */
function derivedWidth(item: LayoutItem, from: Cell, spec: BreakpointSpec): number {
  if (spec.fullWidth) return spec.columns;
  return Math.min(spec.columns, Math.max(from.w, Math.min(item.min.w, spec.columns)));
}

/**
 * Every widget's cell at a breakpoint. Arranged cells come first (kept, or pushed down where two
 * overlap); the others follow in the reading order of the next wider layout, each into the first
 * free spot that fits it.
 */
export function layoutAt(items: readonly LayoutItem[], spec: BreakpointSpec): Layout {
  const clamp = (cell: Cell) => clampCell(cell, spec.columns);
  if (spec.name === "xl")
    return settle(
      [],
      items.map((i) => ({ id: i.id, cell: clamp(i.xl) })),
    );
  const name = spec.name;
  const arranged = items.filter((i) => i.layouts?.[name]);
  const layout = settle(
    [],
    arranged.map((i) => ({ id: i.id, cell: clamp(i.layouts![name]!) })),
  );
  const rest = items.filter((i) => !i.layouts?.[name]);
  if (rest.length === 0) return layout;
  const source = layoutAt(items, wider(spec));
  const ordered = readingOrder(rest.map((i) => ({ id: i.id, item: i, cell: source.get(i.id)! })));
  for (const { id, item, cell } of ordered) {
    const size = { w: derivedWidth(item, cell, spec), h: cell.h };
    const spot = findFreeSpot(size, [...layout.values()], spec.columns);
    layout.set(id, { ...spot, ...size });
  }
  return layout;
}

/**
 * The layout after one widget takes `target`. The widgets in the way move down, unless the
 * target covers most of exactly one widget that fits where the moved one came from: then the
 * two swap places. Always computed from the layout before the gesture, so a widget pushed
 * aside mid-drag returns when the dragged one moves on.
 */
export function moveTo(layout: Layout, id: string, target: Cell, columns: number): Layout {
  const start = layout.get(id);
  if (!start) return layout;
  const cell = clampCell(target, columns);
  const others = [...layout].filter(([other]) => other !== id).map(([other, c]) => ({ id: other, cell: c }));
  const hits = others.filter((o) => overlaps(o.cell, cell));
  if (hits.length === 1) {
    const hit = hits[0]!;
    const swapped = { ...hit.cell, x: start.x, y: start.y };
    const area = (c: Cell) => c.w * c.h;
    const shared = {
      w: Math.min(cell.x + cell.w, hit.cell.x + hit.cell.w) - Math.max(cell.x, hit.cell.x),
      h: Math.min(cell.y + cell.h, hit.cell.y + hit.cell.h) - Math.max(cell.y, hit.cell.y),
    };
    const rest = others.filter((o) => o !== hit).map((o) => o.cell);
    if (
      shared.w * shared.h * 2 >= area(hit.cell) &&
      swapped.x + swapped.w <= columns &&
      !overlaps(swapped, cell) &&
      !collides(swapped, rest)
    ) {
      return new Map(
        [...layout].map(([other, c]) => [other, other === id ? cell : other === hit.id ? swapped : c]),
      );
    }
  }
  return settle([{ id, cell }], others);
}

/** The layout after one widget takes a new size (its corner stays put); the ones in the way move down. */
export function resizeTo(layout: Layout, id: string, size: Size, min: Size, columns: number): Layout {
  const start = layout.get(id);
  if (!start) return layout;
  const w = Math.min(Math.max(size.w, Math.min(min.w, columns)), columns - start.x);
  const h = Math.max(size.h, min.h, 1);
  const cell = { ...start, w: Math.max(1, w), h };
  const others = [...layout].filter(([other]) => other !== id).map(([other, c]) => ({ id: other, cell: c }));
  return settle([{ id, cell }], others);
}

export interface Direction {
  x: -1 | 0 | 1;
  y: -1 | 0 | 1;
}

/** One keyboard step: a move by one column or row (null at the grid's edge), pushing what is in the way. */
export function stepMove(layout: Layout, id: string, direction: Direction, columns: number): Layout | null {
  const start = layout.get(id);
  if (!start) return null;
  const target = { ...start, x: start.x + direction.x, y: start.y + direction.y };
  if (target.x < 0 || target.y < 0 || target.x + target.w > columns) return null;
  return moveTo(layout, id, target, columns);
}

/** One keyboard step of resizing: a column wider or narrower, a row taller or shorter. */
export function stepResize(
  layout: Layout,
  id: string,
  direction: Direction,
  min: Size,
  columns: number,
): Layout | null {
  const start = layout.get(id);
  if (!start) return null;
  const size = { w: start.w + direction.x, h: start.h + direction.y };
  if (size.w < Math.min(min.w, columns) || size.h < min.h || start.x + size.w > columns) return null;
  return resizeTo(layout, id, size, min, columns);
}

/** Ids whose cell differs between two layouts of the same widgets. */
export function changedIds(before: Layout, after: Layout): string[] {
  return [...after.keys()].filter((id) => !sameCell(before.get(id), after.get(id)));
}

/**
 * Where a new widget goes: the first free spot of the layout as shown (compacted) at the widest
 * breakpoint (its stored pixels), and at each narrower breakpoint the user has arranged, one
 * there too, so adding a widget moves nothing the user placed. It rests on what is above it.
 */
export function placeNew(items: readonly LayoutItem[], size: Size): { xl: Cell; layouts: WidgetLayouts } {
  const spot = (spec: BreakpointSpec): Cell => {
    const cells = [...compactUp(layoutAt(items, spec)).values()];
    const fit = { w: spec.fullWidth ? spec.columns : Math.min(size.w, spec.columns), h: size.h };
    const free = { ...findFreeSpot(fit, cells, spec.columns), ...fit };
    // A free spot is free up to the lowest widget above it in its columns.
    let y = 0;
    for (const c of cells)
      if (c.x < free.x + free.w && free.x < c.x + c.w && c.y + c.h <= free.y) y = Math.max(y, c.y + c.h);
    return { ...free, y };
  };
  const layouts: WidgetLayouts = {};
  for (const name of LAYOUT_BREAKPOINTS)
    if (items.some((i) => i.layouts?.[name])) layouts[name] = spot(breakpointNamed(name));
  return { xl: spot(breakpointNamed("xl")), layouts };
}

/**
 * Vertical compaction (react-grid-layout's verticalCompact, gridstack's float: false): in reading
 * order, every widget slides straight up until it meets the top or a widget spanning one of its
 * columns, keeping its column. Nothing passes another on the way, so the order top to bottom in a
 * column stays as the user made it, and a compacted layout is left as it is.
 */
export function compactUp(layout: Layout): Layout {
  const placed: Cell[] = [];
  const out: Layout = new Map();
  for (const { id, cell } of readingOrder([...layout].map(([id, cell]) => ({ id, cell })))) {
    let y = 0;
    for (const p of placed) if (cell.x < p.x + p.w && p.x < cell.x + cell.w) y = Math.max(y, p.y + p.h);
    const moved = { ...cell, y };
    placed.push(moved);
    out.set(id, moved);
  }
  return out;
}
