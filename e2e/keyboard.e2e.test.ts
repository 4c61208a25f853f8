import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settled, waitForSaved } from "./support/grid-helpers.js";
import { pageApi } from "./support/page-helpers.js";
import { type E2eApp, startApp } from "./support/web-app.js";

/**
 * The keyboard alone, in Chromium: no mouse click anywhere. A dashboard is created from the
 * switcher, a widget added through the picker, moved and resized in Edit layout with the arrow
 * keys (announced in the live region, saved), its settings opened and closed, and the focus
 * comes back to the control that opened each dialog. Steps share one page.
 */

const ARTIFACTS = path.resolve("test-results");
const STEP = 60_000;

let app: E2eApp;
let baseUrl: string;
let browser: Browser;
let page: Page;
let boardId = "";
const pageErrors: string[] = [];
const email = `keys-${Date.now()}@example.test`;

const api = pageApi(
  () => page,
  () => baseUrl,
);

const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement);

/** What has the focus now, for failure messages. */
const focusedName = () =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el
      ? `${el.tagName.toLowerCase()} "${el.getAttribute("aria-label") ?? el.textContent?.trim()}"`
      : "none";
  });

/** Presses Tab (or Shift+Tab) until `target` has the focus: the way a keyboard user gets there. */
async function tabTo(target: Locator, { back = false, max = 60 } = {}) {
  await target.waitFor();
  for (let i = 0; i < max; i++) {
    if (await isFocused(target)) return;
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
  }
  throw new Error(`Tab never reached the target; the focus is on ${await focusedName()}`);
}

async function expectFocused(target: Locator) {
  await expect
    .poll(async () => ((await isFocused(target)) ? "focused" : await focusedName()))
    .toBe("focused");
}

async function widgetOnServer() {
  const list = (await api("GET", `/api/widgets?dashboardId=${boardId}`)).body as any[];
  return list.find((w) => w.widgetType === "Clock");
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  app = await startApp();
  baseUrl = app.baseUrl;
  browser = app.browser;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-GB" });
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.on("pageerror", (error) => pageErrors.push(error.message));
  await page.goto(`${baseUrl}/signin`);
  // The account and a first dashboard come from the API: the keyboard starts in the workspace.
  const signUp = await api("POST", "/api/auth/sign-up/email", {
    name: "Ada Lovelace",
    email,
    password: "a-long-enough-password",
  });
  expect(signUp.status).toBe(200);
  const settings = await api("GET", "/api/settings");
  await api("PUT", "/api/settings", {
    id: settings.body[0].id,
    onboardingCompleted: true,
    config: { theme: "light", todoReminder: false, countdownReminder: false, meetingReminder: false },
  });
  await api("POST", "/api/dashboards", { name: "Home" });
  await page.goto(`${baseUrl}/`);
  await page.getByRole("heading", { name: "Home", level: 1 }).waitFor();
}, 300_000);

afterAll(() => app?.stop());

describe("keyboard only", () => {
  it(
    "creates a dashboard from the switcher",
    async () => {
      const switcher = page.getByRole("button", { name: "Home", exact: true });
      await tabTo(switcher);
      await page.keyboard.press("Enter");
      const create = page.getByRole("button", { name: "New dashboard" });
      await tabTo(create);
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "New dashboard" });
      // The name field has the focus: type and submit with Enter.
      await expectFocused(dialog.getByLabel("Name"));
      await page.keyboard.type("Keyboard");
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { name: "Keyboard", level: 1 }).waitFor();
      boardId = /\/d\/([0-9a-f-]{36})$/.exec(page.url())?.[1] ?? "";
      expect(boardId).not.toBe("");
    },
    STEP,
  );

  it(
    "adds a widget through the picker, and the focus returns to the opener when it closes",
    async () => {
      const add = page.getByRole("button", { name: "Add widget" }).first();
      await tabTo(add);
      // Escape closes the picker without adding; the focus is back on "Add widget".
      await page.keyboard.press("Enter");
      const picker = page.getByRole("dialog", { name: "Add a widget" });
      await expectFocused(picker.getByRole("searchbox", { name: "Search widgets" }));
      await page.keyboard.press("Escape");
      await picker.waitFor({ state: "detached" });
      await expectFocused(add);

      await page.keyboard.press("Enter");
      await expectFocused(picker.getByRole("searchbox", { name: "Search widgets" }));
      await page.keyboard.type("clock");
      await tabTo(picker.getByRole("button", { name: /^Add Clock:/ }));
      await page.screenshot({ path: path.join(ARTIFACTS, "keyboard-picker-focus.png") });
      await page.keyboard.press("Enter");
      await page.locator('[data-widget-type="Clock"]').waitFor();
      await expect.poll(() => picker.count()).toBe(0);
      // The app hands the focus to the new widget (its settings button), not back to the opener.
      await expectFocused(page.getByRole("button", { name: "Clock settings" }));
      await expect
        .poll(async () => (await api("GET", `/api/widgets?dashboardId=${boardId}`)).body.length)
        .toBe(1);
      expect((await widgetOnServer()).widgetType).toBe("Clock");
    },
    STEP,
  );

  it(
    "moves and resizes the widget with the arrow keys, announced and saved",
    async () => {
      const before = await widgetOnServer();
      await tabTo(page.getByRole("button", { name: "Edit layout" }));
      await page.keyboard.press("Enter");
      const grip = page.getByRole("button", { name: /^Move Clock/ });
      await tabTo(grip);
      await settled(page);
      const announcer = page.getByTestId("grid-announcer");

      await page.keyboard.press("ArrowRight");
      await expect
        .poll(() => announcer.textContent())
        .toMatch(/^Clock moved: column 2, row 1, \d+ columns by \d+ rows\.$/);
      const size = /(\d+) columns by (\d+) rows/.exec((await announcer.textContent()) ?? "");
      const [columns, rows] = [Number(size?.[1]), Number(size?.[2])];
      // On its own it cannot go down: the grid keeps no holes above a widget.
      await page.keyboard.press("ArrowDown");
      await expect.poll(() => announcer.textContent()).toBe("Clock can't go further that way.");
      await page.keyboard.press("Shift+ArrowRight");
      await page.keyboard.press("Shift+ArrowDown");
      await expect
        .poll(() => announcer.textContent())
        .toBe(`Clock resized: column 2, row 1, ${columns + 1} columns by ${rows + 1} rows.`);
      // Focus stays on the handle, and it shows: a visible ring around the focused grip.
      await expectFocused(grip);
      const ring = await grip.evaluate((el) => {
        const style = getComputedStyle(el);
        return { outline: style.outlineStyle, width: style.outlineWidth, shadow: style.boxShadow };
      });
      expect(ring.outline !== "none" || ring.shadow !== "none").toBe(true);
      await page.locator('[data-widget-type="Clock"]').screenshot({
        path: path.join(ARTIFACTS, "keyboard-grip-focus.png"),
      });
      // Left at the edge: nothing moves, and the live region says so.
      await page.keyboard.press("ArrowLeft");
      await page.keyboard.press("ArrowLeft");
      await expect.poll(() => announcer.textContent()).toBe("Clock can't go further that way.");
      await page.keyboard.press("ArrowRight");
      await expect.poll(() => announcer.textContent()).toMatch(/^Clock moved: column 2, row 1, /);

      await waitForSaved(page);
      const after = await widgetOnServer();
      expect(after.positionX).toBeGreaterThan(before.positionX);
      expect(after.positionY).toBe(before.positionY);
      expect(after.width).toBeGreaterThan(before.width);
      expect(after.height).toBeGreaterThan(before.height);

      // After a reload the widget is where the keys put it.
      await page.reload();
      await page.getByRole("heading", { name: "Keyboard", level: 1 }).waitFor();
      await page.locator('[data-widget-type="Clock"]').waitFor();
      expect(await widgetOnServer()).toMatchObject({
        positionX: after.positionX,
        positionY: after.positionY,
        width: after.width,
        height: after.height,
      });
    },
    STEP,
  );

  it(
    "opens and closes the widget's settings, and the focus returns to the opener",
    async () => {
      const open = page.getByRole("button", { name: "Clock settings" });
      await tabTo(open);
      await page.screenshot({ path: path.join(ARTIFACTS, "keyboard-settings-button-focus.png") });
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "Clock settings" });
      await dialog.getByRole("button", { name: "Save" }).waitFor();
      // The focus is inside the dialog, and Tab never reaches the page behind it (a modal makes
      // that inert): past the last control it leaves for the browser's own UI (the document's
      // activeElement is then <body>) and comes back to the dialog's first control.
      const where = () =>
        dialog.evaluate((d) =>
          d.contains(document.activeElement)
            ? "dialog"
            : document.activeElement === document.body
              ? "browser"
              : "page",
        );
      await expect.poll(where).toBe("dialog");
      const seen = new Set<string>();
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press("Tab");
        seen.add(await where());
      }
      expect(seen.has("page")).toBe(false);
      expect(await where()).not.toBe("page");
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      await expectFocused(open);

      // Cancel from the keyboard closes it as well, with the same return.
      await page.keyboard.press("Enter");
      await dialog.getByRole("button", { name: "Save" }).waitFor();
      await tabTo(dialog.getByRole("button", { name: "Cancel" }));
      await page.keyboard.press("Enter");
      await dialog.waitFor({ state: "detached" });
      await expectFocused(open);

      // The app settings dialog too, opened from the top bar.
      const settings = page.getByRole("button", { name: "Settings", exact: true });
      await tabTo(settings, { back: true });
      await page.keyboard.press("Enter");
      const appSettings = page.getByRole("dialog", { name: "Settings", exact: true });
      await appSettings.getByRole("tab").first().waitFor();
      await page.keyboard.press("Escape");
      await appSettings.waitFor({ state: "detached" });
      await expectFocused(settings);
    },
    STEP,
  );

  it(
    "shows the focus ring in the dark theme, and turns motion off when the system asks",
    async () => {
      const settings = await api("GET", "/api/settings");
      await api("PUT", "/api/settings", {
        id: settings.body[0].id,
        config: { ...settings.body[0].config, theme: "dark" },
      });
      await page.reload();
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
      const open = page.getByRole("button", { name: "Clock settings" });
      await tabTo(open);
      const ring = await open.evaluate((el) => getComputedStyle(el).outlineStyle);
      expect(ring).toBe("solid");
      await page.screenshot({ path: path.join(ARTIFACTS, "keyboard-focus-dark.png") });

      // Edit layout glides widgets into place; with reduced motion nothing animates.
      /** The longest transition on the element, in seconds. */
      const longest = (selector: string) =>
        page.evaluate(
          (s) =>
            Math.max(
              ...getComputedStyle(document.querySelector(s)!)
                .transitionDuration.split(",")
                .map((d) => Number.parseFloat(d) * (d.trim().endsWith("ms") ? 0.001 : 1)),
            ),
          selector,
        );
      expect(await longest(".grid-item")).toBeGreaterThan(0.05);
      await page.emulateMedia({ reducedMotion: "reduce" });
      expect(await longest(".grid-item")).toBeLessThan(0.001);
      expect(await longest(".widget-card")).toBeLessThan(0.001);
      await page.emulateMedia({ reducedMotion: null });
    },
    STEP,
  );

  it(
    "tabs through widgets in the layout's reading order, and a keyboard move keeps the focus",
    async () => {
      // Added bottom first, then top right: the order of creation is not the order on screen.
      const add = (widgetType: string, positionX: number, positionY: number) =>
        api("POST", "/api/widgets", {
          dashboardId: boardId,
          widgetType,
          positionX,
          positionY,
          width: 240,
          height: 160,
          config: {},
        });
      expect((await add("Countdown", 0, 2000)).status).toBe(201);
      expect((await add("Todo", 720, 0)).status).toBe(201);
      await page.reload();
      await page.locator('[data-widget-type="Countdown"]').waitFor();
      const cardOrder = () =>
        page
          .locator(".grid-item [data-widget-type]")
          .evaluateAll((cards) => cards.map((card) => card.getAttribute("data-widget-type")));
      expect(await cardOrder()).toEqual(["Clock", "Todo", "Countdown"]);
      await tabTo(page.getByRole("button", { name: "Clock settings" }));
      await tabTo(page.getByRole("button", { name: "Todo settings" }));
      // Forward from Todo, Countdown's controls come next, never Clock's again.
      await tabTo(page.getByRole("button", { name: "Countdown settings" }), { max: 30 });

      // Moving Countdown above the others by keyboard reorders the cards under the focused handle.
      const edit = page.getByRole("button", { name: /Edit layout|Done/ }).first();
      if ((await edit.getAttribute("aria-pressed")) !== "true") {
        await tabTo(page.getByRole("button", { name: "Edit layout" }), { back: true });
        await page.keyboard.press("Enter");
      }
      const grip = page.getByRole("button", { name: /^Move Countdown/ });
      await tabTo(grip);
      await page.keyboard.press("ArrowUp");
      await expect.poll(async () => (await cardOrder())[0]).toBe("Countdown");
      await expectFocused(grip);
      await waitForSaved(page);
    },
    STEP,
  );

  it("threw no page error", () => {
    expect(pageErrors).toEqual([]);
  });
});
