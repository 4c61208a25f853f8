import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pageApi, stylesSettled } from "./support/page-helpers.js";
import { type E2eApp, startApp } from "./support/web-app.js";

/**
 * Export, import (by dropping a file on the dashboard list, with its preview) and the history
 * panel's restore and undo, in Chromium against the built app. Steps share one page, in order.
 */
const ARTIFACTS = path.resolve("test-results");
const STEP = 60_000;
const V1 = readFileSync(path.resolve("test/fixtures/dashboard-v1.tessera.json"), "utf8");

let app: E2eApp;
let baseUrl: string;
let browser: Browser;
let page: Page;
let boardId = "";
const pageErrors: string[] = [];
const api = pageApi(
  () => page,
  () => baseUrl,
);

async function openMenu() {
  await page.locator(".switcher-button").click();
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  // Every change is a version of its own: the history below has one per step.
  app = await startApp({ env: { HISTORY_FOLD_SECONDS: "0" } });
  baseUrl = app.baseUrl;
  browser = app.browser;
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    locale: "en-GB",
    acceptDownloads: true,
  });
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.on("pageerror", (error) => pageErrors.push(error.message));
  await page.goto(`${baseUrl}/signin`);
  const email = `port-${Date.now()}@example.test`;
  expect(
    (
      await api("POST", "/api/auth/sign-up/email", {
        name: "Grace",
        email,
        password: "a-long-enough-password",
      })
    ).status,
  ).toBe(200);
  const settings = await api("GET", "/api/settings");
  await api("PUT", "/api/settings", {
    id: settings.body[0].id,
    onboardingCompleted: true,
    config: { theme: "light" },
  });
  // One import, one version: the dashboard and its two widgets.
  const imported = await api("POST", "/api/dashboards/import", {
    format: "tessera.dashboard",
    version: 1,
    exportedAt: new Date().toISOString(),
    dashboard: { name: "Desk" },
    widgets: ["Clock", "Todo"].map((widgetType, i) => ({
      widgetType,
      height: 200,
      width: 300,
      positionX: i * 300,
      positionY: 0,
      config: {},
    })),
  });
  expect(imported.status, JSON.stringify(imported.body)).toBe(201);
  boardId = imported.body.dashboard.id;
}, 300_000);

afterAll(() => app?.stop());

describe("export, import and history in the browser", () => {
  it(
    "exports the dashboard as a .tessera.json download",
    async () => {
      await page.goto(`${baseUrl}/d/${boardId}`);
      await page.locator('[data-widget-type="Todo"]').waitFor();
      await openMenu();
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("link", { name: "Export as a file" }).click(),
      ]);
      expect(download.suggestedFilename()).toBe("Desk.tessera.json");
      const file = path.join(ARTIFACTS, "Desk.tessera.json");
      await download.saveAs(file);
      const document = JSON.parse(readFileSync(file, "utf8"));
      expect(document.widgets.map((w: { widgetType: string }) => w.widgetType)).toEqual(["Clock", "Todo"]);
    },
    STEP,
  );

  it(
    "imports a file dropped on the dashboard list after showing what it holds",
    async () => {
      await openMenu();
      const list = page.getByRole("navigation", { name: "Your dashboards" });
      const transfer = await page.evaluateHandle((text) => {
        const data = new DataTransfer();
        data.items.add(new File([text], "zuhause.tessera.json", { type: "application/json" }));
        return data;
      }, V1);
      await list.dispatchEvent("drop", { dataTransfer: transfer });
      const dialog = page.getByRole("dialog", { name: "Import a dashboard" });
      const preview = dialog.getByRole("region", { name: "What the file holds" });
      await preview.getByText("Zuhause — Übersicht 🏠").waitFor();
      await preview.getByText("5 widgets:").waitFor();
      await page.screenshot({ path: path.join(ARTIFACTS, "import-preview.png") });
      await dialog.getByRole("button", { name: "Import dashboard" }).click();
      await page.getByRole("heading", { name: "Zuhause — Übersicht 🏠", level: 1 }).waitFor();
      await expect.poll(() => page.locator("[data-widget-type]").count()).toBe(5);
    },
    STEP,
  );

  it(
    "says what is wrong with a file that will not import, and gives a second Desk a name of its own",
    async () => {
      const desk = readFileSync(path.join(ARTIFACTS, "Desk.tessera.json"), "utf8");
      const parsed = JSON.parse(desk);
      const files = {
        // A download that stopped early.
        "cut-off": desk.slice(0, Math.floor(desk.length * 0.6)),
        "unknown-type": JSON.stringify({
          ...parsed,
          widgets: [parsed.widgets[0], { ...parsed.widgets[1], widgetType: "Foo" }],
        }),
      };
      const settingsId = (await api("GET", "/api/settings")).body[0].id;
      const openImport = async () => {
        await openMenu();
        await page.getByRole("button", { name: "Import a dashboard…" }).click();
        return page.getByRole("dialog", { name: "Import a dashboard" });
      };
      const choose = (dialog: ReturnType<Page["getByRole"]>, name: string, text: string) =>
        dialog.getByLabel("Dashboard file").setInputFiles({
          name: `${name}.tessera.json`,
          mimeType: "application/json",
          buffer: Buffer.from(text),
        });
      try {
        for (const scheme of ["light", "dark"] as const) {
          await api("PUT", "/api/settings", { id: settingsId, config: { theme: scheme } });
          for (const width of [390, 1440]) {
            await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
            await page.goto(`${baseUrl}/d/${boardId}`);
            await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(scheme);
            const dialog = await openImport();
            await choose(dialog, "cut-off", files["cut-off"]);
            await dialog
              .getByText(/^This file looks cut off: its JSON stops unfinished at line 1, column \d+\./)
              .waitFor();
            await stylesSettled(page);
            await page.screenshot({ path: path.join(ARTIFACTS, `import-cut-off-${width}-${scheme}.png`) });
            await choose(dialog, "unknown-type", files["unknown-type"]);
            await dialog.getByText("This file holds a widget type this Tessera does not have").waitFor();
            await dialog
              .getByText(/^Unknown widget type “Foo” at \/widgets\/1\/widgetType\. This Tessera has: /)
              .waitFor();
            expect(await dialog.getByRole("button", { name: "Import dashboard" }).isDisabled()).toBe(true);
            await stylesSettled(page);
            await page.screenshot({
              path: path.join(ARTIFACTS, `import-unknown-type-${width}-${scheme}.png`),
            });
            await page.keyboard.press("Escape");
            await dialog.waitFor({ state: "detached" });
          }
        }
      } finally {
        await api("PUT", "/api/settings", { id: settingsId, config: { theme: "light" } });
        await page.setViewportSize({ width: 1280, height: 900 });
      }

      // The file of a dashboard the user has: the copy is "Desk (2)", so the switcher tells them apart.
      await page.goto(`${baseUrl}/d/${boardId}`);
      const dialog = await openImport();
      await choose(dialog, "Desk", desk);
      await dialog.getByRole("button", { name: "Import dashboard" }).click();
      await page.getByRole("heading", { name: "Desk (2)", level: 1 }).waitFor();
      const names = (await api<{ name: string }[]>("GET", "/api/dashboards")).body.map((d) => d.name);
      expect(names.filter((name) => name.startsWith("Desk")).sort()).toEqual(["Desk", "Desk (2)"]);
    },
    STEP * 2,
  );

  it(
    "restores an earlier version from the history panel, and undoes it",
    async () => {
      await page.goto(`${baseUrl}/d/${boardId}`);
      await page.locator('[data-widget-type="Todo"]').waitFor();
      // Each change is a version of its own here (HISTORY_FOLD_SECONDS=0).
      const todo = (await api("GET", `/api/widgets?dashboardId=${boardId}`)).body.find(
        (w: { widgetType: string }) => w.widgetType === "Todo",
      );
      expect((await api("DELETE", `/api/widgets?id=${todo.id}`)).status).toBe(200);
      await page.reload();
      await expect.poll(() => page.locator("[data-widget-type]").count()).toBe(1);

      // A second tab on the same dashboard hears of the restore over the realtime stream.
      const other = await page.context().newPage();
      await other.goto(`${baseUrl}/d/${boardId}`);
      await expect.poll(() => other.locator("[data-widget-type]").count()).toBe(1);

      await openMenu();
      await page.getByRole("button", { name: "History…" }).click();
      const dialog = page.getByRole("dialog", { name: "History of “Desk”" });
      const versions = dialog.getByRole("list", { name: "Versions" }).getByRole("button");
      await expect.poll(() => versions.count()).toBe(2);
      await versions.nth(1).click();
      await dialog.getByText("Compared with the version before:").waitFor();
      await page.screenshot({ path: path.join(ARTIFACTS, "history.png") });
      await dialog.getByRole("button", { name: "Restore this version…" }).click();
      await dialog.getByRole("button", { name: "Restore", exact: true }).click();
      await expect.poll(() => page.locator("[data-widget-type]").count()).toBe(2);
      await expect.poll(() => other.locator("[data-widget-type]").count()).toBe(2);
      await other.close();

      const toast = page
        .getByRole("region", { name: "Notifications" })
        .getByRole("status")
        .filter({ hasText: "Restored" });
      await toast.getByRole("button", { name: "Undo" }).click();
      await expect.poll(() => page.locator("[data-widget-type]").count()).toBe(1);
      const stored = (await api("GET", `/api/widgets?dashboardId=${boardId}`)).body;
      expect(stored.map((w: { widgetType: string }) => w.widgetType)).toEqual(["Clock"]);
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );
});
