import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeWeather } from "../src/widgets/weather/fake.js";
import { eventually, inScheme } from "./support/page-helpers.js";
import { type E2eApp, type Person, startApp } from "./support/web-app.js";

/**
 * The installable app (issue 34) in Chromium against the compiled server: the manifest and icons
 * are served and linked, the service worker controls the page, Chromium finds the app
 * installable, and with the network gone a reload still shows the dashboard with its widgets'
 * last data (a to-do list from the dashboard's own answer, the weather from its data answer, the
 * weather service a fake on loopback) under the offline banner, which leaves when the network is
 * back. Pictures of the banner at 390 and 1440 px, light and dark, go to SHOTS_DIR.
 */
const SHOTS = process.env.SHOTS_DIR ?? "/tmp/shots/pwa";
const STEP = 90_000;

let app: E2eApp;
let weather: FakeWeather;
let person: Person;
let board: { id: string; widgets: { id: string }[] };
const pageErrors: string[] = [];

const page = (): Page => person.page;
const banner = () => page().locator("#offline-banner [role=status]");
const todo = () => page().locator('[data-widget-type="Todo"]');
const forecast = () => page().locator('[data-widget-type="Weather"]');

/** The person's API from outside their browser (another device of theirs): the browser's offline state does not reach it. */
async function fromElsewhere(method: string, url: string, body: unknown) {
  const cookies = await person.context.cookies(app.baseUrl);
  return fetch(`${app.baseUrl}${url}`, {
    method,
    headers: {
      cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; "),
      origin: app.baseUrl,
      "content-type": "application/json",
    },
    body: JSON.stringify(body),
  });
}

const TODOS = [
  { id: "t1", text: "Pack the charger", done: false, createdAt: "2026-01-05T08:00:00.000Z" },
  { id: "t2", text: "Water the plants", done: true, createdAt: "2026-01-05T08:01:00.000Z" },
];

/** The answers the worker keeps for offline use, by path and query. */
const keptCopies = () =>
  page().evaluate(async () => {
    const cache = await caches.open("tessera-copies-v1");
    return (await cache.keys()).map((request) => new URL(request.url).pathname + new URL(request.url).search);
  });

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  weather = await FakeWeather.start();
  app = await startApp({ env: { WEATHER_API_URL: weather.url, GEOCODING_API_URL: weather.url } });
  person = await app.person({
    name: "Olive Offline",
    settings: { theme: "system" },
    context: { viewport: { width: 1440, height: 1000 }, timezoneId: "Europe/Berlin", locale: "en-GB" },
  });
  person.page.on("pageerror", (error) => pageErrors.push(error.message));
  board = await person.board("Away from home", [
    {
      widgetType: "Todo",
      config: { todos: TODOS },
    },
    {
      widgetType: "Weather",
      positionX: 380,
      positionY: 0,
      config: { location: { name: "Berlin", latitude: 52.52, longitude: 13.405 }, unit: "celsius" },
    },
  ]);
}, 300_000);

afterAll(async () => {
  await app?.stop();
  await weather?.server.close();
  expect(pageErrors).toEqual([]);
});

describe("the installable app", () => {
  it("serves the manifest, icons and worker with their types, the worker never cached", async () => {
    const { baseUrl } = app;
    const manifest = await fetch(`${baseUrl}/manifest.webmanifest`, { headers: { "accept-encoding": "br" } });
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get("content-type")).toMatch(/^application\/manifest\+json/);
    const body = await manifest.json();
    expect(body).toMatchObject({
      name: "Tessera",
      short_name: "Tessera",
      start_url: "/",
      scope: "/",
      display: "standalone",
      theme_color: "#ffffff",
      background_color: "#f3f4f7",
    });
    for (const icon of body.icons as { src: string; type: string }[]) {
      const res = await fetch(`${baseUrl}${icon.src}`);
      expect(res.status, icon.src).toBe(200);
      expect(res.headers.get("content-type"), icon.src).toMatch(
        new RegExp(`^${icon.type.replace("+", "\\+")}`),
      );
    }
    const worker = await fetch(`${baseUrl}/sw.js`, { headers: { "accept-encoding": "br, gzip" } });
    expect(worker.headers.get("content-type")).toMatch(/javascript/);
    expect(worker.headers.get("cache-control")).toBe("no-cache");
    const source = await worker.text();
    // The build stamped it: its version and app shell (src/web/pwa/build/stamp-worker.mjs).
    expect(source).toMatch(/const BUILD = \{"version":"[0-9a-f]{16}","shell":\["\/",/);
    expect(source).toContain("showNotification");
  });

  it(
    "links the manifest, and the worker comes to control the page and keeps the dashboard",
    async () => {
      await page().goto(`${app.baseUrl}/d/${board.id}`);
      await todo().getByText("Pack the charger").waitFor();
      await forecast().locator(".weather-temp").waitFor();
      const head = await page().evaluate(() => ({
        manifest: document.querySelector('link[rel="manifest"]')?.getAttribute("href"),
        appleIcon: document.querySelector('link[rel="apple-touch-icon"]')?.getAttribute("href"),
        themeColor: document.querySelector('meta[name="theme-color"]')?.getAttribute("content"),
      }));
      expect(head).toEqual({
        manifest: "/manifest.webmanifest",
        appleIcon: "/icons/apple-touch-icon.png",
        themeColor: "#ffffff",
      });
      await eventually(
        () => page().evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null),
        (script) => script === `${app.baseUrl}/sw.js`,
        "the service worker to control the page",
        30_000,
      );
      // The first visit loaded before the worker was there; from the next load on, it keeps
      // copies of what the dashboard asks for (as when the app is opened from the home screen).
      await page().reload();
      await forecast().locator(".weather-temp").waitFor();
      await eventually(
        keptCopies,
        (paths) =>
          paths.includes(`/api/bootstrap?dashboardId=${board.id}`) &&
          paths.some((p) => p.startsWith("/api/weather?")),
        "the dashboard's and the forecast's copies",
        30_000,
      );
    },
    STEP,
  );

  it(
    "is installable in Chromium's own judgement",
    async () => {
      // Chromium never offers to install from an incognito profile, which a new context is: this
      // check runs in a profile on disk, as a person's browser would.
      const profile = mkdtempSync(path.join(tmpdir(), "tessera-pwa-profile-"));
      const browser = await chromium.launchPersistentContext(profile, {
        executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
        args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
      });
      try {
        const visitor = browser.pages()[0] ?? (await browser.newPage());
        await visitor.goto(`${app.baseUrl}/signin`);
        await eventually(
          () => visitor.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null),
          (script) => script === `${app.baseUrl}/sw.js`,
          "the service worker to control the sign-in page",
          30_000,
        );
        const cdp = await browser.newCDPSession(visitor);
        const manifest = (await cdp.send("Page.getAppManifest")) as { url: string; errors: unknown[] };
        expect(manifest.url).toBe(`${app.baseUrl}/manifest.webmanifest`);
        expect(manifest.errors).toEqual([]);
        const { installabilityErrors } = (await cdp.send("Page.getInstallabilityErrors")) as {
          installabilityErrors: { errorId: string }[];
        };
        expect(installabilityErrors).toEqual([]);
      } finally {
        await browser.close();
        rmSync(profile, { recursive: true, force: true });
      }
    },
    STEP,
  );

  it(
    "opens offline with the widgets' last data and a polite banner, which leaves when back online",
    async () => {
      const temperature = await forecast().locator(".weather-temp").textContent();
      expect(await banner().textContent()).toBe("");
      await person.context.setOffline(true);
      // While this device is offline the list changes elsewhere: what the reload shows is the copy.
      const [packing, watering] = TODOS;
      const changed = await fromElsewhere("PUT", "/api/widgets", {
        id: board.widgets[0]!.id,
        config: { todos: [{ ...packing, text: "Pack the charger and the cable" }, watering] },
      });
      expect(changed.status).toBe(200);
      await page().reload();
      await todo().getByText("Pack the charger", { exact: true }).waitFor();
      await expect.poll(() => todo().getByText("Water the plants").isVisible()).toBe(true);
      await forecast().locator(".weather-temp").waitFor();
      expect(await forecast().locator(".weather-temp").textContent()).toBe(temperature);
      await expect
        .poll(() => banner().textContent())
        .toMatch(/^You're offline: showing what was loaded at \d\d:\d\d$/);
      // A polite live region that was in the page before its text came.
      expect(await banner().getAttribute("role")).toBe("status");

      for (const width of [390, 1440]) {
        await page().setViewportSize({ width, height: width === 390 ? 844 : 1000 });
        for (const scheme of ["light", "dark"] as const) {
          await inScheme(page(), scheme);
          await banner().locator(".offline-banner").waitFor();
          await page().screenshot({ path: path.join(SHOTS, `pwa-offline-${width}-${scheme}.png`) });
        }
      }
      await page().emulateMedia({ colorScheme: "light" });
      await page().setViewportSize({ width: 1440, height: 1000 });

      await person.context.setOffline(false);
      await expect.poll(() => banner().textContent()).toBe("");
      expect(await page().locator(".offline-banner").count()).toBe(0);
      // Online, the server's answers win over the copies again.
      await page().reload();
      await todo().getByText("Pack the charger and the cable").waitFor();
      expect(await banner().textContent()).toBe("");
    },
    STEP,
  );
});
