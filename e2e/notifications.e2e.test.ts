import { mkdirSync } from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeBlocking } from "./support/axe.js";
import { pageApi, stylesSettled } from "./support/page-helpers.js";
import { type Api, type E2eApp, type Person, startApp } from "./support/web-app.js";

/**
 * The notifications read mark lives on the server (issue 35): one person on a laptop and on a
 * phone, two browser contexts of the same user. Reading on one clears the badge on the other,
 * live; a fresh browser shows nothing already read as unread; one item can be dismissed by
 * keyboard, and the other device sees it go. Nothing here sleeps: every step waits on the page.
 */
const SHOTS = process.env.SHOTS_DIR ?? path.resolve("test-results");
const STEP = 60_000;
const PASSWORD = "a-long-enough-password";

let app: E2eApp;
let laptop: Person;
let phone: { context: BrowserContext; page: Page; api: Api };
let boardId: string;
const pageErrors: string[] = [];

const bell = (page: Page) => page.getByRole("button", { name: /^Notifications/ });
const badge = (page: Page) => page.getByTestId("unread-count");
const panel = (page: Page) => page.getByRole("dialog", { name: "Notifications" });
const items = (page: Page) => page.getByRole("list", { name: "Notification list" }).getByRole("listitem");

async function notify(type: string, message: string) {
  const res = await laptop.api("POST", "/api/notifications", { type, message });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; message: string };
}

/**
 * Opens the board on both devices and waits for their list and their stream: a stream sends the
 * notifications made after it was asked for (live, or from storage as it starts), and a toast
 * shows only for one the list did not have, so one made from here on toasts on both.
 */
async function openBoth() {
  await Promise.all(
    [laptop.page, phone.page].map(async (page) => {
      const answered = (path: string) =>
        page.waitForResponse(
          (res) => new URL(res.url()).pathname === path && res.request().method() === "GET",
        );
      const loaded = Promise.all([answered("/api/realtime"), answered("/api/notifications")]);
      await page.goto(`${app.baseUrl}/d/${boardId}`);
      for (const res of await loaded) expect(res.status()).toBe(200);
    }),
  );
}

/** A new notification, arrived live on both devices (only the stream makes toasts). */
async function bothLive(message: string) {
  await notify("message", message);
  for (const page of [laptop.page, phone.page]) await page.locator(".toast", { hasText: message }).waitFor();
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  app = await startApp();
  const email = `nora-${Date.now()}@example.test`;
  laptop = await app.person({ name: "Nora Quinn", email, password: PASSWORD, settings: { theme: "system" } });
  // The phone: a browser that has never seen this account, signed in as the same user.
  const context = await app.browser.newContext({ viewport: { width: 390, height: 844 }, locale: "en-GB" });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const api = pageApi(
    () => page,
    () => app.baseUrl,
  );
  const signIn = await api("POST", "/api/auth/sign-in/email", { email, password: PASSWORD });
  expect(signIn.status, JSON.stringify(signIn.body)).toBe(200);
  phone = { context, page, api };
  for (const p of [laptop.page, phone.page]) p.on("pageerror", (error) => pageErrors.push(error.message));
  boardId = (await laptop.board("Home")).id;
}, 300_000);

afterAll(async () => {
  await app?.stop();
});

describe("notifications read on every device", () => {
  it(
    "reading on the laptop clears the phone's badge live, and a fresh browser agrees after reload",
    async () => {
      await notify("alert", "Backup failed on the NAS");
      await notify("reminder", "Water the plants");
      await openBoth();
      await bothLive("Deploy finished");
      for (const page of [laptop.page, phone.page])
        await expect.poll(() => badge(page).textContent()).toBe("3");

      await bell(laptop.page).click();
      await items(laptop.page).first().waitFor();
      // Opening marks all read on the server, and the phone hears of it without reloading.
      await expect.poll(() => badge(phone.page).count()).toBe(0);
      expect((await laptop.api("GET", "/api/notifications/read")).body.readUpTo).toBeTruthy();
      expect(await bell(phone.page).getAttribute("aria-label")).toBe("Notifications");
      await laptop.page.keyboard.press("Escape");
      expect(await badge(laptop.page).count()).toBe(0);

      // The mark is the server's: after a reload (the bootstrap answer) nothing is unread.
      await phone.page.reload();
      await bell(phone.page).click();
      await items(phone.page).first().waitFor();
      expect(await items(phone.page).count()).toBe(3);
      expect(await phone.page.locator(".bell-item.is-unread").count()).toBe(0);
      expect(await badge(phone.page).count()).toBe(0);
      await phone.page.keyboard.press("Escape");
      expect(await phone.page.evaluate(() => Object.keys(localStorage))).not.toContainEqual(
        expect.stringContaining("notifications-seen"),
      );

      // A new one is unread on both; reading it on the phone clears the laptop.
      await bothLive("Certificate renewed");
      for (const page of [laptop.page, phone.page])
        await expect.poll(() => badge(page).textContent()).toBe("1");
      await bell(phone.page).click();
      await expect.poll(() => badge(laptop.page).count()).toBe(0);
      await phone.page.keyboard.press("Escape");
    },
    STEP,
  );

  it(
    "dismisses one item by keyboard, keeps focus in the list, and the other device sees it go",
    async () => {
      await bell(phone.page).click();
      await bell(laptop.page).click();
      const target = "Water the plants";
      await items(phone.page).filter({ hasText: target }).waitFor();
      const before = await items(laptop.page).allTextContents();
      const index = before.findIndex((text) => text.includes(target));
      const next = before[index + 1]!;

      const dismiss = laptop.page.getByRole("button", { name: `Dismiss ${target}` });
      await dismiss.focus();
      await laptop.page.keyboard.press("Enter");
      await items(laptop.page).filter({ hasText: target }).waitFor({ state: "detached" });
      // Focus moved to the next item's dismiss button, still inside the panel.
      const focused = await laptop.page.evaluate(() => document.activeElement?.getAttribute("aria-label"));
      expect(next).toContain(focused!.replace(/^Dismiss /, "").replace(/…$/, ""));
      expect(focused).toMatch(/^Dismiss /);
      await panel(laptop.page).waitFor();

      // Gone on the server, and from the phone's open list without a reload.
      const listed = await laptop.api<{ message: string }[]>("GET", "/api/notifications");
      expect(listed.body.map((n) => n.message)).not.toContain(target);
      await items(phone.page).filter({ hasText: target }).waitFor({ state: "detached" });
      expect(await items(phone.page).count()).toBe(before.length - 1);
      for (const page of [laptop.page, phone.page]) await page.keyboard.press("Escape");
    },
    STEP,
  );

  it(
    "shows the open panel at 1440 and 390 px, light and dark, with unread items and dismiss buttons",
    async () => {
      const page = laptop.page;
      const fresh = {
        1440: [
          ["alert", "Disk on the NAS is 91% full: clear old snapshots or add a drive before Friday"],
          ["message", "Nora shared “Family” with you"],
        ],
        390: [["reminder", "Stand-up in 10 minutes: the agenda is in the team notes"]],
      } as const;
      for (const width of [1440, 390] as const) {
        // Each picture shows some unread (highlighted) ones above the read.
        for (const [type, message] of fresh[width]) await notify(type, message);
        await expect.poll(() => badge(page).textContent()).toBe(String(fresh[width].length));
        // Their toasts would cover the panel in the pictures.
        const closeToast = page.locator(".toast").getByRole("button", { name: "Dismiss", exact: true });
        while ((await closeToast.count()) > 0) await closeToast.first().click();
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        await bell(page).click();
        await items(page).first().waitFor();
        for (const scheme of ["light", "dark"] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(scheme);
          await stylesSettled(page);
          await page.screenshot({ path: path.join(SHOTS, `notifications-panel-${width}-${scheme}.png`) });
          expect(await axeBlocking(page), `panel at ${width} in ${scheme}`).toEqual([]);
        }
        // Nothing sticks out sideways: the panel is on screen, each dismiss button inside it.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        const box = (await panel(page).boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(width);
        for (const button of await panel(page)
          .getByRole("button", { name: /^Dismiss / })
          .all()) {
          const b = (await button.boundingBox())!;
          expect(b.x + b.width).toBeLessThanOrEqual(box.x + box.width);
          expect(b.width).toBeGreaterThanOrEqual(24);
        }
        await page.keyboard.press("Escape");
        await page.emulateMedia({ colorScheme: "light" });
      }
    },
    STEP,
  );

  it(
    "Clear all empties both devices' lists, and focus stays in the panel",
    async () => {
      await bell(phone.page).click();
      await items(phone.page).first().waitFor();
      await bell(laptop.page).click();
      await laptop.page.getByRole("button", { name: "Clear all" }).click();
      await panel(laptop.page).getByText("You're all caught up").waitFor();
      expect(await laptop.page.evaluate(() => document.activeElement?.closest(".bell-panel") !== null)).toBe(
        true,
      );
      await panel(phone.page).getByText("You're all caught up").waitFor();
      expect((await laptop.api("GET", "/api/notifications")).body).toEqual([]);
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );
});
