import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DARK_PAGE, LIGHT_PAGE, legibleOn, parseHex, readableTextOn } from "../src/web/lib/look.js";
import { pageApi, stylesSettled } from "./support/page-helpers.js";
import { type E2eApp, startApp } from "./support/web-app.js";

/**
 * A dashboard's personal look (DESIGN section 13) in Chromium: set through the Look… dialog
 * (a bad colour refused in the form), applied to the dashboard (computed styles), in light and
 * dark, and on its public page for a visitor. The background image is served by a route of the
 * browser context, so nothing leaves the machine.
 */

const ARTIFACTS = path.resolve("test-results");
const STEP = 60_000;
const ACCENT = "#e8590c";
const rgbOf = (hex: string) => `rgb(${parseHex(hex)!.join(", ")})`;
const BACKGROUND = "https://images.example.test/wall.svg";

/** A bright, busy picture: the worst case for text drawn over it. */
const WALL = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1000" viewBox="0 0 1600 1000">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
<stop offset="0" stop-color="#ffd43b"/><stop offset="0.5" stop-color="#ff6b6b"/><stop offset="1" stop-color="#4dabf7"/>
</linearGradient></defs>
<rect width="1600" height="1000" fill="url(#g)"/>
<circle cx="300" cy="250" r="220" fill="#ffffff" opacity="0.55"/>
<circle cx="1250" cy="700" r="320" fill="#1c1c1c" opacity="0.35"/>
<path d="M0 800 L400 500 L800 850 L1200 450 L1600 780 L1600 1000 L0 1000 Z" fill="#2b8a3e" opacity="0.7"/>
</svg>`;

let app: E2eApp;
let baseUrl: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let boardId = "";
const pageErrors: string[] = [];
const wallRequests: string[] = [];
const email = `look-${Date.now()}@example.test`;

const api = pageApi(
  () => page,
  () => baseUrl,
);

/** Serves the wallpaper; every other host is refused. */
async function serveWall(target: BrowserContext) {
  await target.route(
    (url) => url.hostname !== "127.0.0.1",
    (route) => {
      if (route.request().url() === BACKGROUND) {
        wallRequests.push(route.request().url());
        return route.fulfill({ status: 200, contentType: "image/svg+xml", body: WALL });
      }
      return route.abort("blockedbyclient");
    },
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

/** What the look does to the dashboard: its accent, a primary button, the background and the scrim. */
async function applied(on: Page) {
  await stylesSettled(on);
  return on.evaluate(() => {
    const section = document.querySelector<HTMLElement>("section.dashboard")!;
    const style = getComputedStyle(section);
    const primary = section.querySelector<HTMLElement>(".button.primary");
    const toolbar = getComputedStyle(section.querySelector(".dashboard-toolbar")!);
    const card = section.querySelector<HTMLElement>(".widget-card");
    return {
      accent: style.getPropertyValue("--accent").trim(),
      contrast: style.getPropertyValue("--accent-contrast").trim(),
      backgroundImage: style.backgroundImage,
      primaryBackground: primary ? getComputedStyle(primary).backgroundColor : null,
      primaryColor: primary ? getComputedStyle(primary).color : null,
      toolbarBackground: toolbar.backgroundColor,
      cardBackground: card ? getComputedStyle(card).backgroundColor : null,
      height: section.getBoundingClientRect().height,
    };
  });
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  app = await startApp();
  baseUrl = app.baseUrl;
  browser = app.browser;
  context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-GB" });
  await serveWall(context);
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
  for (const [i, widgetType] of (["Clock", "Bookmark"] as const).entries()) {
    const widget = await api("POST", "/api/widgets", {
      dashboardId: boardId,
      widgetType,
      positionX: i * 380,
      positionY: 0,
      width: 360,
      height: 260,
      config:
        widgetType === "Bookmark"
          ? { bookmarks: [{ id: "b1", title: "Media", url: "http://jellyfin.home.lan:8096/" }] }
          : {},
    });
    expect(widget.status).toBe(201);
  }
  await page.goto(`${baseUrl}/d/${boardId}`);
  await page.getByRole("heading", { name: "Home lab", level: 1 }).waitFor();
}, 300_000);

afterAll(() => app?.stop());

describe("a dashboard's look", () => {
  it(
    "is set in the Look… dialog: a bad colour is refused in the form, a good one saved with the background",
    async () => {
      const before = await applied(page);
      expect(before.accent).toBe("#5b5bd6");
      expect(before.backgroundImage).toBe("none");

      await page.locator(".switcher-button").click();
      await page.getByRole("button", { name: "Look…" }).click();
      const dialog = page.getByRole("dialog", { name: "Look of “Home lab”" });
      await dialog.waitFor();

      const accent = dialog.getByLabel("Accent colour", { exact: true });
      await accent.fill("red");
      await dialog.getByLabel("Background image").fill("javascript:alert(1)");
      await dialog.getByRole("button", { name: "Save" }).click();
      await dialog.getByText("Enter a colour as #rgb or #rrggbb").waitFor();
      await dialog.getByText(/^Enter a web address that starts with http/).waitFor();
      expect((await api("GET", `/api/dashboards?id=${boardId}`)).body[0].look).toEqual({});

      await accent.fill(ACCENT);
      await dialog.getByLabel("Background image").fill(BACKGROUND);
      // The colour picker follows the text field, and the preview shows both before saving.
      expect(await dialog.getByLabel("Pick the accent colour").inputValue()).toBe(ACCENT);
      const swatch = dialog.locator(".look-preview-swatch");
      await expect
        .poll(() => swatch.evaluate((e) => getComputedStyle(e).backgroundColor))
        .toBe(rgbOf(legibleOn(ACCENT, LIGHT_PAGE)));
      await dialog.screenshot({ path: path.join(ARTIFACTS, "look-dialog.png") });

      await dialog.getByRole("button", { name: "Save" }).click();
      await dialog.waitFor({ state: "detached" });
      await page.getByText("Look saved").waitFor();
      expect((await api("GET", `/api/dashboards?id=${boardId}`)).body[0].look).toEqual({
        accent: ACCENT,
        background: BACKGROUND,
      });
    },
    STEP,
  );

  it(
    "is applied to the dashboard: accent, readable text on it, background behind opaque widgets (light and dark)",
    async () => {
      for (const theme of ["light", "dark"] as const) {
        await setTheme(theme);
        await page.locator(".widget-card").first().waitFor();
        const look = await applied(page);
        // The orange is also a text colour: 4.5:1 on the page takes a darker shade of it in
        // light theme and a lighter one in dark theme; the button text is whichever of black
        // and white reads better on that shade.
        const shade = legibleOn(ACCENT, theme === "light" ? LIGHT_PAGE : DARK_PAGE);
        expect(look.accent).toBe(shade);
        expect(look.contrast).toBe(readableTextOn(shade));
        expect(look.primaryBackground).toBe(rgbOf(shade));
        expect(look.primaryColor).toBe(rgbOf(readableTextOn(shade)!));
        expect(look.backgroundImage).toBe(`url("${BACKGROUND}")`);
        // Widgets stay opaque; the title's toolbar sits on a scrim, not on the bare picture.
        expect(look.cardBackground).toMatch(/^rgb\(/);
        expect(look.toolbarBackground).not.toBe("rgba(0, 0, 0, 0)");
        // The picture fills the page below the header.
        expect(look.height).toBeGreaterThan(700);
        await page.screenshot({ path: path.join(ARTIFACTS, `look-dashboard-${theme}.png`) });
      }
      expect(wallRequests.length).toBeGreaterThan(0);
      await setTheme("light");
    },
    STEP * 2,
  );

  it(
    "is on the public page for a visitor, light and dark",
    async () => {
      // A PUT without look leaves the look as it is.
      const shared = await api("PUT", "/api/dashboards", { id: boardId, name: "Home lab", isPublic: true });
      expect(shared.body.look).toEqual({ accent: ACCENT, background: BACKGROUND });
      for (const colorScheme of ["light", "dark"] as const) {
        const visitor = await browser.newContext({
          viewport: { width: 1280, height: 800 },
          locale: "en-GB",
          colorScheme,
        });
        await serveWall(visitor);
        const pub = await visitor.newPage();
        pub.on("pageerror", (error) => pageErrors.push(error.message));
        await pub.goto(`${baseUrl}/p/${boardId}`);
        await pub.getByRole("heading", { name: "Home lab", level: 1 }).waitFor();
        await pub.locator(".widget-card").first().waitFor();
        expect(await pub.evaluate(() => document.documentElement.dataset.theme)).toBe(colorScheme);
        const look = await applied(pub);
        expect(look.accent).toBe(legibleOn(ACCENT, colorScheme === "light" ? LIGHT_PAGE : DARK_PAGE));
        expect(look.backgroundImage).toBe(`url("${BACKGROUND}")`);
        expect(look.toolbarBackground).not.toBe("rgba(0, 0, 0, 0)");
        await pub.screenshot({ path: path.join(ARTIFACTS, `look-public-${colorScheme}.png`) });
        await visitor.close();
      }
    },
    STEP * 2,
  );

  it(
    "resets to the theme's look",
    async () => {
      await page.locator(".switcher-button").click();
      await page.getByRole("button", { name: "Look…" }).click();
      const dialog = page.getByRole("dialog", { name: "Look of “Home lab”" });
      await dialog.getByRole("button", { name: "Reset to the theme" }).click();
      await dialog.getByRole("button", { name: "Save" }).click();
      await dialog.waitFor({ state: "detached" });
      await expect.poll(async () => (await applied(page)).accent).toBe("#5b5bd6");
      expect((await applied(page)).backgroundImage).toBe("none");
      expect((await api("GET", `/api/dashboards?id=${boardId}`)).body[0].look).toEqual({});
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );
});
