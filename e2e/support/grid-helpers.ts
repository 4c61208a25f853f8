import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";

/** A widget as GET /api/widgets answers it. */
export interface ApiWidget {
  id: string;
  widgetType: string;
  positionX: number;
  positionY: number;
  width: number;
  height: number;
  config: Record<string, any>;
  updatedAt: string;
}

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The first two boxes that share area (touching edges do not), or null. */
export function overlapping<B extends Box>(boxes: B[]): [B, B] | null {
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      if (a.x < b.x + b.w - 0.5 && b.x < a.x + a.w - 0.5 && a.y < b.y + b.h - 0.5 && b.y < a.y + a.h - 0.5)
        return [a, b];
    }
  return null;
}

/** The stored rects of widgets, for overlapping(). */
export const storedBoxes = (list: ApiWidget[]): Box[] =>
  list.map((w) => ({ x: w.positionX, y: w.positionY, w: w.width, h: w.height }));

/** Widgets glide to their places in Edit layout; a drag starts only when they have arrived. */
export async function settled(page: Page) {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== "running"),
  );
}

/** Presses on the middle of `handle` and moves by (dx, dy) in small steps; releases unless told not to. */
export async function dragBy(page: Page, handle: Locator, dx: number, dy: number, { release = true } = {}) {
  await settled(page);
  const box = await handle.boundingBox();
  if (!box) throw new Error("drag handle not visible");
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) await page.mouse.move(x + (dx * i) / 12, y + (dy * i) / 12);
  if (release) await page.mouse.up();
}

/** The dashboard's save status says everything reached the server. */
export async function waitForSaved(page: Page) {
  await page.locator(".save-status.is-saved").waitFor({ timeout: 10_000 });
  await expect.poll(() => page.locator(".save-status").textContent()).not.toContain("Saving");
}

/** A widget's cell as the grid shows it: column, row, columns wide, rows high. */
export type ShownCell = [number, number, number, number];

/** Each grid item's cell as shown, by widget type. */
export async function shownCells(page: Page): Promise<Record<string, ShownCell>> {
  return page.$$eval(".grid-item", (items) =>
    Object.fromEntries(
      items.map((item) => {
        const el = item as HTMLElement;
        const type = el.querySelector("[data-widget-type]")?.getAttribute("data-widget-type");
        return [
          type,
          [Number(el.dataset.col), Number(el.dataset.row), Number(el.dataset.cols), Number(el.dataset.rows)],
        ];
      }),
    ),
  );
}

/** The stored cells at the widest breakpoint (pixels on the 60 × 20 px lattice), by widget type. */
export const storedCells = (list: ApiWidget[]): Record<string, ShownCell> =>
  Object.fromEntries(
    list.map((w) => [w.widgetType, [w.positionX / 60, w.positionY / 20, w.width / 60, w.height / 20]]),
  );

/**
 * The widgets that float: neither at the top nor resting on a widget that spans one of their
 * columns directly above (a hole the grid should have closed).
 */
export function floating(cells: Record<string, ShownCell>): string[] {
  const list = Object.entries(cells);
  return list
    .filter(
      ([, [x, y, w]]) =>
        y !== 0 && !list.some(([, [ox, oy, ow, oh]]) => oy + oh === y && ox < x + w && x < ox + ow),
    )
    .map(([type]) => type);
}
