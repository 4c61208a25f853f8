import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inScheme, stylesSettled } from "./support/page-helpers.js";
import { type E2eApp, type Person, startApp } from "./support/web-app.js";

/**
 * Widget templates (DESIGN section 16) in Chromium against the built app: a widget exported from
 * its settings as a `.tessera.widget` file (no secret, no integration id), imported back from the
 * picker, a bad file refused in words, and the picker's bundled templates.
 */
const ARTIFACTS = path.resolve("test-results");
const STEP = 60_000;
const SECRET_FEED = "https://calendar.example.test/ical/private-5f3a9e/basic.ics";

let app: E2eApp;
let baseUrl: string;
let page: Page;
let api: Person["api"];
let boardId = "";
const pageErrors: string[] = [];

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  app = await startApp();
  baseUrl = app.baseUrl;
  // The first account is the admin: an instance integration on the home network is theirs to make.
  const ines = await app.person({
    name: "Ines",
    // The screenshots follow the system's scheme, light then dark.
    settings: { theme: "system" },
    context: { viewport: { width: 1440, height: 900 }, locale: "en-GB", acceptDownloads: true },
  });
  page = ines.page;
  api = ines.api;
  page.on("pageerror", (error) => pageErrors.push(error.message));
  const integration = await api("POST", "/api/integrations", {
    kind: "ical",
    name: "Family cloud",
    url: "http://127.0.0.1:9/remote.php/dav/calendars/ines/family?export",
    owner: "instance",
    allowPrivate: true,
    secrets: { username: "ines", password: "app-password-9c1f" },
  });
  expect(integration.status, JSON.stringify(integration.body)).toBe(201);
  const board = await ines.board("Home", [
    {
      widgetType: "Calendar",
      width: 400,
      height: 300,
      config: {
        sources: [
          { id: "family", name: "Family", integrationId: integration.body.id },
          { id: "school", name: "School", url: SECRET_FEED },
        ],
        days: 14,
      },
    },
  ]);
  boardId = board.id;
}, 300_000);

afterAll(() => app?.stop());

const calendarCards = () => page.locator('[data-widget-type="Calendar"]');

describe("widget files and templates", () => {
  let exported = "";

  it(
    "exports a widget from its settings without a secret or an integration id",
    async () => {
      await page.goto(`${baseUrl}/d/${boardId}`);
      await expect.poll(() => calendarCards().count()).toBe(1);
      await calendarCards().first().getByRole("button", { name: "Calendar settings" }).click();
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Export as file" }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/\.tessera\.widget$/);
      exported = path.join(ARTIFACTS, "calendar.tessera.widget");
      await download.saveAs(exported);
      const text = readFileSync(exported, "utf8");
      const file = JSON.parse(text);
      expect(file).toMatchObject({
        format: "tessera.widget",
        version: 1,
        widget: { widgetType: "Calendar", config: { days: 14 } },
        integration: { kind: "ical", name: "Family cloud", secretNames: ["password", "username"] },
      });
      expect(text).not.toContain("private-5f3a9e");
      expect(text).not.toContain("app-password");
      expect(text).not.toContain("integrationId");
      await page.keyboard.press("Escape");
    },
    STEP,
  );

  it(
    "imports the file from the picker, and refuses a file that is not one in words",
    async () => {
      await page.getByRole("button", { name: "Add widget" }).first().click();
      await page.getByTestId("widget-file-input").setInputFiles(exported);
      await expect.poll(() => calendarCards().count()).toBe(2);
      await expect
        .poll(() => page.getByText(/it used the integration “Family cloud” \(ical\)/).count())
        .toBe(1);

      const bad = path.join(ARTIFACTS, "not-a-widget.tessera.widget");
      writeFileSync(bad, "this is not json");
      await page.getByRole("button", { name: "Add widget" }).first().click();
      await page.getByTestId("widget-file-input").setInputFiles(bad);
      await expect
        .poll(() => page.getByText("This file is not JSON: a widget file ends in .tessera.widget.").count())
        .toBe(1);
      expect(await calendarCards().count()).toBe(2);
    },
    STEP,
  );

  it(
    "offers the bundled templates, and one becomes a Custom API widget",
    async () => {
      const picker = page.getByRole("dialog", { name: "Add a widget" });
      if (!(await picker.isVisible())) await page.getByRole("button", { name: "Add widget" }).first().click();
      const templates = picker.locator(".picker-template");
      await expect.poll(() => templates.count()).toBeGreaterThanOrEqual(15);
      for (const scheme of ["light", "dark"] as const) {
        await inScheme(page, scheme);
        if (!(await picker.isVisible()))
          await page.getByRole("button", { name: "Add widget" }).first().click();
        await picker.locator(".picker-templates").scrollIntoViewIfNeeded();
        await stylesSettled(page);
        await page.screenshot({ path: path.join(ARTIFACTS, `widget-templates-1440-${scheme}.png`) });
        await page.setViewportSize({ width: 390, height: 844 });
        await picker.locator(".picker-templates").scrollIntoViewIfNeeded();
        await stylesSettled(page);
        await page.screenshot({ path: path.join(ARTIFACTS, `widget-templates-390-${scheme}.png`) });
        await page.setViewportSize({ width: 1440, height: 900 });
      }
      const first = templates.first();
      const name = (await first.locator("strong").innerText()).trim();
      await first.click();
      await expect.poll(() => page.locator('[data-widget-type="Custom API"]').count()).toBe(1);
      const stored = await api("GET", `/api/widgets?dashboardId=${boardId}`);
      const custom = stored.body.find((w: { widgetType: string }) => w.widgetType === "Custom API");
      expect(custom.config.fields.length, name).toBeGreaterThan(0);
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );

  it(
    "shows the admin what happened in the audit log",
    async () => {
      await page.goto(`${baseUrl}/admin`);
      const section = page.getByRole("region", { name: "Audit log" });
      await expect.poll(() => section.getByText("Added an integration").count()).toBe(1);
      expect(await section.getByText("Family cloud").count()).toBeGreaterThan(0);
      for (const [width, scheme] of [
        [1440, "light"],
        [390, "dark"],
      ] as const) {
        await page.setViewportSize({ width, height: 900 });
        await inScheme(page, scheme);
        await section.scrollIntoViewIfNeeded();
        await stylesSettled(page);
        // Nothing sideways on a phone: long entries wrap in their cell.
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
          true,
        );
        await section.screenshot({ path: path.join(ARTIFACTS, `audit-log-${width}-${scheme}.png`) });
      }
    },
    STEP,
  );
});
