import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WIDGETS } from "../src/web/widget-kit/registry.js";
import { startFakeFeeds } from "../src/widgets/feed/fake.js";
import { FakeWeather } from "../src/widgets/weather/fake.js";
import { type FakeExchange, startFakeExchange } from "../test/fakes/exchange.js";
import type { FakeServer } from "../test/fakes/oauth-http.js";
import { AXE_SOURCE } from "./support/axe.js";
import { pageApi, stylesSettled } from "./support/page-helpers.js";
import { type E2eApp, exchangeEnv, startApp } from "./support/web-app.js";
import { OFFERED_WIDGETS } from "./support/widget-types.js";

/**
 * WCAG 2.2 AA with axe-core in Chromium: every page and dialog of the app, in the light and the
 * dark theme (the app follows the system theme here, and the test emulates it). A violation of
 * impact "serious" or "critical" fails the page's step and is printed; the end prints a table of
 * pages x themes with the counts by impact. Widgets that read a connected account show their
 * "connect" state (no OAuth here: e2e/data-widgets.e2e.test.ts drives the connected states).
 */

const ARTIFACTS = path.resolve("test-results");
const STEP = 60_000;
const THEMES = ["light", "dark"] as const;
type Theme = (typeof THEMES)[number];
const IMPACTS = ["critical", "serious", "moderate", "minor"] as const;
type Impact = (typeof IMPACTS)[number];

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

interface Violation {
  id: string;
  impact: Impact | null;
  help: string;
  nodes: { target: unknown[]; detail: string }[];
}

let app: E2eApp;
let baseUrl: string;
let weather: FakeWeather;
let exchange: FakeExchange;
let feeds: FakeServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let boardId = "";
const pageErrors: string[] = [];
const email = `a11y-${Date.now()}@example.test`;
/** page name -> theme -> counts by impact, for the table at the end. */
const results = new Map<string, Partial<Record<Theme, Record<Impact, number>>>>();

const api = pageApi(
  () => page,
  () => baseUrl,
);

/** Runs axe on the page (or on its open modal dialog), records the counts, returns the blocking ones. */
async function audit(on: Page, name: string, theme: Theme, scope?: string): Promise<string[]> {
  // Evaluated through the DevTools protocol: the app's CSP (script-src 'self') refuses an inline tag.
  const started = Date.now();
  // Contrast is checked on the colours at rest, not on a button or a dialog still easing in.
  await stylesSettled(on);
  if (!(await on.evaluate(() => "axe" in window))) await on.evaluate(AXE_SOURCE);
  const violations = (await on.evaluate(
    async ([tags, selector]) => {
      const axe = (window as any).axe;
      const context = selector ? { include: [selector as string] } : document;
      const result = await axe.run(context, {
        runOnly: { type: "tag", values: tags },
        resultTypes: ["violations"],
      });
      return result.violations.map((v: any) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n: any) => {
          const data = n.any?.[0]?.data;
          // Contrast failures say which colours and ratio, so the fix can be chosen from the output.
          const detail = data?.contrastRatio
            ? ` ${data.fgColor} on ${data.bgColor} = ${data.contrastRatio}:1 (needs ${data.expectedContrastRatio})`
            : "";
          return { target: n.target, detail };
        }),
      }));
    },
    [TAGS, scope ?? ""] as const,
  )) as Violation[];
  const counts = Object.fromEntries(IMPACTS.map((i) => [i, 0])) as Record<Impact, number>;
  for (const v of violations) if (v.impact) counts[v.impact] += v.nodes.length;
  results.set(name, { ...results.get(name), [theme]: counts });
  const blocking = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const lines = blocking.map(
    (v) =>
      `${name} [${theme}] ${v.impact} ${v.id}: ${v.help}\n    ${v.nodes
        .slice(0, 8)
        .map((n) => `${JSON.stringify(n.target)}${n.detail}`)
        .join("\n    ")}${v.nodes.length > 8 ? `\n    … and ${v.nodes.length - 8} more` : ""}`,
  );
  if (lines.length) console.log(lines.join("\n"));
  const others = violations.filter((v) => !blocking.includes(v));
  if (others.length)
    console.log(
      `${name} [${theme}] also: ${others.map((v) => `${v.id} (${v.impact}) ${JSON.stringify(v.nodes[0]?.target)}`).join("; ")}`,
    );
  if (process.env.A11Y_TIMING) console.log(`${name} [${theme}] ${Date.now() - started} ms`);
  return lines;
}

/** Every theme in turn: the app follows the system theme, which Chromium emulates. */
async function inBothThemes(on: Page, each: (theme: Theme) => Promise<string[]>, { reload = false } = {}) {
  const failures: string[] = [];
  for (const theme of THEMES) {
    await on.emulateMedia({ colorScheme: theme });
    // Signed out, the page takes the system theme as it loads (no settings to follow live).
    if (reload) await on.reload();
    await expect.poll(() => on.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
    // Colours change with a transition; contrast is measured on the settled colours.
    await settle(on);
    failures.push(...(await each(theme)));
  }
  await on.emulateMedia({ colorScheme: "light" });
  if (reload) await on.reload();
  return failures;
}

async function settle(on: Page) {
  await on
    .waitForFunction(
      () => document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== "running"),
      null,
      { timeout: 3000 },
    )
    .catch(() => {});
}

/** Escape closes the open dialog; the next step must not start while it is still on screen. */
async function closeDialogs() {
  for (let i = 0; i < 3 && (await page.locator("dialog[open]").count()) > 0; i++) {
    await page.keyboard.press("Escape");
    await page
      .locator("dialog[open]")
      .first()
      .waitFor({ state: "detached", timeout: 2000 })
      .catch(() => {});
  }
  expect(await page.locator("dialog[open]").count()).toBe(0);
}

async function noSkeletons(on: Page) {
  await expect
    .poll(() => on.locator(".data-skeleton, .skeleton").count(), { timeout: 8000 })
    .toBe(0)
    .catch(() => {});
}

async function widgetLayout() {
  const list = (await api("GET", `/api/widgets?dashboardId=${boardId}`)).body as any[];
  const layout: Record<string, [number, number, number, number]> = {
    Clock: [0, 0, 300, 200],
    Countdown: [0, 200, 300, 200],
    Weather: [300, 0, 380, 400],
    Crypto: [680, 0, 360, 400],
    Inbox: [1040, 0, 500, 400],
    Meetings: [0, 400, 380, 420],
    Codehost: [380, 400, 420, 420],
    Todo: [800, 400, 300, 420],
    Kanban: [1100, 400, 440, 420],
    "Codehost Heatmap": [0, 820, 720, 260],
    Editor: [720, 820, 480, 260],
    Bookmark: [1200, 820, 340, 260],
    Frame: [0, 1080, 540, 240],
    Feed: [540, 1080, 500, 240],
    Status: [1040, 1080, 500, 240],
  };
  const content: Record<string, object> = {
    Countdown: { title: "Launch", target: new Date(Date.now() + 9 * 86_400_000).toISOString() },
    Todo: {
      todos: [
        { id: "t1", text: "Review the pull requests", done: true, createdAt: new Date().toISOString() },
        { id: "t2", text: "Book the venue", done: false, createdAt: new Date().toISOString() },
      ],
    },
    Kanban: {
      columns: [
        { id: "c1", title: "To do", color: "#64748b", cards: [{ id: "k1", title: "Write the brief" }] },
        { id: "c2", title: "Doing", color: "#3b82f6", cards: [{ id: "k2", title: "Sketch the layout" }] },
        { id: "c3", title: "Done", color: "#10b981", cards: [{ id: "k3", title: "Pick a date" }] },
      ],
    },
    Feed: { feeds: [{ id: "f1", url: `${feeds.url}/rss.xml` }], limit: 4 },
    Status: { checks: [{ id: "s1", name: "Tessera", url: baseUrl }] },
    Bookmark: {
      bookmarks: [
        { id: "b1", title: "Tessera docs", url: `${baseUrl}/docs` },
        { id: "b2", title: "Status page", url: "https://status.example.test/" },
      ],
    },
  };
  const unplaced = list.filter((w) => !layout[w.widgetType]);
  for (const [i, w] of unplaced.entries()) layout[w.widgetType] = [0, 1320 + i * 260, 540, 240];
  for (const w of list) {
    const [positionX, positionY, width, height] = layout[w.widgetType]!;
    const body: Record<string, unknown> = { id: w.id, positionX, positionY, width, height };
    if (content[w.widgetType]) body.config = content[w.widgetType];
    expect((await api("PUT", "/api/widgets", body)).status).toBe(200);
  }
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  [weather, exchange, feeds] = await Promise.all([
    FakeWeather.start(),
    startFakeExchange(),
    startFakeFeeds(),
  ]);
  app = await startApp({
    env: {
      ...exchangeEnv(exchange.exchange),
      WEATHER_API_URL: weather.url,
      GEOCODING_API_URL: weather.url,
      FETCH_ALLOW_PRIVATE: "127.0.0.1/32",
    },
  });
  baseUrl = app.baseUrl;
  browser = app.browser;
  context = await browser.newContext({
    viewport: { width: 1600, height: 1300 },
    locale: "en-GB",
    colorScheme: "light",
    geolocation: { latitude: 48.86, longitude: 2.35 },
    permissions: ["geolocation"],
  });
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.on("pageerror", (error) => pageErrors.push(error.message));
}, 300_000);

afterAll(async () => {
  const cell = (c?: Record<Impact, number>) => (c ? IMPACTS.map((i) => c[i]).join("/") : "-");
  const width = Math.max(...[...results.keys()].map((k) => k.length), 4);
  const rows = [
    `${"page".padEnd(width)} | light (critical/serious/moderate/minor) | dark (critical/serious/moderate/minor)`,
    `${"-".repeat(width)}-|-${"-".repeat(39)}-|-${"-".repeat(38)}`,
    ...[...results.entries()].map(
      ([name, r]) => `${name.padEnd(width)} | ${cell(r.light).padEnd(39)} | ${cell(r.dark)}`,
    ),
  ];
  console.log(`\naxe-core violations (affected elements) by impact, pages x themes:\n${rows.join("\n")}\n`);
  await app?.stop();
  await Promise.all([weather?.server.close(), exchange?.close(), feeds?.close()]);
});

describe("accessibility (axe-core, WCAG 2.2 AA) in light and dark", () => {
  it(
    "sign-in and sign-up pages",
    async () => {
      await page.goto(`${baseUrl}/signin`);
      await page.getByRole("button", { name: "Sign in" }).first().waitFor();
      const failures = await inBothThemes(page, (theme) => audit(page, "sign-in", theme), { reload: true });
      await page.goto(`${baseUrl}/signup`);
      await page.getByRole("button", { name: "Create account" }).waitFor();
      // With the field errors shown, as a person who pressed the button too early sees it.
      failures.push(
        ...(await inBothThemes(
          page,
          async (theme) => {
            // With the field errors shown, as a person who pressed the button too early sees it.
            await page.getByRole("button", { name: "Create account" }).click();
            await page.getByText("Tell us what to call you").waitFor();
            return audit(page, "sign-up", theme);
          },
          { reload: true },
        )),
      );
      expect(failures).toEqual([]);
    },
    STEP,
  );

  it(
    "onboarding",
    async () => {
      const signUp = await api("POST", "/api/auth/sign-up/email", {
        name: "Ada Lovelace",
        email,
        password: "a-long-enough-password",
      });
      expect(signUp.status).toBe(200);
      await page.goto(`${baseUrl}/`);
      const dialog = page.getByRole("dialog", { name: /Welcome to Tessera/ });
      await dialog.waitFor();
      const failures: string[] = [];
      try {
        failures.push(
          ...(await inBothThemes(page, (theme) => audit(page, "onboarding 1", theme, "dialog[open]"))),
        );
        await dialog.getByRole("button", { name: "Next" }).click();
        await page.getByLabel("Dashboard name").waitFor();
        failures.push(
          ...(await inBothThemes(page, (theme) => audit(page, "onboarding 2", theme, "dialog[open]"))),
        );
      } finally {
        // The rest of the way through the API; the theme follows the (emulated) system.
        const settings = await api("GET", "/api/settings");
        await api("PUT", "/api/settings", {
          id: settings.body[0].id,
          onboardingCompleted: true,
          config: { theme: "system", todoReminder: false, countdownReminder: false, meetingReminder: false },
        });
      }
      expect(failures).toEqual([]);
    },
    STEP,
  );

  it(
    "a dashboard with every widget type, and the widget picker",
    async () => {
      boardId = (await api("POST", "/api/dashboards", { name: "Mission control" })).body.id;
      await page.goto(`${baseUrl}/d/${boardId}`);
      await page.getByRole("heading", { name: "Mission control", level: 1 }).waitFor();
      // Through the API with each type's own default config, as the picker would add them
      // (e2e/web and e2e/data-widgets drive the picker itself).
      for (const definition of WIDGETS) {
        const created = await api("POST", "/api/widgets", {
          dashboardId: boardId,
          widgetType: definition.type,
          positionX: 0,
          positionY: 0,
          width: 300,
          height: 200,
          config: definition.defaultConfig(),
        });
        expect(created.status).toBe(201);
      }
      await widgetLayout();
      await page.reload();
      await page.getByRole("heading", { name: "Mission control", level: 1 }).waitFor();
      expect(await page.locator("[data-widget-type]").count()).toBe(OFFERED_WIDGETS.length);
      await noSkeletons(page);
      const failures = await inBothThemes(page, async (theme) => {
        await page.screenshot({ path: path.join(ARTIFACTS, `a11y-dashboard-${theme}.png`), fullPage: true });
        return audit(page, "dashboard", theme);
      });

      await page.getByRole("button", { name: "Add widget" }).first().click();
      await page.getByRole("dialog", { name: "Add a widget" }).waitFor();
      failures.push(
        ...(await inBothThemes(page, (theme) => audit(page, "widget picker", theme, "dialog[open]"))),
      );
      await closeDialogs();
      expect(failures).toEqual([]);
    },
    STEP * 2,
  );

  it(
    "every widget's settings dialog",
    async () => {
      const failures: string[] = [];
      for (const { type, name } of OFFERED_WIDGETS) {
        const open = page
          .locator(`[data-widget-type="${type}"]`)
          .getByRole("button", { name: `${name} settings` });
        if ((await open.count()) === 0) continue;
        await open.click();
        const dialog = page.getByRole("dialog", { name: `${name} settings` });
        await dialog.waitFor();
        await noSkeletons(page);
        failures.push(
          ...(await inBothThemes(page, (theme) => audit(page, `settings: ${type}`, theme, "dialog[open]"))),
        );
        await closeDialogs();
      }
      expect(failures).toEqual([]);
    },
    STEP * 3,
  );

  it(
    "the settings dialog, every tab",
    async () => {
      await page.getByRole("button", { name: "Settings", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Settings", exact: true });
      await dialog.getByRole("tab").first().waitFor();
      const tabs = await dialog.getByRole("tab").allTextContents();
      expect(tabs.length).toBeGreaterThanOrEqual(6);
      const failures: string[] = [];
      for (const tab of tabs) {
        await dialog.getByRole("tab", { name: tab }).click();
        await noSkeletons(page);
        failures.push(
          ...(await inBothThemes(page, (theme) => audit(page, `settings: ${tab}`, theme, "dialog[open]"))),
        );
      }
      await closeDialogs();
      expect(failures).toEqual([]);
    },
    STEP * 2,
  );

  it(
    "the share dialog and the public page",
    async () => {
      await page.getByRole("button", { name: "Mission control", exact: true }).click();
      await page.getByRole("button", { name: /^Share…/ }).click();
      const share = page.getByRole("dialog", { name: "Share “Mission control”" });
      await share.getByRole("switch", { name: /Public link/ }).check();
      await share.getByRole("textbox", { name: "Public link" }).waitFor();
      const failures = await inBothThemes(page, (theme) =>
        audit(page, "share dialog", theme, "dialog[open]"),
      );
      await closeDialogs();

      const visitor = await browser.newContext({ viewport: { width: 1600, height: 1300 }, locale: "en-GB" });
      try {
        const guest = await visitor.newPage();
        guest.on("pageerror", (error) => pageErrors.push(error.message));
        await guest.goto(`${baseUrl}/p/${boardId}`);
        await guest.getByRole("heading", { name: "Mission control", level: 1 }).waitFor();
        await guest.locator('[data-widget-type="Clock"]').waitFor();
        await noSkeletons(guest);
        failures.push(
          ...(await inBothThemes(
            guest,
            async (theme) => {
              await guest.locator('[data-widget-type="Clock"]').waitFor();
              await noSkeletons(guest);
              return audit(guest, "public page", theme);
            },
            { reload: true },
          )),
        );
      } finally {
        await visitor.close();
      }
      expect(failures).toEqual([]);
    },
    STEP,
  );

  it(
    "the admin page",
    async () => {
      await page.goto(`${baseUrl}/admin`);
      await page.getByRole("heading", { name: "Administration", level: 1 }).waitFor();
      await noSkeletons(page);
      const failures = await inBothThemes(page, (theme) => audit(page, "admin", theme));
      expect(failures).toEqual([]);
    },
    STEP,
  );

  it("threw no page error", () => {
    expect(pageErrors).toEqual([]);
  });
});
