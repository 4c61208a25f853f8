import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FEEDS, startFakeCalendars } from "../src/widgets/calendar/fake.js";
import type { FakeServer } from "../test/fakes/oauth-http.js";
import { eventually, inScheme } from "./support/page-helpers.js";
import { type E2eApp, type Person, startApp } from "./support/web-app.js";

/**
 * The Calendar widget in Chromium against the compiled server: added from the picker, two feeds
 * (Google's and Outlook's quirks) and a broken one typed into its settings, the agenda by day in
 * the reader's zone with a dot per calendar, the "now" line and the failing calendar named.
 * Screenshots at phone and desktop width, light and dark.
 */

const ARTIFACTS = path.resolve("test-results");
const STEP = 90_000;

let app: E2eApp;
let feeds: FakeServer;
let person: Person;
let boardId = "";
const pageErrors: string[] = [];
const NEXTCLOUD_PASSWORD = "app-password-e2e-2b7f";

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  // The feeds are dated from the real clock: the compiled server reads it too.
  feeds = await startFakeCalendars({ accounts: { anna: NEXTCLOUD_PASSWORD } });
  // The fake host lives on loopback, which a user's address may reach only when the operator allows it.
  app = await startApp({ env: { FETCH_ALLOW_PRIVATE: "127.0.0.1/32" } });
  person = await app.person({
    name: "Grace Hopper",
    settings: { theme: "system" },
    context: { viewport: { width: 1440, height: 1000 }, timezoneId: "Europe/Berlin", locale: "en-GB" },
  });
  person.page.on("pageerror", (error) => pageErrors.push(error.message));
  boardId = (await person.board("Family")).id;
  // Nextcloud behind its app password, saved as a connection (the first user is the admin, who
  // may let it reach the home network).
  const saved = await person.api("POST", "/api/integrations", {
    kind: "ical",
    name: "Nextcloud",
    url: `${feeds.url}${FEEDS.nextcloud}`,
    allowPrivate: true,
    secrets: { username: "anna", password: NEXTCLOUD_PASSWORD },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  await person.page.goto(`${app.baseUrl}/d/${boardId}`);
  await person.page.getByRole("heading", { name: "Family", level: 1 }).waitFor();
}, 300_000);

afterAll(async () => {
  await app?.stop();
  await feeds?.close();
});

describe("the Calendar widget in the browser", () => {
  const widget = (): Locator => person.page.locator('[data-widget-type="Calendar"]');

  it(
    "is added empty, takes feeds in its settings, and shows their events by day",
    async () => {
      const { page, api } = person;
      await page.getByRole("button", { name: "Add widget" }).first().click();
      await page.getByRole("button", { name: /^Add Calendar:/ }).click();
      await widget().getByText("Add the address of a calendar").waitFor();

      await widget().getByRole("button", { name: "Add a calendar" }).click();
      const panel = page.getByRole("dialog", { name: "Calendar settings" });
      const sources = [
        ["Family", `${feeds.url}${FEEDS.google}`],
        ["Work", `${feeds.url}${FEEDS.outlook}`],
        ["Intranet", `${feeds.url}${FEEDS.login}`],
      ] as const;
      for (const [i, [name, address]] of sources.entries()) {
        await panel.getByRole("button", { name: "Add calendar" }).click();
        await panel.getByLabel("Name", { exact: true }).nth(i).fill(name);
        await panel.getByLabel("Address of the calendar (iCal)").nth(i).fill(address.replace("http://", ""));
      }
      // The fourth from the saved connection: its address and password stay on the server.
      await panel.getByRole("button", { name: "Add calendar" }).click();
      await panel.getByLabel("Name", { exact: true }).nth(3).fill("Personal");
      await panel.getByRole("radio", { name: "Saved connection" }).nth(3).check();
      expect(await panel.getByLabel("Connection", { exact: true }).inputValue()).toBe(
        (await api("GET", "/api/integrations")).body[0].id,
      );
      // Work (the second row) in purple.
      await panel.getByRole("radio", { name: "#8b5cf6" }).nth(1).check();
      await panel.getByLabel("Remind me").selectOption("10");
      await panel.getByRole("button", { name: "Save" }).click();

      await eventually(
        () => api("GET", `/api/widgets?dashboardId=${boardId}`),
        (r) => r.body[0]?.config.sources?.length === 4 && r.body[0].config.remindMinutesBefore === 10,
        "the saved calendars",
      );
      const [stored] = (await api("GET", `/api/widgets?dashboardId=${boardId}`)).body;
      expect(
        stored.config.sources.slice(0, 3).map((s: { name: string; url: string }) => [s.name, s.url]),
      ).toEqual(sources.map(([name, address]) => [name, address]));
      expect(stored.config.sources[3]).toMatchObject({ name: "Personal", integrationId: expect.any(String) });
      expect(stored.config.sources[3].url).toBeUndefined();
      expect(stored.config.sources[1].color).toBe("#8b5cf6");

      await widget().locator(".calendar-title", { hasText: "Quarterly review" }).waitFor();
      await widget().locator(".calendar-title", { hasText: "Anna's birthday" }).first().waitFor();
      await widget().locator(".calendar-title", { hasText: "Yoga" }).first().waitFor();
      // The override Google writes before its series, and a floating time in the calendar's zone.
      await widget().locator(".calendar-title", { hasText: "Standup (moved)" }).waitFor();
      expect(
        await widget()
          .locator(".calendar-event", { hasText: "Dinner at Rosa's" })
          .locator(".calendar-time")
          .textContent(),
      ).toBe("19:00 – 21:30");
      expect(
        await widget()
          .locator(".calendar-event", { hasText: "Quarterly review" })
          .locator(".calendar-time")
          .textContent(),
      ).toBe("14:00 – 15:30");
      // 10:00 in New York is 16:00 in Berlin.
      expect(
        await widget()
          .locator(".calendar-event", { hasText: "Call with New York" })
          .locator(".calendar-time")
          .textContent(),
      ).toBe("16:00 – 16:30");
      const failure = widget().locator(".calendar-failure");
      expect(await failure.textContent()).toMatch(/^Intranet: this address shows a web page/);
      expect(await widget().locator(".calendar-day").first().getByRole("heading").textContent()).toMatch(
        /today/i,
      );
      await widget().locator(".calendar-now").waitFor();
      // Each event carries its calendar's colour.
      const dot = widget()
        .locator(".calendar-event", { hasText: "Quarterly review" })
        .locator(".calendar-dot");
      expect(await dot.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(139, 92, 246)");
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );

  for (const [width, height] of [
    [1440, 1000],
    [390, 844],
  ] as const) {
    it(
      `looks right at ${width} px, light and dark`,
      async () => {
        const { page } = person;
        await page.setViewportSize({ width, height });
        await widget().locator(".calendar-title", { hasText: "Quarterly review" }).waitFor();
        for (const scheme of ["light", "dark"] as const) {
          await inScheme(page, scheme);
          await widget().locator(".calendar-title", { hasText: "Quarterly review" }).waitFor();
          await page.mouse.move(0, 0);
          await widget().scrollIntoViewIfNeeded();
          await widget().screenshot({ path: path.join(ARTIFACTS, `calendar-${width}-${scheme}.png`) });
          if (width === 390)
            await page.screenshot({ path: path.join(ARTIFACTS, `calendar-page-${width}-${scheme}.png`) });
        }
        expect(pageErrors).toEqual([]);
      },
      STEP,
    );
  }

  it(
    "shows the settings with the calendars as saved",
    async () => {
      const { page } = person;
      await page.setViewportSize({ width: 1440, height: 1000 });
      await inScheme(page, "light");
      await page.getByRole("button", { name: "Calendar settings" }).click();
      const panel = page.getByRole("dialog", { name: "Calendar settings" });
      await expect.poll(() => panel.getByLabel("Name", { exact: true }).count()).toBe(4);
      expect(await panel.getByLabel("Name", { exact: true }).nth(1).inputValue()).toBe("Work");
      expect(await panel.getByLabel("Remind me").inputValue()).toBe("10");
      await panel.screenshot({ path: path.join(ARTIFACTS, "calendar-settings-light.png") });
      await page.keyboard.press("Escape");
    },
    STEP,
  );
});
