import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CustomApiFake, startCustomApiFake } from "../src/widgets/custom-api/fake.js";
import { eventually } from "./support/page-helpers.js";
import { type E2eApp, type Person, startApp } from "./support/web-app.js";

/**
 * The Custom API widget in Chromium against the compiled server: an admin saves an instance
 * integration to the fake service (its secret a request header), adds the widget from the picker,
 * loads a preview, clicks two values into fields, shows a list as a table, saves, and reads the
 * values on the board. Screenshots at 390 and 1440 px, light and dark.
 */

const ARTIFACTS = path.resolve("test-results");
const STEP = 90_000;

let app: E2eApp;
let fake: CustomApiFake;
let admin: Person;
let page: Page;
let boardId = "";
const pageErrors: string[] = [];

const widget = (): Locator => page.locator('[data-widget-type="Custom API"]');

async function setTheme(theme: "light" | "dark") {
  const settings = await admin.api("GET", "/api/settings");
  await admin.api("PUT", "/api/settings", {
    id: settings.body[0].id,
    config: { ...settings.body[0].config, theme },
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
  await widget().locator(".capi-stat").first().waitFor();
  await page.mouse.move(0, 0);
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  fake = await startCustomApiFake();
  app = await startApp();
  admin = await app.person({ name: "Ada Admin", context: { viewport: { width: 1440, height: 1000 } } });
  page = admin.page;
  page.on("pageerror", (error) => pageErrors.push(error.message));
  await page.goto(app.baseUrl);
  const saved = await admin.api("POST", "/api/integrations", {
    kind: "custom",
    name: "Homelab",
    url: `${fake.url}/api`,
    owner: "instance",
    allowPrivate: true,
    secrets: { [fake.secretHeader]: fake.secret },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  boardId = (await admin.board("Homelab")).id;
  await page.goto(`${app.baseUrl}/d/${boardId}`);
  await page.getByRole("heading", { name: "Homelab", level: 1 }).waitFor();
}, 300_000);

afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

describe("the Custom API widget in the browser", () => {
  it(
    "is set up from a preview: two clicked values become fields, an array a table",
    async () => {
      await page.getByRole("button", { name: "Add widget" }).first().click();
      await page.getByRole("button", { name: /^Add Custom API:/ }).click();
      await widget().getByText("Choose a service and the values to show.").waitFor();
      await widget().getByRole("button", { name: "Set up" }).click();

      const panel = page.getByRole("dialog", { name: "Custom API settings" });
      await panel
        .getByLabel("Integration", { exact: true })
        .selectOption({ label: "Homelab (Custom API, shared)" });
      await panel.getByLabel("Path", { exact: true }).fill("/stats");
      await panel.getByRole("button", { name: "Load preview" }).click();
      const tree = panel.getByRole("list", { name: "The service's answer" });
      await tree.waitFor();

      await tree.getByRole("button", { name: /^Add field cpu\.total / }).click();
      await tree.getByRole("button", { name: /^Add field memory\.used / }).click();
      await tree.getByRole("button", { name: "Show services as a list or table" }).click();

      // The clicked values are fields with their queries and current values.
      await expect.poll(() => panel.getByLabel("JMESPath query of field 2").inputValue()).toBe("memory.used");
      expect(await panel.getByLabel("JMESPath query of field 1").inputValue()).toBe("cpu.total");
      await panel.getByText("Now: 12.5").waitFor();
      await panel.getByLabel("Label of field 1").fill("CPU");
      await panel.getByLabel("Label of field 2").fill("Memory");
      await panel.getByLabel("Format").nth(0).selectOption("percent");
      await panel.getByLabel("Format").nth(1).selectOption("bytes");
      expect(await panel.getByLabel("JMESPath query of the list").inputValue()).toBe("services");
      // The columns come from the first item's keys; the State column shows a status.
      expect(await panel.getByLabel("Label of column 2").inputValue()).toBe("State");
      await panel.getByLabel("Format").nth(3).selectOption("status");

      // A query is checked as it is typed, before anything is saved.
      const query = panel.getByLabel("JMESPath query of field 1");
      await query.fill("cpu.[");
      await panel.getByText(/^Query: is not a JMESPath expression/).waitFor();
      expect(await query.getAttribute("aria-invalid")).toBe("true");
      await query.fill("cpu.total");
      await panel.getByText("Now: 12.5%").waitFor();

      await page.mouse.move(0, 0);
      await panel.screenshot({ path: path.join(ARTIFACTS, "custom-api-settings-1440-light.png") });
      await panel.getByRole("button", { name: "Save" }).click();

      const card = widget();
      await card.getByText("12.5%").waitFor();
      await card.getByText("3 GiB").waitFor();
      const table = card.getByRole("table");
      await table.getByRole("columnheader", { name: "Name" }).waitFor();
      expect(await table.getByRole("row").count()).toBe(4);
      await table.getByRole("row", { name: /web/ }).getByText("running").waitFor();

      const stored = await eventually(
        () => admin.api("GET", `/api/widgets?dashboardId=${boardId}`),
        (r) => r.body[0]?.config.fields?.length === 2,
        "the saved fields",
      );
      expect(stored.body[0].config).toMatchObject({
        path: "/stats",
        display: "table",
        fields: [
          { label: "CPU", query: "cpu.total", format: "percent" },
          { label: "Memory", query: "memory.used", format: "bytes" },
        ],
        list: { query: "services" },
      });
      // The server called the service with the secret; the browser never got it.
      expect(
        fake.requests
          .filter((r) => r.path === "/api/stats")
          .every((r) => r.headers["x-api-key"] === fake.secret),
      ).toBe(true);
      const data = await admin.api("GET", `/api/widgets/data?id=${stored.body[0].id}`);
      expect(JSON.stringify(data.body)).not.toContain(fake.secret);
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );

  it(
    "looks right at 1440 and 390 px, light and dark",
    async () => {
      for (const theme of ["light", "dark"] as const) {
        await page.setViewportSize({ width: 1440, height: 1000 });
        await setTheme(theme);
        await widget().screenshot({ path: path.join(ARTIFACTS, `custom-api-1440-${theme}.png`) });
        await page.setViewportSize({ width: 390, height: 844 });
        await widget().locator(".capi-stat").first().waitFor();
        await page.mouse.move(0, 0);
        await widget().screenshot({ path: path.join(ARTIFACTS, `custom-api-390-${theme}.png`) });
      }
      // The settings on a phone, dark: the form, its preview tree and the fields fit the width.
      await widget().getByRole("button", { name: "Custom API settings" }).click();
      const panel = page.getByRole("dialog", { name: "Custom API settings" });
      await panel.getByRole("button", { name: "Load preview" }).click();
      await panel.getByRole("list", { name: "The service's answer" }).waitFor();
      await page.mouse.move(0, 0);
      await panel.screenshot({ path: path.join(ARTIFACTS, "custom-api-settings-390-dark.png") });
      await page.keyboard.press("Escape");
      await panel.waitFor({ state: "detached" });
      // The status column says its state in words beside the dot.
      expect(await widget().locator(".capi-status.is-bad").first().textContent()).toContain("exited");
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );

  it(
    "says clearly when the service answers HTML",
    async () => {
      await page.setViewportSize({ width: 1440, height: 1000 });
      const [stored] = (await admin.api("GET", `/api/widgets?dashboardId=${boardId}`)).body;
      const saved = await admin.api("PUT", "/api/widgets", {
        id: stored.id,
        config: { ...stored.config, path: "/page" },
      });
      expect(saved.status).toBe(200);
      await page.reload();
      await widget().getByText("The service's answer could not be used.").waitFor();
      await widget().getByText("Homelab answered 200 but not with JSON (text/html)").waitFor();
      await page.mouse.move(0, 0);
      await widget().screenshot({ path: path.join(ARTIFACTS, "custom-api-error-1440-dark.png") });
    },
    STEP,
  );
});
