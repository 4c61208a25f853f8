import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StatusSite, startStatusSite } from "../src/widgets/status/fake.js";
import { eventually, pageApi } from "./support/page-helpers.js";
import { type E2eApp, startApp } from "./support/web-app.js";

/**
 * The Status widget in Chromium: added from the picker, two local sites added in its settings,
 * the server's watch pass (every 2 s here) checks them, Up and Down on screen.
 */

const ARTIFACTS = path.resolve("test-results");
const STEP = 60_000;

let app: E2eApp;
let baseUrl: string;
let browser: Browser;
let page: Page;
let up: StatusSite;
let down: StatusSite;
let boardId = "";
const pageErrors: string[] = [];

const api = pageApi(
  () => page,
  () => baseUrl,
);

/** Resolves once a watch pass that began after this call recorded every target of the board's widget. */
async function pass() {
  const after = Date.now();
  const [widget] = (await api("GET", `/api/widgets?dashboardId=${boardId}`)).body;
  await eventually(
    () => api("GET", `/api/status?widgetId=${widget.id}`),
    (r) => r.status === 200 && r.body.every((t: any) => t.state && Date.parse(t.state.checkedAt) >= after),
    "a watch pass over every target",
    20_000,
  );
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  [up, down] = await Promise.all([startStatusSite(200), startStatusSite(503)]);
  // The sites live on loopback, which a user's address may reach only when the operator allows it.
  app = await startApp({ env: { FETCH_ALLOW_PRIVATE: "127.0.0.1/32", ALERTS_WATCH_SECONDS: "2" } });
  baseUrl = app.baseUrl;
  browser = app.browser;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-GB" });
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.on("pageerror", (error) => pageErrors.push(error.message));
  await page.goto(baseUrl);
  const signUp = await api("POST", "/api/auth/sign-up/email", {
    name: "Grace Hopper",
    email: `status-${Date.now()}@example.test`,
    password: "a-long-enough-password",
  });
  expect(signUp.status).toBe(200);
  const settings = await api("GET", "/api/settings");
  await api("PUT", "/api/settings", {
    id: settings.body[0].id,
    onboardingCompleted: true,
    config: { theme: "light" },
  });
  boardId = (await api("POST", "/api/dashboards", { name: "Homelab" })).body.id;
  await page.goto(`${baseUrl}/d/${boardId}`);
  await page.getByRole("heading", { name: "Homelab", level: 1 }).waitFor();
}, 300_000);

afterAll(async () => {
  await app?.stop();
  await Promise.all([up?.stop(), down?.stop()]);
});

describe("the Status widget in the browser", () => {
  it(
    "is added empty, takes two addresses in its settings, and shows Up and Down after a pass",
    async () => {
      await page.getByRole("button", { name: "Add widget" }).first().click();
      await page.getByRole("button", { name: /^Add Status:/ }).click();
      const widget = page.locator('[data-widget-type="Status"]');
      await widget.getByText("Add the addresses to check").waitFor();

      await widget.getByRole("button", { name: "Add addresses" }).click();
      const panel = page.getByRole("dialog", { name: "Status settings" });
      for (const [i, [name, site]] of (
        [
          ["Media server", up],
          ["Backup NAS", down],
        ] as const
      ).entries()) {
        await panel.getByRole("button", { name: "Add address" }).click();
        await panel.getByLabel("Name").nth(i).fill(name);
        await panel.getByLabel("Address to check").nth(i).fill(site.url.replace("http://", ""));
      }
      await panel.getByRole("checkbox", { name: /Notify me/ }).check();
      await panel.getByRole("button", { name: "Save" }).click();
      // Both rows show at once: "Not checked yet" until a pass (every 2 s) has checked them.
      await expect.poll(() => widget.locator(".status-target").count()).toBe(2);

      // The pass reads what the server stored: the save must have landed first.
      await eventually(
        () => api("GET", `/api/widgets?dashboardId=${boardId}`),
        (r) => r.body[0]?.config.checks?.length === 2 && r.body[0].config.notify === true,
        "the saved checks",
      );
      await pass();
      await widget.getByRole("button", { name: "Refresh the checks" }).click();
      const row = (name: string) => widget.locator(".status-target", { hasText: name });
      await row("Media server").getByText("Up", { exact: true }).waitFor();
      await row("Backup NAS").getByText("Down", { exact: true }).waitFor();
      expect(await row("Media server").locator(".status-meta").textContent()).toMatch(
        /^\d+ ms · since just now$/,
      );
      expect(await row("Backup NAS").locator(".status-meta").textContent()).toBe("HTTP 503 · since just now");
      // The word is there for screen readers and anyone who can't tell the colours apart.
      expect(await row("Backup NAS").locator(".status-badge svg").count()).toBe(1);
      expect(up.requests).toContain("HEAD /");

      await page.mouse.move(0, 0);
      await widget.screenshot({ path: path.join(ARTIFACTS, "status-light.png") });
      await page.screenshot({ path: path.join(ARTIFACTS, "status-page-light.png") });
      const settings = await api("GET", "/api/settings");
      await api("PUT", "/api/settings", {
        id: settings.body[0].id,
        config: { ...settings.body[0].config, theme: "dark" },
      });
      await page.reload();
      await row("Backup NAS").getByText("Down", { exact: true }).waitFor();
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
      await page.mouse.move(0, 0);
      await widget.screenshot({ path: path.join(ARTIFACTS, "status-dark.png") });
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );

  it(
    "shows a private address as not allowed, with the hint about FETCH_ALLOW_PRIVATE",
    async () => {
      const [stored] = (await api("GET", `/api/widgets?dashboardId=${boardId}`)).body;
      const checks = [...stored.config.checks, { id: "lan", name: "Router", url: "http://192.168.1.1/" }];
      const saved = await api("PUT", "/api/widgets", {
        id: stored.id,
        config: { ...stored.config, checks },
      });
      expect(saved.status).toBe(200);
      await pass();
      await page.reload();
      const widget = page.locator('[data-widget-type="Status"]');
      const router = widget.locator(".status-target", { hasText: "Router" });
      await router.getByText("Not allowed", { exact: true }).waitFor();
      expect(await widget.locator(".status-hint").textContent()).toContain("FETCH_ALLOW_PRIVATE");
      await page.mouse.move(0, 0);
      await widget.screenshot({ path: path.join(ARTIFACTS, "status-not-allowed-dark.png") });
    },
    STEP,
  );
});
