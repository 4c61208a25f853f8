import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { stylesSettled } from "./page-helpers.js";

export const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** axe-core's serious and critical findings (WCAG 2.2 AA) on the page, or on its open dialog. */
export async function axeBlocking(page: Page): Promise<string[]> {
  await stylesSettled(page);
  // Evaluated through the DevTools protocol: the app's CSP (script-src 'self') refuses an inline tag.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as any).axe;
    const dialog = document.querySelector("dialog[open]");
    const result = await axe.run(dialog ? { include: ["dialog[open]"] } : document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] },
      resultTypes: ["violations"],
    });
    return result.violations
      .filter((v: any) => v.impact === "serious" || v.impact === "critical")
      .map((v: any) => `${v.id}: ${v.help} ${JSON.stringify(v.nodes.map((n: any) => n.target).slice(0, 4))}`);
  });
}
