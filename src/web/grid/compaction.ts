import type { LayoutBreakpoint, WidgetLayouts } from "../../contract/layout";
import {
  BREAKPOINTS,
  type Breakpoint,
  type BreakpointSpec,
  bottom,
  type Cell,
  clampCell,
  compactUp,
  type Direction,
  type Layout,
  type LayoutItem,
  layoutAt,
  moveTo,
  pinAt,
  resizeTo,
  type Size,
  sameCell,
  stepMove,
  stepResize,
} from "./geometry";

/**
 * The grid keeps no holes (react-grid-layout's verticalCompact, gridstack's float: false): every
 * grid draws its layout compacted, and every edit (a move, a resize, a removal, a removal undone)
 * is made on the layout as shown and compacted again. What is saved is that layout, for the
 * widgets whose stored cell differs, so a dashboard stored with holes is compacted the first
 * time someone edits it and never just because someone looked at it.
 *
 * In a compacted grid a widget cannot float, so a keyboard step down passes the widget below
 * (it moves up into the space left, as in react-grid-layout when a widget is dragged down past
 * its neighbour), and a step up passes the widget above.
 */

/** The layout every grid draws at a breakpoint. */
export function shownLayout(items: readonly LayoutItem[], spec: BreakpointSpec): Layout {
  return compactUp(layoutAt(items, spec));
}

/** A drag's outcome: the widgets in the way move aside (geometry.ts moveTo), then all slide up. */
export function moveCompacted(layout: Layout, id: string, target: Cell, columns: number): Layout {
  return compactUp(moveTo(layout, id, target, columns));
}

export function resizeCompacted(layout: Layout, id: string, size: Size, min: Size, columns: number): Layout {
  return compactUp(resizeTo(layout, id, size, min, columns));
}

/**
 * One keyboard step of moving, or null where it cannot go. Down takes the nearest row from which
 * the widget does not slide straight back: the first at which what was below it ends up above.
 */
export function stepMoveCompacted(
  layout: Layout,
  id: string,
  direction: Direction,
  columns: number,
): Layout | null {
  const start = layout.get(id);
  if (!start) return null;
  if (direction.y !== 1) {
    const moved = stepMove(layout, id, direction, columns);
    return moved && compactUp(moved);
  }
  const limit = bottom(layout.values());
  for (let y = start.y + 1; y <= limit; y++) {
    const next = moveCompacted(layout, id, { ...start, y }, columns);
    if (next.get(id)!.y > start.y) return next;
  }
  return null;
}

export function stepResizeCompacted(
  layout: Layout,
  id: string,
  direction: Direction,
  min: Size,
  columns: number,
): Layout | null {
  const resized = stepResize(layout, id, direction, min, columns);
  return resized && compactUp(resized);
}

/** One widget's cell to store at one breakpoint: its pixels at the widest, config.layout below. */
export interface StoredCell {
  id: string;
  breakpoint: Breakpoint;
  cell: Cell;
}

export function storedCell(item: LayoutItem, name: Breakpoint): Cell | undefined {
  return name === "xl" ? item.xl : item.layouts?.[name];
}

/** The breakpoints whose layout is stored: the widest, and each narrower one someone arranged. */
export function storedBreakpoints(items: readonly LayoutItem[]): BreakpointSpec[] {
  return BREAKPOINTS.filter(
    (spec) => spec.name === "xl" || items.some((item) => item.layouts?.[spec.name as LayoutBreakpoint]),
  );
}

/** What to save so a breakpoint's stored layout becomes `after`: the cells that differ. */
export function toStore(items: readonly LayoutItem[], spec: BreakpointSpec, after: Layout): StoredCell[] {
  return items.flatMap((item) => {
    const cell = after.get(item.id);
    return cell && !sameCell(storedCell(item, spec.name), cell)
      ? [{ id: item.id, breakpoint: spec.name, cell }]
      : [];
  });
}

/** What to save so every stored layout is the one shown: compacted (after a removal, before an add). */
export function compactionToStore(items: readonly LayoutItem[]): StoredCell[] {
  return storedBreakpoints(items).flatMap((spec) => toStore(items, spec, shownLayout(items, spec)));
}

/** The items as they are once `cells` are stored. */
export function withStored(items: readonly LayoutItem[], cells: readonly StoredCell[]): LayoutItem[] {
  return items.map((item) => {
    let next = item;
    for (const { id, breakpoint, cell } of cells) {
      if (id !== item.id) continue;
      next =
        breakpoint === "xl"
          ? { ...next, xl: cell }
          : { ...next, layouts: { ...next.layouts, [breakpoint]: cell } };
    }
    return next;
  });
}

/**
 * A removed widget put back (its removal undone): at each stored breakpoint it takes its old cell
 * again, the widgets that slid up into it move down below it, and all is compacted. Answers its
 * own cells and what the others need saved.
 */
export function putBack(
  items: readonly LayoutItem[],
  back: LayoutItem,
): { xl: Cell; layouts: WidgetLayouts; others: StoredCell[] } {
  const all = [...items, back];
  let xl = back.xl;
  const layouts: WidgetLayouts = {};
  const others: StoredCell[] = [];
  for (const spec of storedBreakpoints(all)) {
    const old = storedCell(back, spec.name);
    const cell = old ? clampCell(old, spec.columns) : layoutAt(all, spec).get(back.id)!;
    const shown = new Map(shownLayout(items, spec)).set(back.id, cell);
    const after = compactUp(pinAt(shown, back.id, cell));
    if (spec.name === "xl") xl = after.get(back.id)!;
    else layouts[spec.name] = after.get(back.id)!;
    others.push(...toStore(items, spec, after));
  }
  return { xl, layouts, others };
}
