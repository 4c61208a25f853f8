import { isRecord } from "./widget-kit/parse.js";

/**
 * Where a widget sits on the responsive dashboard grid. The spec stores a widget's geometry in
 * pixels (positionX, positionY, width, height); those pixels are its place at the widest
 * breakpoint, on a lattice of COLUMN_PX wide columns and ROW_PX high rows. Narrower breakpoints
 * derive their layout from it, unless the user arranged that breakpoint: then the widget's
 * config holds its own cell there, under the reserved key `layout` (see WidgetLayouts). The web
 * grid owns that key; widget components never see or write it.
 */

/** Width of one column of the widest breakpoint, in the stored pixels. */
export const COLUMN_PX = 60;
/** Height of one row, at every breakpoint, in pixels. */
export const ROW_PX = 20;

/** The breakpoints narrower than the widest, whose cells live in config.layout. */
export const LAYOUT_BREAKPOINTS = ["lg", "md", "sm"] as const;
export type LayoutBreakpoint = (typeof LAYOUT_BREAKPOINTS)[number];

/** The reserved config key holding a widget's per-breakpoint cells. */
export const LAYOUT_KEY = "layout";

/** A place on the grid in whole columns and rows of one breakpoint. */
export interface Cell {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** `config.layout`: the cells a user arranged at the narrower breakpoints, keyed by breakpoint. */
export type WidgetLayouts = Partial<Record<LayoutBreakpoint, Cell>>;

/** Enough for any screen: 24 columns is the widest grid, 100000 px the spec's bound on pixels. */
const MAX_COLUMNS = 24;
const MAX_ROWS = 100_000 / ROW_PX;

const count = (value: unknown, min: number, max: number): value is number =>
  typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;

function readCell(value: unknown): Cell | undefined {
  if (!isRecord(value)) return undefined;
  const { x, y, w, h } = value;
  if (
    !count(x, 0, MAX_COLUMNS - 1) ||
    !count(y, 0, MAX_ROWS) ||
    !count(w, 1, MAX_COLUMNS) ||
    !count(h, 1, MAX_ROWS)
  )
    return undefined;
  return { x, y, w, h };
}

/** The usable cells of a stored `config.layout`; undefined when none is usable. */
export function parseLayouts(raw: unknown): WidgetLayouts | undefined {
  if (!isRecord(raw)) return undefined;
  const out: WidgetLayouts = {};
  for (const breakpoint of LAYOUT_BREAKPOINTS) {
    const cell = readCell(raw[breakpoint]);
    if (cell) out[breakpoint] = cell;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
