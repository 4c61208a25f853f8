/**
 * Layout maths for the dashboard grid. Geometry is stored in pixels (spec); the editor snaps to a
 * STEP lattice and never lets two widgets overlap. Everything here is pure so it can be tested
 * without a browser.
 */

export const STEP = 20;
/** Below this canvas width widgets are stacked in reading order instead of placed. */
export const STACK_BELOW = 720;

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}
export interface Size {
  w: number;
  h: number;
}
export interface Point {
  x: number;
  y: number;
}

export function snap(value: number, step = STEP): number {
  return Math.round(value / step) * step;
}

export function snapRect(rect: Rect, step = STEP, min: Size = { w: step, h: step }): Rect {
  return {
    x: Math.max(0, snap(rect.x, step)),
    y: Math.max(0, snap(rect.y, step)),
    w: Math.max(min.w, snap(rect.w, step)),
    h: Math.max(min.h, snap(rect.h, step)),
  };
}

/** Touching edges do not overlap. */
export function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

export function collides(rect: Rect, others: readonly Rect[]): boolean {
  return others.some((other) => overlaps(rect, other));
}

export function bottom(rects: readonly Rect[]): number {
  return rects.reduce((max, r) => Math.max(max, r.y + r.h), 0);
}

/** Largest x a rect of width w may take in a canvas this wide (0 when it is wider than the canvas). */
function maxX(w: number, width: number): number {
  return Math.max(0, width - w);
}

/**
 * Where a new widget goes: the first free spot in reading order (top to bottom, then left to
 * right) inside the canvas width. The best spot always touches the top or the bottom of another
 * widget, and the left edge or the right of another, so only those candidates are tried.
 */
export function findFreeSpot(size: Size, others: readonly Rect[], width: number): Point {
  const ys = [...new Set([0, ...others.map((r) => r.y + r.h)])].sort((a, b) => a - b);
  const xs = [...new Set([0, ...others.map((r) => r.x + r.w)])].sort((a, b) => a - b);
  const limit = maxX(size.w, width);
  for (const y of ys) {
    for (const x of xs) {
      if (x > limit) break;
      if (!collides({ x, y, w: size.w, h: size.h }, others)) return { x, y };
    }
  }
  return { x: 0, y: bottom(others) };
}

/**
 * Where a dragged widget lands: the desired spot when free, else the free lattice spot nearest to
 * it within the canvas. Rings of growing radius are searched until no closer spot can exist.
 */
export function nearestFree(
  desired: Rect,
  others: readonly Rect[],
  width: number,
  step = STEP,
  maxRings = 60,
): Point {
  const limit = maxX(desired.w, width);
  const start = {
    x: Math.min(Math.max(0, desired.x), limit),
    y: Math.max(0, desired.y),
  };
  const free = (x: number, y: number) =>
    x >= 0 && y >= 0 && x <= limit && !collides({ x, y, w: desired.w, h: desired.h }, others);
  if (free(start.x, start.y)) return start;

  let best: Point | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (let ring = 1; ring <= maxRings; ring++) {
    if (best && ring * step > bestDistance) break;
    for (let dy = -ring; dy <= ring; dy++) {
      for (let dx = -ring; dx <= ring; dx++) {
        if (Math.max(Math.abs(dx), Math.abs(dy)) !== ring) continue;
        const x = start.x + dx * step;
        const y = start.y + dy * step;
        if (!free(x, y)) continue;
        const distance = Math.hypot(dx * step, dy * step);
        if (distance < bestDistance) {
          bestDistance = distance;
          best = { x, y };
        }
      }
    }
  }
  // Nothing near: the canvas grows downwards, so below everything is always free.
  return best ?? { x: start.x, y: Math.ceil(bottom(others) / step) * step };
}

/**
 * The size a resize may take: the requested size, clipped so it stops at the first widget in its
 * way, never below the minimum. null when even the minimum does not fit (the caller keeps the size).
 */
export function fitResize(rect: Rect, desired: Size, others: readonly Rect[], min: Size): Size | null {
  let w = Math.max(min.w, desired.w);
  let h = Math.max(min.h, desired.h);
  // Closest obstacles first, so a clip for one never skips a nearer one.
  const sorted = [...others].sort((a, b) => a.x + a.y - (b.x + b.y));
  for (const other of sorted) {
    if (!overlaps({ x: rect.x, y: rect.y, w, h }, other)) continue;
    const clipW = other.x - rect.x;
    const clipH = other.y - rect.y;
    const canW = clipW >= min.w;
    const canH = clipH >= min.h;
    if (canW && (!canH || clipW * h >= w * clipH)) w = clipW;
    else if (canH) h = clipH;
    else return null;
  }
  const result = { x: rect.x, y: rect.y, w, h };
  return collides(result, others) ? null : { w, h };
}

/**
 * One keyboard step: moves in a direction, hopping over occupied spots up to `reach` steps.
 * Returns null when nothing in that direction is free or it leaves the canvas.
 */
export function moveStep(
  rect: Rect,
  direction: Point,
  others: readonly Rect[],
  width: number,
  step = STEP,
  reach = 80,
): Point | null {
  const limit = maxX(rect.w, width);
  for (let n = 1; n <= reach; n++) {
    const x = rect.x + direction.x * step * n;
    const y = rect.y + direction.y * step * n;
    if (x < 0 || y < 0 || (direction.x > 0 && x > limit)) return null;
    if (!collides({ x, y, w: rect.w, h: rect.h }, others)) return { x, y };
  }
  return null;
}

/** Reading order for stacking on narrow screens: top to bottom, then left to right. */
export function readingOrder<T extends { rect: Rect; id: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => a.rect.y - b.rect.y || a.rect.x - b.rect.x || a.id.localeCompare(b.id));
}

export function sameRect(a: Rect, b: Rect): boolean {
  return a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h;
}

/**
 * Slides every widget up as far as it goes without overlapping (in reading order), keeping its
 * column. The public view leaves out the owner's private widgets; this closes the holes.
 */
export function compactUp<T extends { rect: Rect; id: string }>(items: readonly T[]): T[] {
  const placed: Rect[] = [];
  return readingOrder(items).map((item) => {
    const { rect } = item;
    const spans = (other: Rect) => rect.x < other.x + other.w && other.x < rect.x + rect.w;
    const candidates = [0, ...placed.filter(spans).map((p) => p.y + p.h)]
      .filter((y) => y <= rect.y)
      .sort((a, b) => a - b);
    const y = candidates.find((c) => !collides({ ...rect, y: c }, placed)) ?? rect.y;
    const moved = { ...rect, y };
    placed.push(moved);
    return { ...item, rect: moved };
  });
}
