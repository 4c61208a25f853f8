import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import { inScheme } from "./page-helpers.js";

/**
 * Takes `<prefix><name>-390-light.png` and so on: phone and desktop, light and dark, failing when
 * the page scrolls sideways. `focus` is scrolled into view first; `ready` waits again for what the
 * picture needs after a change of scheme, since a public page takes the scheme as it loads and
 * inScheme may have reloaded it.
 */
export type Photograph = (
  page: Page,
  name: string,
  focus?: Locator,
  ready?: () => Promise<unknown>,
) => Promise<void>;

/**
 * A photographer into `dir`. With `parts`, the focused part is also taken at full size on the
 * desktop (`<prefix><name>-part-light.png`), to look at the details (dots, bars) a page shot shrinks.
 */
export function photographer(dir: string, prefix: string, { parts = false } = {}): Photograph {
  return async (page, name, focus, ready) => {
    mkdirSync(dir, { recursive: true });
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 1000 });
      await focus?.scrollIntoViewIfNeeded();
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth, `${name} at ${width}`).toBeLessThanOrEqual(width);
      for (const scheme of ["light", "dark"] as const) {
        await inScheme(page, scheme);
        await ready?.();
        await page.mouse.move(0, 0);
        await page.screenshot({ path: path.join(dir, `${prefix}${name}-${width}-${scheme}.png`) });
        if (parts && focus && width === 1440)
          await focus.screenshot({ path: path.join(dir, `${prefix}${name}-part-${scheme}.png`) });
      }
    }
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 1440, height: 1000 });
  };
}
