import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeBlocking } from "./support/axe.js";
import {
  type ApiWidget,
  dragBy,
  floating,
  overlapping,
  type ShownCell,
  settled,
  shownCells,
  storedBoxes,
  storedCells,
  waitForSaved,
} from "./support/grid-helpers.js";
import { type Api, type E2eApp, startApp } from "./support/web-app.js";

/**
 * The grid keeps no holes: a widget moved away or removed leaves none, on screen and in what is
 * stored; a removal is undone from its toast (by pointer and by keyboard) and the grid closes
 * around it again; a restored version is undone from the toolbar. In Chromium at 1440 and 390 px,
 * light and dark. Steps share one page and run in order.
 */

const ARTIFACTS = path.resolve("test-results");
const STEP = 60_000;

let app: E2eApp;
let page: Page;
let api: Api;
let boardId = "";
let settingsId = "";
const pageErrors: string[] = [];
/** Widget saves the page sent (PUT or PATCH /api/widgets). */
const writes: string[] = [];

const widget = (type: string): Locator => page.locator(`[data-widget-type="${type}"]`);
const announcer = () => page.getByTestId("grid-announcer");
const toasts = () => page.getByRole("region", { name: "Notifications" });
const toolbarUndo = () => page.locator(".dashboard-toolbar").getByRole("button", { name: "Undo" });

async function stored(): Promise<ApiWidget[]> {
  const res = await api<ApiWidget[]>("GET", `/api/widgets?dashboardId=${boardId}`);
  expect(res.status).toBe(200);
  return res.body;
}

async function setTheme(theme: "light" | "dark") {
  const res = await api("PUT", "/api/settings", { id: settingsId, config: { theme } });
  expect(res.status).toBe(200);
  await page.reload();
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
}

/** The whole page from its top; `toast`: the window as it is, with the toast in its corner. */
async function shot(name: string, { toast = false } = {}) {
  await page.mouse.move(0, 0);
  if (!toast) await page.evaluate(() => window.scrollTo(0, 0));
  await settled(page);
  await page.screenshot({ path: path.join(ARTIFACTS, `grid-compaction-${name}.png`), fullPage: !toast });
}

/** The cells of the widest breakpoint as first stored: Todo and Bookmarks sit below a hole. */
const SEED: [string, ShownCell, Record<string, unknown>][] = [
  ["Clock", [0, 0, 5, 10], {}],
  ["Countdown", [5, 0, 5, 10], { title: "Launch", emoji: "🚀", target: "2031-06-01T09:30:00.000Z" }],
  ["Kanban", [15, 0, 9, 12], {}],
  ["Todo", [0, 20, 5, 10], {}],
  ["Editor", [5, 10, 10, 15], {}],
  ["Bookmark", [0, 40, 5, 10], { bookmarks: [{ id: "b1", title: "Router", url: "http://127.0.0.6/" }] }],
];

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  // Each change is a version of its own (the restore below picks one).
  app = await startApp({ env: { HISTORY_FOLD_SECONDS: "0" } });
  const person = await app.person({ context: { viewport: { width: 1440, height: 1000 } } });
  page = person.page;
  api = person.api;
  page.on("pageerror", (error) => pageErrors.push(error.message));
  page.on("request", (request) => {
    if (request.url().includes("/api/widgets") && ["PUT", "PATCH"].includes(request.method()))
      writes.push(`${request.method()} ${request.url()}`);
  });
  settingsId = (await api("GET", "/api/settings")).body[0].id;
  const board = await person.board(
    "Compact",
    SEED.map(([widgetType, [x, y, w, h], config]) => ({
      widgetType,
      positionX: x * 60,
      positionY: y * 20,
      width: w * 60,
      height: h * 20,
      config,
    })),
  );
  boardId = board.id;
  await page.goto(`${app.baseUrl}/d/${boardId}`);
  await page.getByRole("heading", { name: "Compact", level: 1 }).waitFor();
  await widget("Bookmark").waitFor();
}, 300_000);

afterAll(() => app?.stop());

describe("a dashboard stored with holes", () => {
  it(
    "is shown compacted, and nothing is written just by looking at it",
    async () => {
      await expect
        .poll(() => shownCells(page))
        .toEqual({
          Clock: [0, 0, 5, 10],
          Countdown: [5, 0, 5, 10],
          Kanban: [15, 0, 9, 12],
          Todo: [0, 10, 5, 10],
          Editor: [5, 10, 10, 15],
          Bookmark: [0, 20, 5, 10],
        });
      await shot("1440-light");
      await page.reload();
      await widget("Bookmark").waitFor();
      // The stored hole is still there: only an edit stores the layout.
      expect(storedCells(await stored()).Todo).toEqual([0, 20, 5, 10]);
      expect(writes).toEqual([]);
    },
    STEP,
  );
});

describe("removing a widget", () => {
  it(
    "closes its hole, stores the layout without holes, and its toast's Undo puts it back",
    async () => {
      await page.getByRole("button", { name: "Edit layout" }).click();
      await page.getByRole("button", { name: "Remove Countdown" }).click();
      // The notes below the countdown slide up into its place.
      await expect.poll(async () => (await shownCells(page)).Editor).toEqual([5, 0, 10, 15]);
      const toast = toasts().getByRole("status").filter({ hasText: "Countdown removed" });
      await toast.getByRole("button", { name: "Undo" }).waitFor();
      await shot("1440-removed-toast", { toast: true });
      await waitForSaved(page);
      const after = storedCells(await stored());
      expect(after.Countdown).toBeUndefined();
      // Stored as shown: the first edit also closed the holes the dashboard was stored with.
      expect(after).toEqual(await shownCells(page));
      expect(after.Todo).toEqual([0, 10, 5, 10]);
      expect(floating(after)).toEqual([]);

      await toast.getByRole("button", { name: "Undo" }).click();
      await expect.poll(async () => (await shownCells(page)).Countdown).toEqual([5, 0, 5, 10]);
      expect((await shownCells(page)).Editor).toEqual([5, 10, 10, 15]);
      await waitForSaved(page);
      const back = await stored();
      expect(storedCells(back).Countdown).toEqual([5, 0, 5, 10]);
      expect(storedCells(back).Editor).toEqual([5, 10, 10, 15]);
      expect(back.find((w) => w.widgetType === "Countdown")!.config).toMatchObject({ title: "Launch" });
      expect(overlapping(storedBoxes(back))).toBeNull();

      await page.reload();
      await widget("Countdown").waitFor();
      expect(await shownCells(page)).toEqual(storedCells(await stored()));
    },
    STEP,
  );

  it(
    "from the keyboard: the focus goes to the toast's Undo, and from there to the widget back in place",
    async () => {
      const before = await shownCells(page);
      await page.getByRole("button", { name: "Remove Bookmarks" }).focus();
      await page.keyboard.press("Enter");
      const undo = toasts().getByRole("status").filter({ hasText: "Bookmarks removed" }).getByRole("button", {
        name: "Undo",
      });
      await expect.poll(() => undo.evaluate((el) => el === document.activeElement)).toBe(true);
      // Announced: the toast is a status in a polite live region.
      expect(await toasts().getAttribute("aria-live")).toBe("polite");
      await page.keyboard.press("Enter");
      await expect.poll(async () => (await shownCells(page)).Bookmark).toEqual(before.Bookmark);
      const grip = widget("Bookmark").getByRole("button", { name: /^Move Bookmarks/ });
      await expect.poll(() => grip.evaluate((el) => el === document.activeElement)).toBe(true);
      await expect.poll(async () => storedCells(await stored())).toEqual(before);
    },
    STEP,
  );
});

describe("moving a widget", () => {
  it(
    "away by pointer: the widgets below slide up, on screen and stored",
    async () => {
      const column = (await page.locator(".grid-wrap").boundingBox())!.width / 24;
      // The todo list goes to the right edge, below the Kanban board; the bookmarks below it rise.
      await dragBy(page, widget("Todo").locator(".widget-title"), column * 19, 60);
      await waitForSaved(page);
      const shown = await shownCells(page);
      expect(shown.Todo).toEqual([19, 12, 5, 10]);
      expect(shown.Bookmark).toEqual([0, 10, 5, 10]);
      expect(floating(shown)).toEqual([]);
      await page.reload();
      await widget("Todo").waitFor();
      expect(storedCells(await stored())).toEqual(shown);
      expect(await shownCells(page)).toEqual(shown);
    },
    STEP,
  );

  it(
    "by keyboard: Down passes the widget below, Up passes it back, each announced",
    async () => {
      const grip = widget("Clock").getByRole("button", { name: /^Move Clock/ });
      await grip.focus();
      await page.keyboard.press("ArrowDown");
      await expect
        .poll(() => announcer().textContent())
        .toBe("Clock moved: column 1, row 11, 5 columns by 10 rows. Moved up: Bookmarks.");
      expect(await shownCells(page)).toMatchObject({ Bookmark: [0, 0, 5, 10], Clock: [0, 10, 5, 10] });
      // At the bottom of its column it cannot go further down.
      await page.keyboard.press("ArrowDown");
      await expect.poll(() => announcer().textContent()).toBe("Clock can't go further that way.");
      await page.keyboard.press("ArrowUp");
      await expect
        .poll(() => announcer().textContent())
        .toBe("Clock moved: column 1, row 1, 5 columns by 10 rows. Moved out of the way: Bookmarks.");
      expect(await grip.evaluate((el) => el === document.activeElement)).toBe(true);
      await waitForSaved(page);
      const after = storedCells(await stored());
      expect(after).toMatchObject({ Clock: [0, 0, 5, 10], Bookmark: [0, 10, 5, 10] });
      expect(floating(after)).toEqual([]);
    },
    STEP,
  );
});

describe("on a phone", () => {
  it(
    "closes the hole in the phone layout too, and stores it there (light and dark)",
    async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await expect.poll(() => page.locator(".grid-wrap").getAttribute("data-breakpoint")).toBe("sm");
      // A keyboard move arranges the phone layout; then a removal closes up in it.
      await widget("Editor")
        .getByRole("button", { name: /^Move Notes/ })
        .press("ArrowUp");
      await waitForSaved(page);
      await page.getByRole("button", { name: "Remove Kanban" }).click();
      await toasts().getByRole("status").filter({ hasText: "Kanban removed" }).waitFor();
      await shot("390-light-removed", { toast: true });
      expect(await axeBlocking(page)).toEqual([]);
      await waitForSaved(page);
      const phone = Object.fromEntries(
        (await stored()).map((w) => {
          const { x, y, w: cols, h } = w.config.layout.sm;
          return [w.widgetType, [x, y, cols, h] as ShownCell];
        }),
      );
      expect(phone).toEqual(await shownCells(page));
      expect(floating(phone)).toEqual([]);
      await shot("390-light");

      await setTheme("dark");
      await widget("Clock").getByRole("button", { name: "Remove Clock" }).focus();
      await page.keyboard.press("Enter");
      const undo = toasts().getByRole("status").filter({ hasText: "Clock removed" }).getByRole("button", {
        name: "Undo",
      });
      await expect.poll(() => undo.evaluate((el) => el === document.activeElement)).toBe(true);
      await expect.poll(async () => floating(await shownCells(page))).toEqual([]);
      await shot("390-dark-removed", { toast: true });
      expect(await axeBlocking(page)).toEqual([]);
      await page.keyboard.press("Enter");
      await expect.poll(async () => (await shownCells(page)).Clock?.[1]).toBe(0);
      await waitForSaved(page);
      await shot("390-dark");

      await page.setViewportSize({ width: 1440, height: 1000 });
      await expect.poll(() => page.locator(".grid-wrap").getAttribute("data-breakpoint")).toBe("xl");
      expect(floating(await shownCells(page))).toEqual([]);
      expect(floating(storedCells(await stored()))).toEqual([]);
      await shot("1440-dark");
      await setTheme("light");
    },
    STEP,
  );
});

describe("a restored version", () => {
  it(
    "is undone from the toolbar's Undo, the same as from its toast",
    async () => {
      await widget("Clock").waitFor();
      const now = (await stored()).map((w) => w.widgetType).sort();
      await page.locator(".switcher-button").click();
      await page.getByRole("button", { name: "History…" }).click();
      const dialog = page.getByRole("dialog", { name: "History of “Compact”" });
      const versions = dialog.getByRole("list", { name: "Versions" }).getByRole("button");
      // The latest version that still had the Kanban board (six widgets).
      await expect.poll(() => versions.count()).toBeGreaterThan(2);
      expect(await versions.first().textContent()).toContain("5 widgets");
      await versions.filter({ hasText: "6 widgets" }).first().click();
      await dialog.getByRole("button", { name: "Restore this version…" }).click();
      await dialog.getByRole("button", { name: "Restore", exact: true }).click();
      await dialog.waitFor({ state: "detached" });
      await widget("Kanban").waitFor();
      expect((await stored()).length).toBe(6);
      expect(floating(await shownCells(page))).toEqual([]);
      await toasts().getByRole("status").filter({ hasText: "Restored" }).waitFor();

      expect(await toolbarUndo().isEnabled()).toBe(true);
      expect(await toolbarUndo().getAttribute("title")).toBe("Undo restoring a version (Ctrl+Z)");
      await shot("1440-restored");
      await toolbarUndo().click();
      await expect.poll(async () => (await stored()).map((w) => w.widgetType).sort()).toEqual(now);
      await expect.poll(() => page.locator("[data-widget-type]").count()).toBe(now.length);
      // Nothing from before the restore is left to undo: its widgets were all replaced.
      expect(await toolbarUndo().isDisabled()).toBe(true);
      expect(floating(await shownCells(page))).toEqual([]);
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );
});
