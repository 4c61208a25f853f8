import { mkdirSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeBlocking } from "./support/axe.js";
import { inEnglish, inGerman } from "./support/catalog.js";
import { type E2eApp, freePort, type Person, startApp } from "./support/web-app.js";

/**
 * The tester's rough edges (issue 35), each as the person who met it meets it, in Chromium against
 * the built app: notes keep their view over a reload, onboarding tells how to move widgets, a
 * page that refuses frames is explained, errors name their service, German words where English
 * was left, a visitor's read-only todos and weather, palette commands, one tab stop a bookmark.
 * Every screen touched is photographed at 390 and 1440 px, light and dark.
 */

const ARTIFACTS = path.resolve("test-results");
const STEP = 90_000;

let app: E2eApp;
let baseUrl: string;
/** Another origin: pages for the Frame widget, one that forbids framing and one that allows it. */
let site: http.Server;
let siteUrl: string;
/** An address where nothing answers. */
let nowhere: string;
const pageErrors: string[] = [];

const widget = (page: Page, type: string): Locator => page.locator(`[data-widget-type="${type}"]`);

/**
 * Screenshots of the page (or one element) at 390 and 1440 px in the light and the dark theme.
 * People here follow the system's theme, so the emulated colour scheme switches it at once.
 */
async function photograph(page: Page, name: string, target?: () => Locator, reload = false) {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      // The public page reads the system's theme when it loads, with no settings to follow.
      if (reload) await page.reload({ waitUntil: "networkidle" });
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(scheme);
      // The grid lays out again at the new width before anything is taken.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const file = path.join(ARTIFACTS, `rough-${name}-${width}-${scheme}.png`);
      if (target) await target().screenshot({ path: file });
      else await page.screenshot({ path: file, fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function person(options: Parameters<E2eApp["person"]>[0] = {}): Promise<Person> {
  const someone = await app.person({ ...options, settings: { theme: "system", ...options.settings } });
  someone.page.on("pageerror", (error) => pageErrors.push(error.message));
  return someone;
}

async function openBoard(page: Page, id: string, name: string) {
  await page.goto(`${baseUrl}/d/${id}`);
  await page.getByRole("heading", { name, level: 1 }).waitFor();
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  site = http.createServer((req, res) => {
    res.setHeader("content-type", "text/html");
    if (req.url === "/deny") res.setHeader("x-frame-options", "DENY");
    if (req.url === "/ancestors") res.setHeader("content-security-policy", "frame-ancestors 'none'");
    res.end(`<!doctype html><title>Site</title><p id="page">A page at ${req.url}</p>`);
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  // Nothing answers there: the place search and the prices fail as when their services are down.
  nowhere = `http://127.0.0.1:${await freePort()}`;
  app = await startApp({
    env: {
      FETCH_ALLOW_PRIVATE: "127.0.0.1/32",
      GEOCODING_API_URL: nowhere,
      WEATHER_API_URL: nowhere,
      EXCHANGE_URL: nowhere,
    },
  });
  baseUrl = app.baseUrl;
}, 300_000);

afterAll(async () => {
  await app?.stop();
  await new Promise((resolve) => site?.close(resolve));
  expect(pageErrors).toEqual([]);
});

describe("the rough edges a daily user met", () => {
  it(
    "onboarding says that widgets move once Edit layout is on",
    async () => {
      const { page, api } = await person({ name: "Nina New", onboarding: true });
      await page.goto(baseUrl);
      await page
        .getByRole("dialog", { name: inEnglish("onboarding.welcome.title", { name: "Nina" }) })
        .waitFor();
      await page.getByRole("button", { name: inEnglish("common.next") }).click();
      await page.getByRole("button", { name: inEnglish("onboarding.createAndContinue") }).click();
      const tips = page.getByRole("dialog", { name: inEnglish("onboarding.tips.title") });
      await tips.waitFor();
      const text = await tips.innerText();
      expect(text).toContain(inEnglish("onboarding.tips.drag.text"));
      // It names the switch it depends on, as the toolbar spells it.
      expect(inEnglish("onboarding.tips.drag.text")).toContain(inEnglish("dashboard.edit.editLayout"));
      expect(inGerman("onboarding.tips.drag.text")).toContain(inGerman("dashboard.edit.editLayout"));
      await photograph(page, "onboarding-tips");
      await page.getByRole("button", { name: inEnglish("onboarding.getStarted") }).click();
      await expect.poll(() => page.getByRole("dialog").count()).toBe(0);
      // And the switch is there, where the tip says, once there is a widget to move.
      await page.waitForURL(/\/d\//);
      const dashboardId = new URL(page.url()).pathname.split("/").pop();
      const clock = { dashboardId, widgetType: "Clock", positionX: 0, positionY: 0, width: 300, height: 200 };
      expect((await api("POST", "/api/widgets", clock)).status).toBe(201);
      await page.reload();
      await page.getByRole("button", { name: inEnglish("dashboard.edit.editLayout") }).waitFor();
    },
    STEP,
  );

  it(
    "notes stay rendered after a reload, remembered on this device, never in the shared config",
    async () => {
      const { page, api, board } = await person({ name: "Otto Notes" });
      const { id, widgets } = await board("Notes", [
        {
          widgetType: "Editor",
          width: 600,
          height: 400,
          config: {
            notes: [{ id: "n1", title: "Trip", markdown: "# Packing\n\n- **boots**\n- map", updatedAt: "" }],
          },
        },
      ]);
      const widgetId = widgets[0].id as string;
      const before = (await api("GET", `/api/widgets?dashboardId=${id}`)).body[0];
      await openBoard(page, id, "Notes");
      const notes = widget(page, "Editor");
      await notes.getByRole("textbox", { name: inEnglish("widgets.editor.text") }).waitFor();
      await notes.getByRole("button", { name: inEnglish("widgets.editor.preview") }).click();
      await notes.locator(".markdown strong").waitFor();

      await page.reload();
      await notes.locator(".markdown strong").waitFor();
      expect(
        await notes
          .getByRole("button", { name: inEnglish("widgets.editor.preview") })
          .getAttribute("aria-pressed"),
      ).toBe("true");
      expect(await notes.getByRole("textbox", { name: inEnglish("widgets.editor.text") }).count()).toBe(0);
      expect(await page.evaluate((key) => localStorage.getItem(key), `tessera:notes-view:${widgetId}`)).toBe(
        "rendered",
      );
      // Nothing was written for it: the config others share is as it was.
      const after = (await api("GET", `/api/widgets?dashboardId=${id}`)).body[0];
      expect(after.config).toEqual(before.config);
      expect(after.updatedAt).toBe(before.updatedAt);
      await photograph(page, "notes-rendered", () => notes);

      await notes.getByRole("button", { name: inEnglish("common.edit"), exact: true }).click();
      await page.reload();
      await notes.getByRole("textbox", { name: inEnglish("widgets.editor.text") }).waitFor();
      expect(await notes.locator(".markdown").count()).toBe(0);
    },
    STEP,
  );

  it(
    "explains a page that refuses to be framed, in words, with a link to open it",
    async () => {
      const { page, board } = await person({ name: "Frida Frame" });
      const { id } = await board("Frames", [
        {
          widgetType: "Frame",
          positionX: 0,
          positionY: 0,
          width: 480,
          height: 340,
          config: { url: `${siteUrl}/deny` },
        },
        {
          widgetType: "Frame",
          positionX: 500,
          positionY: 0,
          width: 480,
          height: 340,
          config: { url: `${siteUrl}/ancestors`, title: "Ancestors" },
        },
        {
          widgetType: "Frame",
          positionX: 0,
          positionY: 360,
          width: 480,
          height: 340,
          config: { url: `${siteUrl}/fine`, title: "Fine" },
        },
        {
          widgetType: "Frame",
          positionX: 500,
          positionY: 360,
          width: 480,
          height: 340,
          config: { url: `${nowhere}/`, title: "Down" },
        },
      ]);
      await openBoard(page, id, "Frames");
      const frames = widget(page, "Frame");
      const host = new URL(siteUrl).host;
      const refused = frames.filter({ hasText: inEnglish("widgets.frame.blocked.title", { host }) });
      await expect.poll(() => refused.count()).toBe(2);
      await refused.filter({ hasText: inEnglish("widgets.frame.blocked.xFrameOptions") }).waitFor();
      await refused.filter({ hasText: inEnglish("widgets.frame.blocked.frameAncestors") }).waitFor();
      const open = refused
        .first()
        .getByRole("link", { name: inEnglish("widgets.frame.blocked.open", { host }) });
      expect(await open.getAttribute("href")).toMatch(new RegExp(`^${siteUrl}/(deny|ancestors)$`));
      expect(await open.getAttribute("target")).toBe("_blank");
      expect(await refused.locator("iframe").count()).toBe(0);
      // The owner may pick another page from there.
      await refused
        .first()
        .getByRole("button", { name: inEnglish("widgets.frame.blocked.change") })
        .click();
      await page.getByRole("dialog").waitFor();
      await page.keyboard.press("Escape");
      // A page that allows it is shown as before.
      const fine = frames.filter({ hasText: "Fine" }).frameLocator("iframe").locator("#page");
      await expect.poll(() => fine.textContent()).toBe("A page at /fine");
      // One the server cannot reach is still tried (the browser may reach it), with a word why it may stay empty.
      const down = frames.filter({ hasText: "Down" });
      await down.getByText(inEnglish("widgets.frame.unreachable", { host: new URL(nowhere).host })).waitFor();
      expect(await down.locator("iframe").count()).toBe(1);
      expect(await axeBlocking(page)).toEqual([]);
      await photograph(page, "frame-refused");
    },
    STEP,
  );

  it(
    "names the service an error comes from, not 'the service behind this'",
    async () => {
      const { page, board } = await person({ name: "Wanda Weather" });
      const { id } = await board("Weather", [{ widgetType: "Weather", width: 480, height: 360, config: {} }]);
      await openBoard(page, id, "Weather");
      const weather = widget(page, "Weather");
      await weather
        .getByRole("searchbox", { name: inEnglish("widgets.weather.search.label") })
        .fill("Berlin");
      const failure = weather.getByRole("alert");
      await failure.waitFor({ timeout: 20_000 });
      const text = await failure.innerText();
      expect(text).toContain("Open-Meteo");
      expect(text).not.toContain("service behind this");
      await photograph(page, "weather-search-error", () => weather);
    },
    STEP,
  );

  it(
    "speaks German on Crypto's timeframes and a new Kanban board's columns",
    async () => {
      const { page, api, board } = await person({ name: "Greta Weber", context: { locale: "de-DE" } });
      const { id } = await board("Brett", [
        { widgetType: "Crypto", width: 520, height: 320, config: { pairs: ["BTC-USD"], timeframe: "1w" } },
      ]);
      await openBoard(page, id, "Brett");
      const crypto = widget(page, "Crypto");
      const buttons = crypto.locator(".crypto-timeframes button");
      await buttons.first().waitFor();
      expect(await buttons.allInnerTexts()).toEqual(
        ["hour", "day", "week", "month", "months3", "months6", "year"].map((k) =>
          inGerman(`widgets.crypto.timeframeShort.${k}`),
        ),
      );
      expect(await buttons.allInnerTexts()).not.toContain("1Y");

      await page
        .getByRole("button", { name: inGerman("dashboard.addWidget") })
        .first()
        .click();
      const picker = page.getByRole("dialog", { name: inGerman("picker.title") });
      const kanbanName = inGerman("widgets.kanban.name");
      await picker
        .getByRole("button", {
          name: new RegExp(`^${inGerman("picker.addLabel", { name: kanbanName, description: "" })}`),
        })
        .click();
      await expect.poll(() => picker.count()).toBe(0);
      const kanban = widget(page, "Kanban");
      await kanban.locator(".kanban-column").first().waitFor();
      const titles = ["todo", "doing", "done"].map((k) => inGerman(`widgets.kanban.defaultColumns.${k}`));
      expect(titles).toEqual(["Zu erledigen", "In Arbeit", "Erledigt"]);
      // Each title is followed by its card count inside the heading.
      const shown = () =>
        kanban
          .locator(".kanban-column-title")
          .evaluateAll((heads) => heads.map((h) => h.firstChild?.textContent));
      await expect.poll(shown).toEqual(titles);
      // Created in German, so the board keeps these words for everyone who opens it.
      await expect
        .poll(async () => {
          const list = (await api("GET", `/api/widgets?dashboardId=${id}`)).body as any[];
          const stored = list.find((w) => w.widgetType === "Kanban");
          return stored?.config.columns.map((c: { title: string }) => c.title);
        })
        .toEqual(titles);
      await photograph(page, "german-crypto-kanban");
    },
    STEP,
  );

  it(
    "shows visitors read-only todos that look it, and no owner's prompt for the weather",
    async () => {
      const { api, board, context } = await person({ name: "Paula Public" });
      const { id } = await board("Open house", [
        {
          widgetType: "Todo",
          positionX: 0,
          positionY: 0,
          width: 420,
          height: 300,
          config: {
            todos: [
              { id: "t1", text: "Water the plants", done: true },
              { id: "t2", text: "Fix the gate", done: false },
            ],
          },
        },
        { widgetType: "Weather", positionX: 440, positionY: 0, width: 420, height: 300, config: {} },
      ]);
      expect((await api("PUT", "/api/dashboards", { id, name: "Open house", isPublic: true })).status).toBe(
        200,
      );
      await context.close();

      const visitor = await app.browser.newContext({
        viewport: { width: 1280, height: 900 },
        locale: "en-GB",
      });
      const guest = await visitor.newPage();
      guest.on("pageerror", (error) => pageErrors.push(error.message));
      await guest.goto(`${baseUrl}/p/${id}`);
      await guest.getByRole("heading", { name: "Open house", level: 1 }).waitFor();
      const todos = widget(guest, "Todo");
      await todos.getByText("Fix the gate").waitFor();
      expect(await todos.locator("input, button").count()).toBe(0);
      // Nothing drawn like a box to tick, and no hover that promises a click.
      const looks = await todos.locator(".todo-mark").evaluateAll((marks) =>
        marks.map((m) => {
          const style = getComputedStyle(m);
          return { border: style.borderTopStyle, background: style.backgroundColor };
        }),
      );
      for (const look of looks) expect(look).toEqual({ border: "none", background: "rgba(0, 0, 0, 0)" });
      const row = todos.locator(".todo-row").first();
      await row.hover();
      expect(await row.evaluate((r) => getComputedStyle(r).backgroundColor)).toBe("rgba(0, 0, 0, 0)");
      expect(await row.evaluate((r) => getComputedStyle(r.querySelector(".todo-text")!).cursor)).toBe(
        "default",
      );

      const weather = widget(guest, "Weather");
      await weather.getByText(inEnglish("widgets.weather.noForecast")).waitFor();
      expect(await guest.getByText("No place chosen yet").count()).toBe(0);
      expect(await axeBlocking(guest)).toEqual([]);
      await guest.mouse.move(0, 0);
      await photograph(guest, "public-todo-weather", undefined, true);
      await visitor.close();
    },
    STEP,
  );

  it(
    "offers a new dashboard, the themes and signing out in the command palette",
    async () => {
      const { page, board } = await person({ name: "Pia Palette" });
      const { id } = await board("Desk");
      await openBoard(page, id, "Desk");
      const palette = page.getByRole("dialog", { name: inEnglish("palette.title") });
      const search = palette.getByRole("combobox");
      const run = async (query: string, label: string) => {
        await page.keyboard.press("Control+k");
        await search.fill(query);
        await expect
          .poll(() => palette.locator('[role="option"][aria-selected="true"] .palette-label').textContent())
          .toBe(label);
        await search.press("Enter");
      };

      await page.keyboard.press("Control+k");
      await search.fill("theme");
      const labels = () => palette.locator(".palette-label").allTextContents();
      await expect
        .poll(labels)
        .toEqual(
          ["light", "dark", "system"].map((theme) =>
            inEnglish("palette.theme", { theme: inEnglish(`settings.theme.${theme}`) }),
          ),
        );
      await palette
        .locator('[role="option"]', {
          hasText: inEnglish("palette.theme", { theme: inEnglish("settings.theme.system") }),
        })
        .getByText(inEnglish("palette.inUse"))
        .waitFor();
      await photograph(page, "palette-themes", () => palette);
      await page.keyboard.press("Escape");

      await run("dark", inEnglish("palette.theme", { theme: inEnglish("settings.theme.dark") }));
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
      await run("light", inEnglish("palette.theme", { theme: inEnglish("settings.theme.light") }));
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe("light");

      await run("new dashboard", inEnglish("header.newDashboard"));
      const naming = page.getByRole("dialog", { name: inEnglish("dashboard.nameDialog.createTitle") });
      await naming.getByLabel(inEnglish("common.name")).fill("Garden");
      await naming.getByRole("button", { name: inEnglish("dashboard.nameDialog.create") }).click();
      await page.getByRole("heading", { name: "Garden", level: 1 }).waitFor();
      await expect.poll(() => page.getByRole("dialog").count()).toBe(0);

      await run("sign out", inEnglish("header.signOut"));
      await page.waitForURL(/\/signin$/);
    },
    STEP,
  );

  it(
    "gives each bookmark one tab stop, its link, and more only in Edit layout",
    async () => {
      const { page, api, board } = await person({ name: "Bea Bookmarks" });
      const { id } = await board("Links", [
        {
          widgetType: "Bookmark",
          width: 420,
          height: 360,
          config: {
            bookmarks: [
              { id: "b1", title: "Router", url: `${siteUrl}/router` },
              { id: "b2", title: "Printer", url: `${siteUrl}/printer` },
              { id: "b3", title: "Wiki", url: `${siteUrl}/wiki` },
            ],
          },
        },
      ]);
      await openBoard(page, id, "Links");
      const bookmarks = widget(page, "Bookmark");
      const link = (title: string) => bookmarks.getByRole("link", { name: new RegExp(title) });
      await link("Router").waitFor();
      const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");

      await link("Router").focus();
      await page.keyboard.press("Tab");
      expect(await focused()).toContain("Printer");
      await page.keyboard.press("Tab");
      expect(await focused()).toContain("Wiki");
      // The row's buttons stay out of sight of the keyboard, and within reach of the pointer.
      await link("Router").focus();
      expect(
        await bookmarks
          .locator(".bookmark-row")
          .first()
          .locator(".row-actions")
          .evaluate((e) => getComputedStyle(e).opacity),
      ).toBe("0");
      await link("Router").hover();
      await bookmarks
        .getByRole("button", { name: inEnglish("widgets.bookmark.edit", { title: "Router" }) })
        .waitFor();

      // Alt+↓ on a link moves the bookmark: no stop of its own needed for that.
      await link("Router").focus();
      await page.keyboard.press("Alt+ArrowDown");
      await expect
        .poll(() => bookmarks.locator(".bookmark-title").allTextContents())
        .toEqual(["Printer", "Router", "Wiki"]);
      await expect
        .poll(async () =>
          (await api("GET", `/api/widgets?dashboardId=${id}`)).body[0].config.bookmarks.map(
            (b: any) => b.title,
          ),
        )
        .toEqual(["Printer", "Router", "Wiki"]);
      expect(await axeBlocking(page)).toEqual([]);
      await page.mouse.move(0, 0);
      await photograph(page, "bookmarks-view", () => bookmarks);

      // In Edit layout the row's buttons join the tab order.
      await page.getByRole("button", { name: inEnglish("dashboard.edit.editLayout") }).click();
      await link("Printer").focus();
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(
        inEnglish("widgets.bookmark.reorder", { title: "Printer" }),
      );
      expect(await axeBlocking(page)).toEqual([]);
      await photograph(page, "bookmarks-edit-layout", () => bookmarks);
    },
    STEP,
  );
});
