import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeFeeds } from "../src/widgets/feed/fake.js";
import { FakeWeather } from "../src/widgets/weather/fake.js";
import { type FakeExchange, startFakeExchange } from "../test/fakes/exchange.js";
import { FakeGithub, VIEWER_LOGIN } from "../test/fakes/github.js";
import { FakeGoogle } from "../test/fakes/google.js";
import { FakeNotion } from "../test/fakes/notion.js";
import type { FakeServer } from "../test/fakes/oauth-http.js";
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
import { DATA_WIDGETS, OFFERED_WIDGETS, PRIVATE_TYPES } from "./support/widget-types.js";

/**
 * The six data widgets in Chromium against the built app, with every provider, the exchange and
 * the weather service pointed at fakes on 127.0.0.1. Providers are connected through a real OAuth
 * server (oidc-provider) from the settings dialog, as a person would. Steps share one page.
 */

const ARTIFACTS = path.resolve("test-results");
const STEP = 60_000;

let app: E2eApp;
let baseUrl: string;
let op: OidcServer;
let google: FakeGoogle;
let github: FakeGithub;
let notion: FakeNotion;
let weather: FakeWeather;
let exchange: FakeExchange;
let feeds: FakeServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let boardId = "";
const pageErrors: string[] = [];
const email = `data-${Date.now()}@example.test`;

const widget = (type: string): Locator => page.locator(`[data-widget-type="${type}"]`);

const api = pageApi(
  () => page,
  () => baseUrl,
);

async function addFromPicker(name: string, type: string) {
  await page.getByRole("button", { name: "Add widget" }).click();
  await page.getByRole("button", { name: new RegExp(`^Add ${name}:`) }).click();
  await widget(type).waitFor();
}

async function openSettingsTab(tab: string) {
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Settings", exact: true });
  await dialog.getByRole("tab", { name: tab }).click();
  return dialog;
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

async function dismissToasts() {
  for (const button of await page.locator(".toast").getByRole("button", { name: "Dismiss" }).all())
    await button.click().catch(() => {});
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  const redirect = (p: string) => [`${baseUrl}/api/auth/callback/${p}`];
  op = await startOidcServer({
    suite: { redirectUris: redirect("suite"), clientAuth: "client_secret_post" },
    codehost: { redirectUris: redirect("codehost"), clientAuth: "client_secret_post" },
    notes: { redirectUris: redirect("notes"), clientAuth: "client_secret_basic" },
  });
  const authorize = (token: string) => op.validAccessToken(token);
  [google, github, notion, weather, exchange, feeds] = await Promise.all([
    FakeGoogle.start({ authorize }),
    FakeGithub.start({ authorize }),
    FakeNotion.start({ authorize }),
    FakeWeather.start(),
    startFakeExchange(),
    startFakeFeeds(),
  ]);
  app = await startApp({
    port,
    env: {
      ...providersEnv({
        GOOGLE: oauthThrough(op, "suite", { userInfoUrl: `${op.issuer}/me`, apiUrl: google.url }),
        GITHUB: oauthThrough(op, "codehost", { userInfoUrl: `${github.url}/user`, apiUrl: github.url }),
        NOTION: oauthThrough(op, "notes", { userInfoUrl: `${notion.url}/v1/users/me`, apiUrl: notion.url }),
      }),
      ...exchangeEnv(exchange.exchange),
      WEATHER_API_URL: weather.url,
      GEOCODING_API_URL: weather.url,
      // The fake feed site lives on loopback, which a user's URL may reach only when allowed.
      FETCH_ALLOW_PRIVATE: "127.0.0.1/32",
      // Every refresh of prices asks the exchange, and a failure is not repeated: the stale-data
      // step sees a failing and then a healed exchange at once (the server's own freshness and
      // failure windows are tested with a moved clock in test/server/upstream-cache.test.ts).
      CACHE_PRICES_SECONDS: "0",
      UPSTREAM_FAILURE_SECONDS: "0",
    },
  });

  browser = app.browser;
  context = await browser.newContext({
    viewport: { width: 1600, height: 1300 },
    timezoneId: "Europe/Berlin",
    locale: "en-GB",
    geolocation: { latitude: 48.86, longitude: 2.35 },
    permissions: ["geolocation"],
  });
  page = await context.newPage();
  // A step that fails should fail fast, not hold the rest up for the default 30 s.
  page.setDefaultTimeout(10_000);
  page.on("pageerror", (error) => pageErrors.push(error.message));

  // The account, onboarding and a dashboard come from the API: the other e2e file covers that UI.
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
    config: { theme: "light", todoReminder: false, countdownReminder: false, meetingReminder: false },
  });
  const board = await api("POST", "/api/dashboards", { name: "Mission control" });
  boardId = board.body.id;
  await page.goto(`${baseUrl}/d/${boardId}`);
  await page.getByRole("heading", { name: "Mission control", level: 1 }).waitFor();
}, 300_000);

afterAll(async () => {
  await app?.stop();
  await Promise.all([
    google?.server.close(),
    github?.server.close(),
    notion?.server.close(),
    weather?.server.close(),
    exchange?.close(),
    feeds?.close(),
  ]);
  await op?.close();
});

describe("data widgets in the browser", () => {
  it(
    "offers every widget type in the picker",
    async () => {
      await page.getByRole("button", { name: "Add widget" }).first().click();
      const picker = page.getByRole("dialog", { name: "Add a widget" });
      expect(await picker.locator(".picker-card").count()).toBe(OFFERED_WIDGETS.length);
      for (const { name } of DATA_WIDGETS)
        expect(await picker.getByRole("button", { name: new RegExp(`^Add ${name}:`) }).count()).toBe(1);
      await closeDialogs();
    },
    STEP,
  );

  it(
    "shows crypto prices with change and chart, and a failing pair on its own",
    async () => {
      await exchange.fail(
        { kind: "status", status: 404, message: "NotFound" },
        { path: "/products/SOL-USD" },
      );
      await addFromPicker("Crypto", "Crypto");
      const crypto = widget("Crypto");
      const btc = crypto.locator('[data-pair="BTC-USD"]');
      await btc.locator(".crypto-price strong").waitFor();
      expect(await btc.locator(".crypto-price strong").textContent()).toMatch(/^US\$|^\$[\d,]+/);
      expect(await btc.locator(".crypto-change").textContent()).toMatch(/^[+−]?\d+\.\d{2}%$/);
      expect(await btc.locator(".sparkline path").count()).toBe(2);
      expect(await crypto.locator('[data-pair="ETH-USD"] .sparkline').count()).toBe(1);
      const sol = crypto.locator('[data-pair="SOL-USD"]');
      expect(await sol.getAttribute("class")).toContain("is-error");
      expect(await sol.locator(".crypto-error").textContent()).toMatch(/\S/);
      expect(await crypto.locator(".data-updated").textContent()).toMatch(/Updated just now/);
      await exchange.heal();

      // Settings: search the currency list, add Dogecoin.
      await page.getByRole("button", { name: "Crypto settings" }).click();
      const panel = page.getByRole("dialog", { name: "Crypto settings" });
      await panel.getByRole("searchbox", { name: "Search currencies" }).fill("doge");
      await panel.getByRole("checkbox", { name: /DOGE/ }).check();
      await panel.getByRole("button", { name: "Save" }).click();
      await crypto.locator('[data-pair="DOGE-USD"] .crypto-price').waitFor();
      await eventually(
        () => api("GET", `/api/widgets?dashboardId=${boardId}`),
        (r) => r.body.find((w: any) => w.widgetType === "Crypto")?.config.pairs.includes("DOGE-USD"),
        "the saved pair",
      );
    },
    STEP,
  );

  it(
    "finds a place for the weather, switches to Fahrenheit, and uses the browser's position",
    async () => {
      await addFromPicker("Weather", "Weather");
      const card = widget("Weather");
      await card.getByRole("searchbox", { name: "Search for a place" }).fill("Berlin");
      await card.getByRole("button", { name: "Berlin, Land Berlin, Germany" }).click();
      await card.locator(".weather-temp").waitFor();
      expect(await card.locator(".weather-temp").textContent()).toBe("12°C");
      expect(await card.locator(".weather-summary").textContent()).toContain("Overcast");
      expect(await card.locator(".weather-place").textContent()).toBe("Berlin");
      const hours = await card.locator(".weather-hour").allTextContents();
      expect(hours[0]).toBe("Now");
      // 24-hour clock in the user's zone (Berlin), as set in the app settings.
      expect(hours.slice(1).every((h) => /^\d{2}:00$/.test(h))).toBe(true);
      expect(await card.locator(".weather-days li").count()).toBe(7);

      await page.getByRole("button", { name: "Weather settings" }).click();
      let panel = page.getByRole("dialog", { name: "Weather settings" });
      await panel.getByRole("radio", { name: "Fahrenheit (°F)" }).check();
      await panel.getByRole("button", { name: "Save" }).click();
      await expect.poll(() => card.locator(".weather-temp").textContent()).toBe("54°F");

      await page.getByRole("button", { name: "Weather settings" }).click();
      panel = page.getByRole("dialog", { name: "Weather settings" });
      await panel.getByRole("button", { name: "Use my location" }).click();
      await expect
        .poll(() => panel.locator(".weather-current-place").textContent())
        .toContain("Current location");
      await panel.getByRole("button", { name: "Save" }).click();
      await expect.poll(() => card.locator(".weather-place").textContent()).toBe("Current location");
      const saved = await eventually(
        () => api("GET", `/api/widgets?dashboardId=${boardId}`),
        (r) =>
          r.body.find((w: any) => w.widgetType === "Weather")?.config.location?.name === "Current location",
        "the saved location",
      );
      expect(saved.body.find((w: any) => w.widgetType === "Weather").config).toMatchObject({
        unit: "fahrenheit",
        location: { latitude: 48.86, longitude: 2.35 },
      });
    },
    STEP,
  );

  it(
    "asks to connect an account in each widget that needs one",
    async () => {
      await addFromPicker("Inbox", "Inbox");
      await addFromPicker("Meetings", "Meetings");
      await addFromPicker("GitHub", "Codehost");
      await addFromPicker("GitHub Heatmap", "Codehost Heatmap");
      await addFromPicker("Notes", "Editor");
      const connect = widget("Inbox").getByRole("link", { name: "Connect Google" });
      await connect.waitFor();
      expect(await connect.getAttribute("href")).toBe(
        `/api/providers/suite/connect?returnTo=${encodeURIComponent(`/d/${boardId}`)}`,
      );
      await widget("Meetings").getByRole("link", { name: "Connect Google" }).waitFor();
      await widget("Codehost").getByRole("link", { name: "Connect GitHub" }).waitFor();
      await widget("Codehost Heatmap").getByRole("link", { name: "Connect GitHub" }).waitFor();
      await widget("Editor").getByRole("button", { name: "Import from Notion" }).click();
      const dialog = page.getByRole("dialog", { name: "Import from Notion" });
      await dialog.getByRole("link", { name: "Connect Notion" }).waitFor();
      await closeDialogs();
    },
    STEP,
  );

  it(
    "connects Google, GitHub and Notion through their OAuth flows from the settings dialog",
    async () => {
      for (const label of ["Google", "GitHub", "Notion"]) {
        const dialog = await openSettingsTab("Connections");
        await dialog.getByRole("link", { name: `Connect ${label}` }).click();
        // Out to the OAuth server and back to this dashboard, with the outcome reported and cleared.
        await page.locator(".toast", { hasText: `${label} is connected` }).waitFor({ timeout: 20_000 });
        await page.waitForURL(`${baseUrl}/d/${boardId}`);
      }
      const providers = await api("GET", "/api/providers");
      expect(providers.body.map((p: any) => [p.provider, p.connected])).toEqual([
        ["suite", true],
        ["codehost", true],
        ["notes", true],
      ]);
    },
    STEP,
  );

  it(
    "lists mail with unread marks, loads more, and opens a message in a sandboxed reader",
    async () => {
      const inbox = widget("Inbox");
      const first = inbox.locator(".mail-row", { hasText: "Subject 0" });
      await first.waitFor();
      expect(await first.getAttribute("class")).toContain("is-unread");
      expect(
        await inbox.locator(".mail-row", { hasText: "Subject 1" }).first().getAttribute("class"),
      ).not.toContain("is-unread");
      expect(await inbox.locator(".mail-row").count()).toBe(20);
      await inbox.getByRole("button", { name: "Load more" }).click();
      await expect.poll(() => inbox.locator(".mail-row").count()).toBeGreaterThan(20);

      await first.getByRole("button").click();
      const reader = page.getByRole("dialog", { name: "Subject 0" });
      const frame = reader.locator("iframe.mail-body");
      await frame.waitFor();
      const sandbox = (await frame.getAttribute("sandbox"))?.split(/\s+/) ?? [];
      expect(sandbox).not.toContain("allow-scripts");
      expect(sandbox).not.toContain("allow-same-origin");
      const body = page.frameLocator("iframe.mail-body").locator("body");
      await expect.poll(() => body.textContent()).toContain("Hello");
      expect(await body.locator("script, iframe, form").count()).toBe(0);
      expect(await body.locator("[onclick], [onerror], [onmouseover]").count()).toBe(0);
      expect(await reader.getByRole("link", { name: "Open in Gmail" }).getAttribute("href")).toMatch(
        /^https:\/\/mail\.google\.com\//,
      );
      await closeDialogs();
    },
    STEP,
  );

  it(
    "shows upcoming meetings by day with join links, and creates an event with a video link",
    async () => {
      const meetings = widget("Meetings");
      const review = meetings.locator(".event", { hasText: "Design review" });
      await review.waitFor();
      expect(await review.getByRole("link", { name: "Join Design review" }).getAttribute("href")).toBe(
        "https://meet.google.com/aaa-bbbb-ccc",
      );
      expect(await review.locator(".event-meta").textContent()).toMatch(
        /^\d{2}:\d{2} – \d{2}:\d{2} · Room 1$/,
      );
      expect(await meetings.locator(".event", { hasText: "Standup" }).count()).toBe(3);
      expect(await meetings.getByText("Holiday").count()).toBe(0);
      expect(await meetings.locator(".event-day h3").count()).toBeGreaterThanOrEqual(2);

      await meetings.getByRole("button", { name: "New event" }).click();
      const dialog = page.getByRole("dialog", { name: "New event" });
      // Only calendars the user may write to are offered.
      await dialog.getByLabel("Calendar").locator("option").first().waitFor({ state: "attached" });
      expect(await dialog.getByLabel("Calendar").locator("option").allTextContents()).toEqual([
        "me@example.test",
      ]);
      await dialog.getByRole("button", { name: "Create event" }).click();
      await dialog.getByText("Give the event a title").waitFor();
      await dialog.getByLabel("Title").fill("Planning");
      await dialog.getByLabel("Add a Google Meet video link").check();
      await dialog.getByRole("button", { name: "Create event" }).click();
      await page.locator(".toast", { hasText: "“Planning” is in your calendar" }).waitFor();
      const planning = meetings.locator(".event", { hasText: "Planning" });
      await planning.waitFor();
      expect(await planning.getByRole("link", { name: "Join Planning" }).getAttribute("href")).toBe(
        "https://meet.google.com/new-meet-xyz",
      );
      const created = google.events.find((e) => e.summary === "Planning");
      expect(created?.calendarId).toBe("primary");
    },
    STEP,
  );

  it(
    "lists open issues and pull requests with labels, filters them, and links out",
    async () => {
      const code = widget("Codehost");
      const issue = code.locator(".work-item", { hasText: "Issue 0" }).first();
      await issue.waitFor();
      expect(await issue.getByRole("link").first().getAttribute("href")).toBe(
        "https://github.com/octo/beta/issues/1",
      );
      expect(await issue.locator(".label-chip").allTextContents()).toEqual(["bug"]);
      expect(await code.locator(".tab-count").textContent()).toBe("45");
      // Odd issues live in octo/alpha: 22 of the 45.
      await code.getByRole("searchbox", { name: "Filter issues" }).fill("alpha");
      await expect.poll(() => code.locator(".work-item").count()).toBe(22);
      expect(
        (await code.locator(".work-item-meta").allTextContents()).every((meta) =>
          meta.includes("octo/alpha"),
        ),
      ).toBe(true);
      await code.getByRole("searchbox", { name: "Filter issues" }).fill("");
      await code.locator(".label-filter").getByRole("button", { pressed: false }).first().click();
      await expect.poll(() => code.locator(".work-item").count()).toBeLessThan(45);
      expect(
        (await code.locator(".work-item .label-row").allTextContents()).every((labels) =>
          labels.includes("bug"),
        ),
      ).toBe(true);

      await code.getByRole("tab", { name: /Pull requests/ }).click();
      const draft = code.locator(".work-item", { hasText: "PR 0" });
      await draft.waitFor();
      expect(await draft.locator(".draft-badge").textContent()).toBe("Draft");
      expect(await code.locator(".work-item").count()).toBe(5);
      await eventually(
        () => api("GET", `/api/widgets?dashboardId=${boardId}`),
        (r) => r.body.find((w: any) => w.widgetType === "Codehost")?.config.tab === "pulls",
        "the remembered tab",
      );
    },
    STEP,
  );

  it(
    "draws a year of contributions for the connected account's own login",
    async () => {
      const heatmap = widget("Codehost Heatmap");
      await heatmap.locator(".heatmap-total").waitFor();
      expect(await heatmap.locator(".heatmap-total").textContent()).toMatch(
        new RegExp(`^[\\d,]+ contributions in the last year by @${VIEWER_LOGIN}$`),
      );
      expect(await heatmap.locator(".heatmap-svg rect").count()).toBeGreaterThanOrEqual(365);
      expect(await heatmap.locator(".heatmap-svg rect.hm-4").count()).toBeGreaterThan(0);
    },
    STEP,
  );

  it(
    "imports a Notion page as a new Markdown note",
    async () => {
      const notes = widget("Editor");
      await notes.getByRole("button", { name: "Import from Notion" }).click();
      const dialog = page.getByRole("dialog", { name: "Import from Notion" });
      await dialog.getByRole("searchbox", { name: "Search Notion pages" }).fill("project");
      await dialog.getByRole("button", { name: "Import Project plan" }).click();
      await page.locator(".toast", { hasText: "Imported “Project plan” from Notion" }).waitFor();
      expect(await notes.getByLabel("Note title").inputValue()).toBe("Project plan");
      await notes.locator(".markdown h1", { hasText: "Plan" }).waitFor();
      expect(await notes.locator(".markdown a[href='https://example.test/spec']").count()).toBe(1);
    },
    STEP,
  );

  it(
    "keeps the last prices on screen, marked stale, when a refresh fails; a good refresh clears it",
    async () => {
      // The server asks the exchange on every refresh here (CACHE_PRICES_SECONDS=0).
      await exchange.fail({ kind: "status", status: 500, message: "boom" });
      const crypto = widget("Crypto");
      const price = await crypto.locator('[data-pair="BTC-USD"] .crypto-price strong').textContent();
      await crypto.getByRole("button", { name: "Refresh prices" }).click();
      await crypto.locator(".data-stale").waitFor({ timeout: 20_000 });
      expect(await crypto.locator(".data-updated").textContent()).toMatch(/^From /);
      expect(await crypto.locator('[data-pair="BTC-USD"] .crypto-price strong').textContent()).toBe(price);
      await exchange.heal();
      await crypto.getByRole("button", { name: "Refresh prices" }).click();
      await expect.poll(() => crypto.locator(".data-stale").count(), { timeout: 15_000 }).toBe(0);
      expect(await crypto.locator(".data-updated").textContent()).toMatch(/^Updated just now/);
    },
    STEP,
  );

  it("holds every widget type on one dashboard, light and dark (screenshots)", async () => {
    const onBoard = async () => (await api("GET", `/api/widgets?dashboardId=${boardId}`)).body as any[];
    const held = new Set((await onBoard()).map((w) => w.widgetType));
    for (const { name, type } of OFFERED_WIDGETS) if (!held.has(type)) await addFromPicker(name, type);
    const list = await onBoard();
    expect(list.map((w) => w.widgetType).sort()).toEqual(OFFERED_WIDGETS.map((w) => w.type).sort());

    // A tidy layout and some content, so the pictures show what each widget looks like in use.
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
          { id: "t3", text: "Send the invitations", done: false, createdAt: new Date().toISOString() },
        ],
      },
      Kanban: {
        columns: [
          { id: "c1", title: "To do", color: "#64748b", cards: [{ id: "k1", title: "Write the brief" }] },
          { id: "c2", title: "Doing", color: "#3b82f6", cards: [{ id: "k2", title: "Sketch the layout" }] },
          { id: "c3", title: "Done", color: "#10b981", cards: [{ id: "k3", title: "Pick a date" }] },
        ],
      },
      Feed: {
        feeds: [
          { id: "f1", url: `${feeds.url}/rss.xml` },
          { id: "f2", url: `${feeds.url}/atom.xml` },
        ],
        limit: 4,
      },
      // Not checked yet (no watch pass here): the list with its footer; e2e/status.e2e.test.ts runs passes.
      Status: { checks: [{ id: "s1", name: "Tessera", url: baseUrl }] },
      Bookmark: {
        bookmarks: [
          { id: "b1", title: "Tessera docs", url: `${baseUrl}/docs` },
          { id: "b2", title: "Status page", url: "https://status.example.test/" },
        ],
      },
    };
    // A type added after this layout was drawn goes under it, one row each.
    const unplaced = list.filter((w) => !layout[w.widgetType]);
    for (const [i, w] of unplaced.entries()) layout[w.widgetType] = [0, 1320 + i * 260, 540, 240];
    for (const w of list) {
      const [positionX, positionY, width, height] = layout[w.widgetType]!;
      const body: Record<string, unknown> = { id: w.id, positionX, positionY, width, height };
      if (content[w.widgetType]) body.config = content[w.widgetType];
      expect((await api("PUT", "/api/widgets", body)).status).toBe(200);
    }
    await page.reload();
    // Each shows its data, or (a type this layout gives no content, asking for nothing yet) says
    // what to set up.
    for (const { type } of DATA_WIDGETS)
      await widget(type).locator(".data-status, .widget-empty").first().waitFor({ timeout: 15_000 });
    await dismissToasts();
    await page.mouse.move(0, 0);
    expect(await page.locator("[data-widget-type]").count()).toBe(OFFERED_WIDGETS.length);
    await page.screenshot({ path: path.join(ARTIFACTS, "data-widgets-light.png"), fullPage: true });
    // On a phone the same widgets stack in reading order.
    await page.setViewportSize({ width: 400, height: 860 });
    await widget("Crypto").locator(".data-status").waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, "data-widgets-mobile.png") });
    await page.setViewportSize({ width: 1600, height: 1300 });

    const settings = await api("GET", "/api/settings");
    await api("PUT", "/api/settings", {
      id: settings.body[0].id,
      config: { ...settings.body[0].config, theme: "dark" },
    });
    await page.reload();
    // Each shows its data, or (a type this layout gives no content, asking for nothing yet) says
    // what to set up.
    for (const { type } of DATA_WIDGETS)
      await widget(type).locator(".data-status, .widget-empty").first().waitFor({ timeout: 15_000 });
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    await dismissToasts();
    await page.mouse.move(0, 0);
    await page.screenshot({ path: path.join(ARTIFACTS, "data-widgets-dark.png"), fullPage: true });
    await api("PUT", "/api/settings", {
      id: settings.body[0].id,
      config: { ...settings.body[0].config, theme: "light" },
    });
  }, 90_000);

  it(
    "opens every widget's settings panel, generated fields and custom parts alike (screenshots)",
    async () => {
      for (const { type, name } of OFFERED_WIDGETS) {
        const open = widget(type).getByRole("button", { name: `${name} settings` });
        if ((await open.count()) === 0) continue;
        await open.click();
        const dialog = page.getByRole("dialog", { name: `${name} settings` });
        await dialog.getByRole("button", { name: "Save" }).waitFor();
        // Each panel offers something to change: a field, a choice or a list action.
        expect(
          await dialog.locator("input, select, textarea, button:not([type=submit])").count(),
        ).toBeGreaterThan(1);
        // Data-backed choices (currencies, labels, calendars) have loaded before the picture.
        await expect.poll(() => dialog.locator(".skeleton").count()).toBe(0);
        await dialog.screenshot({ path: path.join(ARTIFACTS, `settings-${type.replace(" ", "-")}.png`) });
        await dialog.getByRole("button", { name: "Cancel" }).click();
        await dialog.waitFor({ state: "detached" });
      }
    },
    // Fourteen panels, each with its data and a screenshot: one step's budget per few panels,
    // so a loaded machine is slower, not failing.
    STEP * 3,
  );

  it(
    "shows Connect again after disconnecting a provider",
    async () => {
      const dialog = await openSettingsTab("Connections");
      await dialog.getByRole("button", { name: "Disconnect GitHub" }).click();
      await page.locator(".toast", { hasText: "GitHub is disconnected" }).waitFor();
      await dialog.getByRole("link", { name: "Connect GitHub" }).waitFor();
      await closeDialogs();
      await widget("Codehost").getByRole("link", { name: "Connect GitHub" }).waitFor();
      await widget("Codehost Heatmap").getByRole("link", { name: "Connect GitHub" }).waitFor();
      expect(await widget("Codehost").locator(".work-item").count()).toBe(0);
      // The other accounts are untouched.
      expect(await widget("Inbox").locator(".mail-row").count()).toBeGreaterThan(0);
    },
    STEP,
  );

  it(
    "publishes the dashboard and shows it read-only to a visitor without a session",
    async () => {
      await page.getByRole("button", { name: "Mission control", exact: true }).click();
      await page.getByRole("button", { name: /^Share…/ }).click();
      const share = page.getByRole("dialog", { name: "Share “Mission control”" });
      await share.getByRole("switch", { name: /Public link/ }).check();
      const link = share.getByRole("textbox", { name: "Public link" });
      await link.waitFor();
      expect(await link.inputValue()).toBe(`${baseUrl}/p/${boardId}`);
      await eventually(
        () => api("GET", "/api/dashboards"),
        (r) => r.body.find((d: any) => d.id === boardId)?.isPublic === true,
        "isPublic",
      );
      await closeDialogs();

      const visitor = await browser.newContext({ viewport: { width: 1600, height: 1300 }, locale: "en-GB" });
      try {
        const guest = await visitor.newPage();
        const errors: string[] = [];
        guest.on("pageerror", (e) => errors.push(e.message));
        await guest.goto(`${baseUrl}/p/${boardId}`);
        await guest.getByRole("heading", { name: "Mission control", level: 1 }).waitFor();
        expect(guest.url()).toBe(`${baseUrl}/p/${boardId}`);
        await guest.locator('[data-widget-type="Clock"]').waitFor();
        const types = await guest
          .locator("[data-widget-type]")
          .evaluateAll((cards) => cards.map((c) => c.getAttribute("data-widget-type")));
        expect(types.sort()).toEqual(
          OFFERED_WIDGETS.map((w) => w.type)
            .filter((t) => !PRIVATE_TYPES.includes(t))
            .sort(),
        );
        const text = (await guest.locator("body").textContent()) ?? "";
        for (const secret of ["Subject 0", "Design review", "Issue 0", VIEWER_LOGIN, email])
          expect(text).not.toContain(secret);
        // Nothing can be edited: no widget actions, no inputs, no buttons (notes are rendered,
        // prices and forecasts refresh by themselves).
        expect(await guest.getByRole("button", { name: /settings$/ }).count()).toBe(0);
        expect(await guest.getByRole("button", { name: "Add widget" }).count()).toBe(0);
        expect(
          await guest.$$eval("input, textarea, select, button", (els) =>
            els.filter((e) => !(e as HTMLInputElement).disabled).map((e) => e.outerHTML.slice(0, 80)),
          ),
        ).toEqual([]);
        // Live data comes through the public endpoints: prices and a temperature, no sign-in prompt.
        const publicCrypto = guest.locator('[data-widget-type="Crypto"]');
        const price = publicCrypto.locator(".crypto-price strong").first();
        await price.waitFor();
        expect(await price.textContent()).toMatch(/^US\$|^\$[\d,]+/);
        const publicWeather = guest.locator('[data-widget-type="Weather"]');
        await publicWeather.locator(".weather-temp").waitFor();
        expect(await publicWeather.locator(".weather-temp").textContent()).toMatch(/^-?\d+°[CF]$/);
        expect(await guest.getByRole("link", { name: "Sign in to Tessera" }).count()).toBe(0);
        await guest.screenshot({ path: path.join(ARTIFACTS, "public-dashboard.png"), fullPage: true });
        expect(errors).toEqual([]);
      } finally {
        await visitor.close();
      }

      // Unpublished, the link leads nowhere (a new visitor: the public answer may be cached for 30 s).
      await page.getByRole("button", { name: "Mission control", exact: true }).click();
      await page.getByRole("button", { name: /^Share…/ }).click();
      await page.getByRole("switch", { name: /Public link/ }).uncheck();
      await eventually(
        () => api("GET", "/api/dashboards"),
        (r) => r.body.find((d: any) => d.id === boardId)?.isPublic === false,
        "isPublic off",
      );
      await closeDialogs();
      const later = await browser.newContext();
      try {
        const guest = await later.newPage();
        await guest.goto(`${baseUrl}/p/${boardId}`);
        await guest.getByRole("heading", { name: "This dashboard isn't shared" }).waitFor();
      } finally {
        await later.close();
      }
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );
});
