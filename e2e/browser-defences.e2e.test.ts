import { once } from "node:events";
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Browser, BrowserContext, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeWeather } from "../src/widgets/weather/fake.js";
import { type FakeExchange, startFakeExchange } from "../test/fakes/exchange.js";
import { FakeGoogle } from "../test/fakes/google.js";
import { type OidcServer, startOidcServer } from "../test/fakes/oauth-oidc.js";
import { pageApi } from "./support/page-helpers.js";
import {
  type E2eApp,
  exchangeEnv,
  freePort,
  oauthThrough,
  providersEnv,
  startApp,
} from "./support/web-app.js";

/**
 * The browser defences of issue 10 in Chromium against the built app: the whole app works under
 * its Content-Security-Policy (no violation on the sign-in page, a dashboard of many widgets, the
 * settings dialog, a public page, the mail reader, Swagger UI), and another site can frame only
 * the public pages it was allowed to, never the app.
 */

const ARTIFACTS = path.resolve("test-results");
const STEP = 60_000;

let app: E2eApp;
let baseUrl: string;
let op: OidcServer;
let google: FakeGoogle;
let weather: FakeWeather;
let exchange: FakeExchange;
/** Another origin: a site that embeds pages of ours, and a page for the Frame widget to show. */
let site: Server;
let siteUrl: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let boardId = "";
/** Every CSP report Chromium printed, from any frame, with the page it happened on. */
const cspMessages: { at: string; text: string }[] = [];
const pageErrors: string[] = [];

const api = pageApi(
  () => page,
  () => baseUrl,
);

/**
 * The mail reader's frame carries a stricter policy of its own (img-src https: data:) that blocks
 * what the hostile test mail tries (a relative image); such reports quote that policy. Every other
 * report is a violation of the app's policy by the app itself.
 */
const appViolations = () =>
  cspMessages.filter(
    (m) =>
      // The OAuth server's own pages (connecting Google) are not the app's.
      m.at.startsWith(baseUrl) &&
      (!/directive: "img-src https: data:"/.test(m.text) || !m.at.includes("/d/")),
  );

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  site = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    res.setHeader("content-type", "text/html; charset=utf-8");
    if (url.pathname === "/embed") {
      const src = url.searchParams.get("src") ?? "";
      res.end(
        `<!doctype html><title>Embedding</title><iframe id="embedded" src="${src}" width="900" height="600" onload="window.loaded = true"></iframe>`,
      );
    } else {
      res.end("<!doctype html><title>Status</title><h1 id=status>All systems normal</h1>");
    }
  });
  site.listen(0, "127.0.0.1");
  await once(site, "listening");
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  op = await startOidcServer({
    suite: { redirectUris: [`${baseUrl}/api/auth/callback/suite`], clientAuth: "client_secret_post" },
  });
  [google, weather, exchange] = await Promise.all([
    FakeGoogle.start({ authorize: (token) => op.validAccessToken(token) }),
    FakeWeather.start(),
    startFakeExchange(),
  ]);
  app = await startApp({
    port,
    env: {
      ...providersEnv({
        GOOGLE: oauthThrough(op, "suite", { userInfoUrl: `${op.issuer}/me`, apiUrl: google.url }),
      }),
      ...exchangeEnv(exchange.exchange),
      WEATHER_API_URL: weather.url,
      GEOCODING_API_URL: weather.url,
      PUBLIC_FRAME_ANCESTORS: siteUrl,
    },
  });

  browser = app.browser;
  context = await browser.newContext({ viewport: { width: 1500, height: 1300 }, locale: "en-GB" });
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.on("console", (message) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(message.text()))
      cspMessages.push({ at: page.url(), text: message.text() });
  });
  page.on("pageerror", (error) => pageErrors.push(error.message));
}, 300_000);

afterAll(async () => {
  await app?.stop();
  await Promise.all([google?.server.close(), weather?.server.close(), exchange?.close()]);
  await op?.close();
  site?.close();
});

describe("the app under its Content-Security-Policy", () => {
  it(
    "signs up on the sign-up page with no CSP violation",
    async () => {
      await page.goto(`${baseUrl}/`);
      await page.waitForURL(/\/signin$/);
      await page.getByRole("link", { name: "Create an account" }).click();
      await page.getByLabel("Name").fill("Csp Tester");
      await page.getByLabel("Email").fill(`csp-${Date.now()}@example.test`);
      await page.getByLabel("Password").fill("a-long-enough-password");
      await page.getByRole("button", { name: "Create account" }).click();
      await page.getByRole("dialog", { name: /Welcome to Tessera/ }).waitFor();
      expect(appViolations()).toEqual([]);
    },
    STEP,
  );

  it(
    "shows a dashboard of eleven kinds of widget, the mail reader included, with no CSP violation",
    async () => {
      // Google is connected through its OAuth flow, as a person connects it.
      const me = await api("GET", "/api/auth/get-session");
      op.nextLogin = { sub: `sub-${me.body.user.id}`, email: me.body.user.email, name: me.body.user.name };
      await page.goto(`${baseUrl}/api/providers/suite/connect?returnTo=${encodeURIComponent("/")}`);
      await page.waitForURL((url) => url.origin === baseUrl && !url.pathname.startsWith("/api/"));
      const providers = await api("GET", "/api/providers");
      expect(providers.body.find((p: { provider: string }) => p.provider === "suite")?.connected).toBe(true);
      const settings = await api("GET", "/api/settings");
      await api("PUT", "/api/settings", {
        id: settings.body[0].id,
        onboardingCompleted: true,
        config: { theme: "light", todoReminder: false, countdownReminder: false, meetingReminder: false },
      });
      const board = await api("POST", "/api/dashboards", { name: "Defended" });
      boardId = board.body.id;
      const now = new Date().toISOString();
      const widgets: [string, Record<string, unknown>][] = [
        ["Clock", { timezone: "Europe/Berlin" }],
        ["Countdown", { title: "Launch", emoji: "🚀", target: "2031-06-01T09:30:00.000Z" }],
        ["Todo", { todos: [{ id: "t1", text: "Ship the CSP", done: false, createdAt: now }] }],
        [
          "Kanban",
          {
            columns: [
              { id: "c1", title: "Doing", color: "#6366f1", cards: [{ id: "k1", title: "Headers" }] },
            ],
          },
        ],
        [
          "Editor",
          {
            notes: [
              {
                id: "n1",
                title: "Notes",
                markdown: "# Heading\n\n**bold** [a link](https://example.test)",
                updatedAt: now,
              },
            ],
          },
        ],
        ["Bookmark", { bookmarks: [{ id: "b1", title: "Status", url: `${siteUrl}/status` }] }],
        ["Frame", { url: `${siteUrl}/status` }],
        ["Weather", { location: { name: "Berlin", latitude: 52.52, longitude: 13.41 }, unit: "celsius" }],
        ["Crypto", { pairs: ["BTC-USD", "ETH-USD"], timeframe: "24h" }],
        ["Inbox", { labels: ["INBOX"] }],
        ["Meetings", {}],
      ];
      for (const [i, [widgetType, config]] of widgets.entries()) {
        const res = await api("POST", "/api/widgets", {
          dashboardId: boardId,
          widgetType,
          config,
          width: 420,
          height: 320,
          positionX: (i % 3) * 440,
          positionY: Math.floor(i / 3) * 340,
        });
        expect(res.status, widgetType).toBe(201);
      }
      await page.goto(`${baseUrl}/d/${boardId}`);
      await page.getByRole("heading", { name: "Defended", level: 1 }).waitFor();
      const widget = (type: string) => page.locator(`[data-widget-type="${type}"]`);
      await widget("Crypto").locator('[data-pair="BTC-USD"] .crypto-price strong').waitFor();
      await widget("Weather").locator(".weather-temp").waitFor();
      await widget("Todo").getByText("Ship the CSP").waitFor();
      // The Frame widget shows another origin's page inside its sandbox (frame-src allows it).
      const framed = page.frameLocator(`[data-widget-type="Frame"] iframe`).locator("#status");
      await expect.poll(() => framed.textContent()).toBe("All systems normal");
      const first = widget("Inbox").locator(".mail-row", { hasText: "Subject 0" });
      await first.waitFor();
      await page.screenshot({ path: path.join(ARTIFACTS, "csp-dashboard.png") });

      // The mail reader's sandboxed srcdoc frame inherits the app's policy: its styles still apply.
      await first.getByRole("button").click();
      const reader = page.getByRole("dialog", { name: "Subject 0" });
      await reader.locator("iframe.mail-body").waitFor();
      const body = page.frameLocator("iframe.mail-body").locator("body");
      await expect.poll(() => body.textContent()).toContain("Hello");
      expect(await body.evaluate((el) => getComputedStyle(el).marginTop)).toBe("16px");
      expect(
        await body.locator("span", { hasText: "styled" }).evaluate((el) => getComputedStyle(el).color),
      ).toBe("rgb(255, 0, 0)");
      await page.keyboard.press("Escape");

      expect(appViolations()).toEqual([]);
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );

  it(
    "opens the settings dialog and every tab with no CSP violation",
    async () => {
      await page.getByRole("button", { name: "Settings", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Settings", exact: true });
      for (const tab of await dialog.getByRole("tab").all()) {
        await tab.click();
        expect(await tab.getAttribute("aria-selected")).toBe("true");
      }
      await page.keyboard.press("Escape");
      expect(appViolations()).toEqual([]);
    },
    STEP,
  );

  it(
    "shows a public page to a visitor with no CSP violation",
    async () => {
      expect(
        (await api("PUT", "/api/dashboards", { id: boardId, name: "Defended", isPublic: true })).status,
      ).toBe(200);
      const visitor = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
      const visitorPage = await visitor.newPage();
      visitorPage.on("console", (message) => {
        if (/Content Security Policy/i.test(message.text()))
          cspMessages.push({ at: visitorPage.url(), text: message.text() });
      });
      try {
        await visitorPage.goto(`${baseUrl}/p/${boardId}`);
        await visitorPage.getByRole("heading", { name: "Defended" }).first().waitFor();
        await visitorPage.locator('[data-widget-type="Weather"] .weather-temp').waitFor();
        await visitorPage.locator('[data-widget-type="Crypto"] [data-pair="BTC-USD"]').waitFor();
      } finally {
        await visitor.close();
      }
      expect(appViolations()).toEqual([]);
    },
    STEP,
  );

  it(
    "renders Swagger UI at /api/docs under its own policy",
    async () => {
      await page.goto(`${baseUrl}/api/docs`);
      await page.locator(".swagger-ui .opblock").first().waitFor({ timeout: 20_000 });
      expect(await page.locator(".swagger-ui .opblock").count()).toBeGreaterThan(10);
      expect(appViolations()).toEqual([]);
    },
    STEP,
  );
});

describe("framing", () => {
  /** Opens our page inside another origin's iframe; resolves with the framed document's frame. */
  async function embed(url: string): Promise<{ frame: Frame; reports: string[] }> {
    const reports: string[] = [];
    const framer = await context.newPage();
    framer.on("console", (message) => reports.push(message.text()));
    await framer.goto(`${siteUrl}/embed?src=${encodeURIComponent(url)}`);
    // The load event fires for a refused frame too (with Chromium's error page in it).
    await framer.waitForFunction(() => (window as { loaded?: boolean }).loaded === true);
    const element = await framer.waitForSelector("#embedded");
    const frame = await element.contentFrame();
    if (!frame) throw new Error("no frame");
    return { frame, reports };
  }

  const hasApp = (frame: Frame) =>
    frame.evaluate(() => document.getElementById("root") !== null).catch(() => false);

  it(
    "refuses to let another site frame the app",
    async () => {
      for (const url of [`${baseUrl}/`, `${baseUrl}/signin`, `${baseUrl}/d/${boardId}`]) {
        const { frame, reports } = await embed(url);
        expect(await hasApp(frame), url).toBe(false);
        expect(
          reports.some((r) => r.includes("frame-ancestors 'none'")),
          url,
        ).toBe(true);
      }
    },
    STEP,
  );

  it(
    "lets the site named in PUBLIC_FRAME_ANCESTORS frame a public page, and only that",
    async () => {
      const { frame, reports } = await embed(`${baseUrl}/p/${boardId}`);
      await frame.getByRole("heading", { name: "Defended" }).first().waitFor();
      expect(await hasApp(frame)).toBe(true);
      expect(reports.filter((r) => /Content Security Policy/i.test(r))).toEqual([]);
    },
    STEP,
  );
});
