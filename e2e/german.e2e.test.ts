import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inEnglish, inGerman } from "./support/catalog.js";
import { pageApi } from "./support/page-helpers.js";
import { type E2eApp, startApp } from "./support/web-app.js";

/**
 * The main flow in German, as a reader whose browser asks for German gets it: sign-up,
 * onboarding, a dashboard with widgets, light and dark (screenshots), and a switch to English in
 * the settings that applies at once, without a reload. The words are read from the catalogs, so
 * the test follows a rewording and fails on an English leftover.
 */

const ARTIFACTS = path.resolve("test-results");

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

let app: E2eApp;
let baseUrl: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];
const api = pageApi(
  () => page,
  () => baseUrl,
);

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  app = await startApp();
  baseUrl = app.baseUrl;
  browser = app.browser;
  context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    locale: "de-DE",
    timezoneId: "Europe/Berlin",
    colorScheme: "light",
  });
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.on("pageerror", (error) => pageErrors.push(error.message));
}, 300_000);

afterAll(() => app?.stop());

describe("Tessera in German", () => {
  it("signs up and onboards in the browser's language", async () => {
    await page.goto(`${baseUrl}/signup`);
    const create = page.getByRole("button", { name: inGerman("auth.createAccount") });
    await create.waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("de");

    // A refusal made in the browser is German too.
    await page.getByLabel(inGerman("common.name")).fill("Greta Weber");
    await page.getByLabel(inGerman("auth.email"), { exact: true }).fill("greta@example.test");
    await page.getByLabel(inGerman("auth.password"), { exact: true }).fill("kurz");
    await create.click();
    await page.getByText(inGerman("errors.auth.password_too_short")).first().waitFor();

    await page.getByLabel(inGerman("auth.password"), { exact: true }).fill("ein-ausreichend-langes-passwort");
    await create.click();
    await page
      .getByRole("dialog", { name: inGerman("onboarding.welcome.title", { name: "Greta" }) })
      .waitFor();
    await page.getByText(inGerman("onboarding.step", { step: 1, total: 3 })).waitFor();
    await page.getByRole("button", { name: inGerman("common.next") }).click();
    const name = page.getByLabel(inGerman("onboarding.dashboard.nameLabel"));
    expect(await name.inputValue()).toBe(inGerman("onboarding.defaultName"));
    await page.getByRole("button", { name: inGerman("onboarding.createAndContinue") }).click();
    await page.getByRole("button", { name: inGerman("onboarding.getStarted") }).click();
    await page.getByRole("heading", { name: inGerman("onboarding.defaultName"), level: 1 }).waitFor();
    await expect.poll(() => page.getByRole("dialog").count()).toBe(0);
  });

  it("builds a dashboard of widgets with German names, words and dates (screenshots light and dark)", async () => {
    for (const type of ["clock", "countdown", "todo", "bookmark"]) {
      await page
        .getByRole("button", { name: inGerman("dashboard.addWidget") })
        .first()
        .click();
      const picker = page.getByRole("dialog", { name: inGerman("picker.title") });
      const widgetName = inGerman(`widgets.${type}.name`);
      await picker
        .getByRole("button", {
          name: new RegExp(
            `^${escapeRegExp(inGerman("picker.addLabel", { name: widgetName, description: "" }))}`,
          ),
        })
        .click();
      await expect.poll(() => picker.count()).toBe(0);
    }
    await expect.poll(() => page.locator("[data-widget-type]").count()).toBe(4);
    const text = await page.locator("main").innerText();
    // English leftovers a German reader would notice first.
    for (const english of [inEnglish("dashboard.addWidget"), inEnglish("header.settings"), "Loading"]) {
      expect(text).not.toContain(english);
    }
    await page.screenshot({ path: path.join(ARTIFACTS, "german-dashboard-light.png"), fullPage: true });

    const settings = await api("GET", "/api/settings");
    await api("PUT", "/api/settings", {
      id: settings.body[0].id,
      config: { ...settings.body[0].config, theme: "dark" },
    });
    await page.reload();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    await expect.poll(() => page.locator("[data-widget-type]").count()).toBe(4);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("de");
    await page.screenshot({ path: path.join(ARTIFACTS, "german-dashboard-dark.png"), fullPage: true });
  });

  it("switches to English in the settings at once, without a reload, and keeps the choice", async () => {
    // A mark on the window: a reload would lose it.
    await page.evaluate(() => {
      (window as { stillThisPage?: boolean }).stillThisPage = true;
    });
    await page
      .getByRole("button", { name: inGerman("header.settings") })
      .first()
      .click();
    const dialog = page.getByRole("dialog", { name: inGerman("settings.title") });
    await dialog.getByLabel(inGerman("settings.language.label")).selectOption("en");
    await page.getByRole("dialog", { name: inEnglish("settings.title") }).waitFor();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe("en");
    expect(await page.evaluate(() => (window as { stillThisPage?: boolean }).stillThisPage)).toBe(true);
    await expect
      .poll(async () => ((await api("GET", "/api/settings")).body[0].config as { locale?: string }).locale)
      .toBe("en");
    await page.keyboard.press("Escape");
    await page
      .getByRole("button", { name: inEnglish("dashboard.addWidget") })
      .first()
      .waitFor();

    // The choice outlives the browser's language: a reload stays English.
    await page.reload();
    await page
      .getByRole("button", { name: inEnglish("dashboard.addWidget") })
      .first()
      .waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("en");
    expect(pageErrors).toEqual([]);
  });
});
