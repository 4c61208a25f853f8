import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeExchange, startFakeExchange } from "../test/fakes/exchange.js";
import { FakeGoogle } from "../test/fakes/google.js";
import { type OidcServer, startOidcServer } from "../test/fakes/oauth-oidc.js";
import { eventually, pageApi } from "./support/page-helpers.js";
import {
  type E2eApp,
  exchangeEnv,
  freePort,
  oauthThrough,
  providersEnv,
  startApp,
} from "./support/web-app.js";

/**
 * The alert options of the widget settings panels (issue 16) in Chromium: each is set through the
 * UI and read back through the API, the way the server's scheduler will read it. The browser runs
 * in New York, so the Todo due time proves the wall-clock conversion is not UTC's. Meetings and
 * Inbox need a connected Google account: it is connected through the fake OAuth server, as a
 * person would. Steps share one page and run in order.
 */

const ARTIFACTS = path.resolve("test-results", "alert-settings");
const STEP = 60_000;

let app: E2eApp;
let baseUrl: string;
let op: OidcServer;
let google: FakeGoogle;
let exchange: FakeExchange;
let browser: Browser;
let page: Page;
let boardId = "";
const pageErrors: string[] = [];
const email = `alerts-${Date.now()}@example.test`;

const api = pageApi(
  () => page,
  () => baseUrl,
);
const widget = (type: string): Locator => page.locator(`[data-widget-type="${type}"]`);

async function configOf(type: string): Promise<Record<string, any>> {
  const res = await api("GET", `/api/widgets?dashboardId=${boardId}`);
  return res.body.find((w: any) => w.widgetType === type).config;
}

/** Waits for the saved config to satisfy `check`: saves go out in the background. */
function savedConfig(type: string, check: (config: Record<string, any>) => boolean, what: string) {
  return eventually(() => configOf(type), check, what);
}

async function openPanel(name: string) {
  await page.getByRole("button", { name: `${name} settings` }).click();
  return page.getByRole("dialog", { name: `${name} settings` });
}

async function addWidget(widgetType: string, positionX: number, config: object, height = 420) {
  const res = await api("POST", "/api/widgets", {
    dashboardId: boardId,
    widgetType,
    positionX,
    positionY: 0,
    width: 360,
    height,
    config,
  });
  expect(res.status).toBe(201);
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  op = await startOidcServer({
    suite: { redirectUris: [`${baseUrl}/api/auth/callback/suite`], clientAuth: "client_secret_post" },
  });
  [google, exchange] = await Promise.all([
    FakeGoogle.start({ authorize: (token) => op.validAccessToken(token) }),
    startFakeExchange(),
  ]);
  app = await startApp({
    port,
    env: {
      ...providersEnv({
        GOOGLE: oauthThrough(op, "suite", { userInfoUrl: `${op.issuer}/me`, apiUrl: google.url }),
      }),
      ...exchangeEnv(exchange.exchange),
    },
  });

  browser = app.browser;
  const context = await browser.newContext({
    viewport: { width: 1500, height: 1100 },
    // Not UTC, and not the server's zone: a due time typed at 09:30 here is 14:30 UTC in December.
    timezoneId: "America/New_York",
    locale: "en-GB",
  });
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.on("pageerror", (error) => pageErrors.push(error.message));

  const signUp = await api("POST", "/api/auth/sign-up/email", {
    name: "Ada Lovelace",
    email,
    password: "a-long-enough-password",
  });
  expect(signUp.status).toBe(200);
  op.nextLogin = { sub: `sub-${signUp.body.user.id}`, email, name: "Ada Lovelace" };
  const settings = await api("GET", "/api/settings");
  await api("PUT", "/api/settings", {
    id: settings.body[0].id,
    onboardingCompleted: true,
    config: { theme: "light" },
  });
  boardId = (await api("POST", "/api/dashboards", { name: "Alerts" })).body.id;
  await addWidget("Countdown", 0, { title: "Launch" });
  await addWidget("Todo", 380, {
    todos: [{ id: "t1", text: "Pay rent", done: false, createdAt: "2026-01-01T00:00:00.000Z" }],
  });
  await addWidget("Crypto", 760, { pairs: ["BTC-USD", "ETH-USD"] });
  await page.goto(`${baseUrl}/d/${boardId}`);
  await page.getByRole("heading", { name: "Alerts", level: 1 }).waitFor();
}, 300_000);

afterAll(async () => {
  await app?.stop();
  await Promise.all([google?.server.close(), exchange?.close()]);
  await op?.close();
});

describe("alert options in the widget settings panels", () => {
  it(
    "Countdown: the notify toggle waits for a date, then saves `notify`; off leaves the key out",
    async () => {
      let panel = await openPanel("Countdown");
      const toggle = panel.getByRole("checkbox", { name: "Notify me when it ends" });
      expect(await toggle.isDisabled()).toBe(true);
      await panel.getByText("Set a date first.").waitFor();
      await panel.getByText(/^Arrives in the bell, and as a push notification/).waitFor();
      await panel.getByLabel("Date and time").fill("2030-06-01T12:00");
      expect(await toggle.isDisabled()).toBe(false);
      await toggle.check();
      await panel.getByRole("button", { name: "Save" }).click();
      const saved = await savedConfig("Countdown", (c) => c.notify === true, "notify on");
      expect(saved.target).toBe("2030-06-01T16:00:00.000Z");

      panel = await openPanel("Countdown");
      await panel.getByRole("checkbox", { name: "Notify me when it ends" }).uncheck();
      await panel.getByRole("button", { name: "Save" }).click();
      await savedConfig("Countdown", (c) => !("notify" in c), "notify left out");
    },
    STEP,
  );

  it(
    "Todo: a due time set on the row round-trips in the browser's zone, shows overdue, and clears",
    async () => {
      const todo = widget("Todo");
      const row = todo.locator(".todo-row", { hasText: "Pay rent" });
      await row.hover();
      await todo.getByRole("button", { name: "Set due time of Pay rent" }).click();
      const input = todo.getByLabel("Due time of Pay rent", { exact: true });
      // Opened on request: the input has the focus, the hint says which zone.
      expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);
      await todo.getByText(/In America\/New York time\./).waitFor();
      await input.fill("2030-12-01T09:30");
      await todo.screenshot({ path: path.join(ARTIFACTS, "todo-widget-due-editor.png") });
      await todo.getByRole("button", { name: "Done" }).click();
      await savedConfig("Todo", (c) => c.todos[0].dueAt === "2030-12-01T14:30:00.000Z", "dueAt in UTC");
      await expect.poll(() => row.locator(".todo-due").textContent()).toMatch(/1 Dec 2030 09:30$/);

      // After a reload the input shows the same wall time again.
      await page.reload();
      await row.waitFor();
      await row.hover();
      await todo.getByRole("button", { name: "Change due time of Pay rent" }).click();
      expect(await todo.getByLabel("Due time of Pay rent", { exact: true }).inputValue()).toBe(
        "2030-12-01T09:30",
      );

      // In the past and still open: overdue.
      await todo.getByLabel("Due time of Pay rent", { exact: true }).fill("2020-01-02T08:00");
      await page.keyboard.press("Escape");
      await expect.poll(() => row.locator(".todo-due").getAttribute("class")).toContain("is-overdue");
      // Escape closes the editor and gives the focus back to the row's clock button.
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
        .toBe("Change due time of Pay rent");
      await savedConfig("Todo", (c) => c.todos[0].dueAt === "2020-01-02T13:00:00.000Z", "a past dueAt");
      await page.mouse.move(0, 0);
      await todo.screenshot({ path: path.join(ARTIFACTS, "todo-widget-overdue.png") });

      // Cleared from the settings panel: the key goes.
      const panel = await openPanel("Todo");
      expect(await panel.getByLabel("Due time of Pay rent", { exact: true }).inputValue()).toBe(
        "2020-01-02T08:00",
      );
      await panel.getByRole("button", { name: "Clear due time of Pay rent" }).click();
      expect(await panel.getByLabel("Due time of Pay rent", { exact: true }).inputValue()).toBe("");
      await panel.getByRole("button", { name: "Save" }).click();
      await savedConfig(
        "Todo",
        (c) => c.todos[0].text === "Pay rent" && !("dueAt" in c.todos[0]),
        "no dueAt",
      );
      expect(await row.locator(".todo-due").count()).toBe(0);
    },
    STEP,
  );

  it(
    "Todo: with a zone in the app settings, due times are typed and shown on that zone's clock",
    async () => {
      const settings = await api("GET", "/api/settings");
      await api("PUT", "/api/settings", {
        id: settings.body[0].id,
        config: { ...settings.body[0].config, timezone: "Europe/Berlin" },
      });
      await page.reload();
      const panel = await openPanel("Todo");
      await panel.getByLabel("Due time of Pay rent", { exact: true }).fill("2030-12-01T09:30");
      await panel.getByText(/Due times are in Europe\/Berlin time\./).waitFor();
      await panel.getByRole("button", { name: "Save" }).click();
      await savedConfig("Todo", (c) => c.todos[0].dueAt === "2030-12-01T08:30:00.000Z", "dueAt from Berlin");
      await expect.poll(() => widget("Todo").locator(".todo-due").textContent()).toMatch(/1 Dec 2030 09:30$/);
      await api("PUT", "/api/settings", { id: settings.body[0].id, config: settings.body[0].config });
      await page.reload();
      await widget("Todo").locator(".todo-due").waitFor();
    },
    STEP,
  );

  it(
    "Crypto: adds price alerts for the widget's pairs, refuses a bad price, removes one",
    async () => {
      const panel = await openPanel("Crypto");
      await panel.getByText("No alerts yet.").waitFor();
      const price = panel.getByLabel("Alert price in USD");
      const add = panel.getByRole("button", { name: "Add alert" });
      expect(await add.isDisabled()).toBe(true);
      await price.fill("-5");
      await panel.getByText("Enter a price above 0, like 65000 or 0.42.").waitFor();
      expect(await add.isDisabled()).toBe(true);
      expect(await price.getAttribute("aria-invalid")).toBe("true");

      await price.fill("50,000");
      await panel.getByLabel("Alert direction").selectOption({ label: "falls below" });
      await add.click();
      await panel.getByLabel("Alert pair").selectOption("ETH-USD");
      await panel.getByLabel("Alert direction").selectOption({ label: "rises above" });
      await price.fill("4000.5");
      // Enter adds the alert; it does not save and close the panel.
      await price.press("Enter");
      await panel.getByText("Price alerts (2 of at most 20)").waitFor();
      await panel.getByText("US$4,000.5").waitFor();
      expect(await price.inputValue()).toBe("");
      await panel.getByRole("button", { name: /^Remove alert: BTC-USD falls below/ }).click();
      await panel.getByText("Price alerts (1 of at most 20)").waitFor();
      await panel.getByLabel("Alert pair").selectOption("BTC-USD");
      await price.fill("70000");
      await add.click();
      await panel.locator(".crypto-alert").nth(1).waitFor();
      await panel.getByRole("button", { name: "Save" }).click();
      const saved = await savedConfig("Crypto", (c) => c.alerts?.length === 2, "two alerts");
      expect(saved.alerts.map(({ id, ...rest }: any) => rest)).toEqual([
        { pair: "ETH-USD", direction: "above", price: 4000.5 },
        { pair: "BTC-USD", direction: "above", price: 70000 },
      ]);
      expect(saved.alerts.every((a: any) => typeof a.id === "string" && a.id.length > 0)).toBe(true);
      expect(saved.pairs).toEqual(["BTC-USD", "ETH-USD"]);
    },
    STEP,
  );

  it(
    "connects Google for the Meetings and Inbox panels",
    async () => {
      await addWidget("Meetings", 0, {}, 300);
      await addWidget("Inbox", 380, {}, 300);
      await page.reload();
      await page.getByRole("button", { name: "Settings", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Settings", exact: true });
      await dialog.getByRole("tab", { name: "Connections" }).click();
      await dialog.getByRole("link", { name: "Connect Google" }).click();
      await page.locator(".toast", { hasText: "Google is connected" }).waitFor({ timeout: 20_000 });
      await page.waitForURL(`${baseUrl}/d/${boardId}`);
    },
    STEP,
  );

  it(
    "Meetings: the reminder select saves whole minutes, Off leaves the key out, calendars are kept",
    async () => {
      let panel = await openPanel("Meetings");
      const remind = panel.getByLabel("Remind me");
      await remind.waitFor({ timeout: 20_000 });
      expect(await remind.inputValue()).toBe("");
      expect(await remind.locator("option").allTextContents()).toEqual([
        "Off",
        "5 minutes before",
        "10 minutes before",
        "15 minutes before",
        "30 minutes before",
        "1 hour before",
      ]);
      // One calendar unticked first: the reminder must not undo it, nor it the reminder.
      const boxes = panel.locator(".check-list input[type=checkbox]");
      expect(await boxes.count()).toBeGreaterThan(1);
      await boxes.last().uncheck();
      await remind.selectOption("15");
      await panel.getByRole("button", { name: "Save" }).click();
      const saved = await savedConfig("Meetings", (c) => c.remindMinutesBefore === 15, "15 minutes before");
      expect(Array.isArray(saved.calendars)).toBe(true);

      panel = await openPanel("Meetings");
      await panel.getByLabel("Remind me").selectOption("");
      await panel.getByRole("button", { name: "Save" }).click();
      const off = await savedConfig("Meetings", (c) => !("remindMinutesBefore" in c), "reminder off");
      expect(off.calendars).toEqual(saved.calendars);
    },
    STEP,
  );

  it(
    "Inbox: the new-mail toggle saves `notifyNewMail` and keeps the labels",
    async () => {
      const panel = await openPanel("Inbox");
      const toggle = panel.getByRole("checkbox", { name: "Notify me of new mail" });
      await toggle.waitFor({ timeout: 20_000 });
      expect(await toggle.isChecked()).toBe(false);
      await toggle.check();
      await panel.getByRole("button", { name: "Save" }).click();
      const saved = await savedConfig("Inbox", (c) => c.notifyNewMail === true, "notifyNewMail on");
      expect(saved.labels).toEqual(["INBOX"]);
    },
    STEP,
  );

  it(
    "the server, not the tab, sends a countdown's reminder: it arrives live in the bell",
    async () => {
      const widgets = await api("GET", `/api/widgets?dashboardId=${boardId}`);
      const countdown = widgets.body.find((w: any) => w.widgetType === "Countdown");
      const target = new Date(Date.now() + 2000).toISOString();
      const res = await api("PUT", "/api/widgets", {
        id: countdown.id,
        config: { ...countdown.config, target, notify: true },
      });
      expect(res.status).toBe(200);
      await page.locator(".toast", { hasText: "Launch has ended" }).waitFor({ timeout: 20_000 });
      const list = await api("GET", "/api/notifications");
      expect(list.body.filter((n: any) => n.message.includes("Launch has ended"))).toHaveLength(1);
    },
    STEP,
  );

  it(
    "every panel, light and dark, for a look",
    async () => {
      const settings = await api("GET", "/api/settings");
      for (const theme of ["light", "dark"]) {
        await api("PUT", "/api/settings", {
          id: settings.body[0].id,
          config: { ...settings.body[0].config, theme },
        });
        await page.reload();
        await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
        for (const name of ["Countdown", "Todo", "Crypto", "Meetings", "Inbox"]) {
          const panel = await openPanel(name);
          await panel
            .getByText(/Arrives in the bell/)
            .first()
            .waitFor({ timeout: 20_000 });
          await panel.screenshot({ path: path.join(ARTIFACTS, `${name.toLowerCase()}-${theme}.png`) });
          await panel.getByRole("button", { name: "Cancel" }).click();
          await panel.waitFor({ state: "detached" });
        }
        const todo = widget("Todo");
        await todo.locator(".todo-row").first().hover();
        await todo.getByRole("button", { name: /due time of Pay rent$/ }).click();
        await todo.screenshot({ path: path.join(ARTIFACTS, `todo-widget-editor-${theme}.png`) });
        await page.keyboard.press("Escape");
        await todo.locator(".todo-due-edit").waitFor({ state: "detached" });
        await page.mouse.move(0, 0);
        await page.screenshot({ path: path.join(ARTIFACTS, `dashboard-${theme}.png`) });
      }
      expect(pageErrors).toEqual([]);
    },
    STEP * 2,
  );
});
