import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForSaved } from "./support/grid-helpers.js";
import { pageApi } from "./support/page-helpers.js";
import { type E2eApp, startApp } from "./support/web-app.js";

/**
 * Bookmark icons from the bundled set (Simple Icons, served by our server) in Chromium: the
 * picker searched and used by keyboard only, the icon on the widget in light and dark, and on
 * the public page; and not one request from the browser to another host.
 */

const ARTIFACTS = path.resolve("test-results");
const STEP = 60_000;

let app: E2eApp;
let baseUrl: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let boardId = "";
const pageErrors: string[] = [];
/** Every URL any page of the test asked for, to find requests to other hosts. */
const requested: string[] = [];
const email = `icons-${Date.now()}@example.test`;

const api = pageApi(
  () => page,
  () => baseUrl,
);
const bookmarks = (on: Page = page): Locator => on.locator('[data-widget-type="Bookmark"]');

/** Records every request, and refuses those to other hosts (the test then fails on them). */
async function watchTraffic(target: BrowserContext) {
  target.on("request", (request) => requested.push(request.url()));
  await target.route(
    (url) => url.hostname !== "127.0.0.1",
    (route) => route.abort("blockedbyclient"),
  );
}

async function setTheme(theme: "light" | "dark") {
  const settings = await api("GET", "/api/settings");
  await api("PUT", "/api/settings", {
    id: settings.body[0].id,
    config: { ...settings.body[0].config, theme },
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  app = await startApp();
  baseUrl = app.baseUrl;
  browser = app.browser;
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-GB" });
  await watchTraffic(context);
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.on("pageerror", (error) => pageErrors.push(error.message));
  await page.goto(`${baseUrl}/signin`);

  const signUp = await api("POST", "/api/auth/sign-up/email", {
    name: "Ada",
    email,
    password: "a-long-enough-password",
  });
  expect(signUp.status).toBe(200);
  const settings = await api("GET", "/api/settings");
  await api("PUT", "/api/settings", {
    id: settings.body[0].id,
    onboardingCompleted: true,
    config: { theme: "light", todoReminder: false, countdownReminder: false },
  });
  boardId = (await api("POST", "/api/dashboards", { name: "Home lab" })).body.id;
  const widget = await api("POST", "/api/widgets", {
    dashboardId: boardId,
    widgetType: "Bookmark",
    positionX: 0,
    positionY: 0,
    width: 360,
    height: 300,
    config: {
      bookmarks: [
        { id: "b1", title: "Media", url: "http://jellyfin.home.lan:8096/" },
        { id: "b2", title: "Hypervisor", url: "https://192.168.1.2:8006/" },
        { id: "b3", title: "Notes", url: "http://notes.home.lan/" },
      ],
    },
  });
  expect(widget.status).toBe(201);
  await page.goto(`${baseUrl}/d/${boardId}`);
  await page.getByRole("heading", { name: "Home lab", level: 1 }).waitFor();
}, 300_000);

afterAll(() => app?.stop());

describe("bundled bookmark icons", () => {
  it(
    "picks Jellyfin and Proxmox in the settings by keyboard only, and shows them on the widget",
    async () => {
      // No bookmark has a bundled icon yet: nothing of the set has been asked for.
      expect(requested.filter((u) => u.includes("/api/icons/bundled"))).toEqual([]);
      const open = bookmarks().getByRole("button", { name: "Bookmarks settings" });
      await open.focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "Bookmarks settings" });
      await dialog.getByRole("button", { name: "Save" }).waitFor();

      // The first row's icon button opens the picker; the search box takes the focus.
      await dialog.getByRole("button", { name: /^Icon for Media/ }).focus();
      await page.keyboard.press("Enter");
      const search = dialog.getByRole("combobox", { name: "Search icons for Media" });
      await expect.poll(() => search.evaluate((e) => e === document.activeElement)).toBe(true);
      const list = dialog.getByRole("listbox", { name: "Icons for Media" });
      // Before typing: "Site icon" (the current choice), then the icon the host names.
      await list.locator('[data-icon="si:jellyfin"]').waitFor();
      expect(await list.getByRole("option").allTextContents()).toEqual([
        "Site icon(current)",
        "JellyfinSuggested",
      ]);
      await dialog.screenshot({ path: path.join(ARTIFACTS, "icons-picker-suggested.png") });

      // Typing searches the set; arrows move through the results; Enter picks.
      await page.keyboard.type("jelly");
      await expect.poll(() => list.getByRole("option").nth(1).getAttribute("data-icon")).toBe("si:jellyfin");
      await expect
        .poll(() => list.locator('[aria-selected="true"]').getAttribute("data-icon"))
        .toBe("si:jellyfin");
      expect(await search.getAttribute("aria-activedescendant")).toBe(
        await list.getByRole("option").nth(1).getAttribute("id"),
      );
      await dialog.screenshot({ path: path.join(ARTIFACTS, "icons-picker-search.png") });
      await page.keyboard.press("ArrowUp");
      expect(await list.locator('[aria-selected="true"]').getAttribute("data-icon")).toBe("site");
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Enter");
      // The picker closes, focus is back on the row's icon button, which now names the icon.
      await list.waitFor({ state: "detached" });
      const choice = dialog.getByRole("button", { name: "Icon for Media: Jellyfin. Change" });
      await expect.poll(() => choice.evaluate((e) => e === document.activeElement)).toBe(true);
      expect(await dialog.isVisible()).toBe(true);

      // Escape closes a picker without picking, and not the dialog around it.
      await dialog.getByRole("button", { name: /^Icon for Notes/ }).focus();
      await page.keyboard.press("Enter");
      await dialog.getByRole("combobox", { name: "Search icons for Notes" }).waitFor();
      await page.keyboard.press("Escape");
      await dialog.getByRole("combobox", { name: "Search icons for Notes" }).waitFor({ state: "detached" });
      expect(await dialog.isVisible()).toBe(true);
      expect(await dialog.getByRole("button", { name: /^Icon for Notes: site icon/ }).count()).toBe(1);

      // The second bookmark (an IP address, so no suggestion) gets Proxmox by search, with Enter
      // pressed before the search has answered: it waits for the answer to what was typed.
      await dialog.getByRole("button", { name: /^Icon for Hypervisor/ }).focus();
      await page.keyboard.press("Enter");
      await dialog.getByRole("combobox", { name: "Search icons for Hypervisor" }).waitFor();
      await page.keyboard.type("proxmox");
      await page.keyboard.press("Enter");
      await dialog.getByRole("listbox", { name: "Icons for Hypervisor" }).waitFor({ state: "detached" });
      await dialog.getByRole("button", { name: "Icon for Hypervisor: Proxmox. Change" }).waitFor();

      await dialog.getByRole("button", { name: "Save" }).click();
      await dialog.waitFor({ state: "detached" });
      await waitForSaved(page);
      const stored = await api("GET", `/api/widgets?dashboardId=${boardId}`);
      expect(stored.body[0].config.bookmarks.map((b: { icon?: string }) => b.icon)).toEqual([
        "si:jellyfin",
        "si:proxmox",
        undefined,
      ]);

      // The widget draws the chosen icons as inline SVG; the third keeps its site icon or initial.
      const rows = bookmarks().locator(".bookmark-row");
      await rows.nth(0).locator(".bookmark-glyph svg path").waitFor();
      await rows.nth(1).locator(".bookmark-glyph svg path").waitFor();
      expect(
        await rows
          .nth(0)
          .locator(".bookmark-glyph")
          .evaluate((e) => getComputedStyle(e).backgroundColor),
      ).toBe("rgb(0, 164, 220)");
      expect(await rows.nth(2).locator(".bookmark-glyph").count()).toBe(0);
      await bookmarks().screenshot({ path: path.join(ARTIFACTS, "icons-widget-light.png") });
    },
    STEP,
  );

  it(
    "shows the icons in the dark theme, and on the public page to visitors without a session",
    async () => {
      await setTheme("dark");
      await bookmarks().locator(".bookmark-row").nth(0).locator(".bookmark-glyph svg path").waitFor();
      await bookmarks().locator(".bookmark-row").nth(1).locator(".bookmark-glyph svg path").waitFor();
      await bookmarks().screenshot({ path: path.join(ARTIFACTS, "icons-widget-dark.png") });
      await setTheme("light");

      expect(
        (await api("PUT", "/api/dashboards", { id: boardId, name: "Home lab", isPublic: true })).status,
      ).toBe(200);
      const visitor = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-GB" });
      await watchTraffic(visitor);
      try {
        const guest = await visitor.newPage();
        await guest.goto(`${baseUrl}/p/${boardId}`);
        await guest.getByRole("heading", { name: "Home lab", level: 1 }).waitFor();
        await bookmarks(guest).locator(".bookmark-row").nth(0).locator(".bookmark-glyph svg path").waitFor();
        expect(await bookmarks(guest).locator(".bookmark-glyph svg").count()).toBe(2);
      } finally {
        await visitor.close();
      }
    },
    STEP,
  );

  it("sent no request from the browser to any other host, and threw no page error", () => {
    const elsewhere = requested.filter((url) => new URL(url).hostname !== "127.0.0.1");
    expect(elsewhere).toEqual([]);
    // The icons came from our server, one request per icon shown (then the browser's cache).
    expect(requested.some((u) => u.endsWith("/api/icons/bundled/jellyfin"))).toBe(true);
    expect(pageErrors).toEqual([]);
  });
});
