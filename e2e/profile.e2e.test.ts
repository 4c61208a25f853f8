import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import en from "../src/web/i18n/locales/en.json";
import { axeBlocking } from "./support/axe.js";
import { stylesSettled } from "./support/page-helpers.js";
import { type E2eApp, type Person, startApp } from "./support/web-app.js";

/**
 * Settings › Profile (issue 35) as its owner uses it, in Chromium against the built app: a
 * picture that shows in the header, a new password that signs the other device out and signs in,
 * a new email address, and the sessions list naming where each device signed in from. The tab is
 * photographed at 390 and 1440 px, light and dark.
 */

const ARTIFACTS = path.resolve("test-results");
const STEP = 90_000;
const PASSWORD = "the-first-password";
const NEW_PASSWORD = "a-second-password";

const p = en.settings.profile;

let app: E2eApp;
let baseUrl: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  app = await startApp();
  baseUrl = app.baseUrl;
}, 300_000);

afterAll(async () => {
  await app?.stop();
  expect(pageErrors).toEqual([]);
});

/** The page at 390 and 1440 px, light and dark (the person follows the system's theme). */
async function photograph(page: Page, name: string) {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(scheme);
      await stylesSettled(page);
      await page.screenshot({ path: path.join(ARTIFACTS, `profile-${name}-${width}-${scheme}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** A picture as a camera would give one: wider than tall, drawn by the browser, as PNG bytes. */
async function landscapePng(page: Page): Promise<Buffer> {
  const url = await page.evaluate(() => {
    const canvas = document.createElement("canvas");
    canvas.width = 600;
    canvas.height = 400;
    const g = canvas.getContext("2d")!;
    g.fillStyle = "#2b6cb0";
    g.fillRect(0, 0, 600, 400);
    g.fillStyle = "#f6ad55";
    g.beginPath();
    g.arc(300, 200, 150, 0, Math.PI * 2);
    g.fill();
    g.fillStyle = "#1a202c";
    g.fillRect(0, 0, 100, 400);
    return canvas.toDataURL("image/png");
  });
  return Buffer.from(url.slice(url.indexOf(",") + 1), "base64");
}

const toast = (page: Page, text: string) => page.locator(".toast", { hasText: text }).waitFor();

describe("Settings › Profile", () => {
  let paula: Person;
  let page: Page;

  beforeAll(async () => {
    paula = await app.person({
      name: "Paula Profile",
      password: PASSWORD,
      settings: { theme: "system" },
    });
    page = paula.page;
    page.on("pageerror", (error) => pageErrors.push(error.message));
  }, STEP);

  it(
    "uploads a picture, cropped to a small square, and shows it in the header",
    async () => {
      await page.goto(`${baseUrl}/?settings=profile`);
      const dialog = page.getByRole("dialog", { name: en.settings.title, exact: true });
      await dialog.getByRole("button", { name: p.avatar.upload }).waitFor();
      // No picture yet: initials in the header.
      const accountButton = page.getByRole("button", { name: `Account: Paula Profile` });
      expect(await accountButton.locator("img").count()).toBe(0);
      await photograph(page, "empty");

      await dialog.locator('input[type="file"]').setInputFiles({
        name: "holiday.png",
        mimeType: "image/png",
        buffer: await landscapePng(page),
      });
      await toast(page, p.avatar.saved);
      const headerImage = accountButton.locator("img");
      await headerImage.waitFor();
      const src = (await headerImage.getAttribute("src")) ?? "";
      expect(src).toMatch(/^data:image\/webp;base64,/);
      // A 128 px square, a few KB: the server keeps no more than the browser made.
      expect(
        await headerImage.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]),
      ).toEqual([128, 128]);
      expect(src.length).toBeLessThan(16 * 1024);
      // The centre of the picture (the sun), not its dark left edge, is what was kept.
      const centre = await headerImage.evaluate((img: HTMLImageElement) => {
        const canvas = document.createElement("canvas");
        canvas.width = 128;
        canvas.height = 128;
        const g = canvas.getContext("2d")!;
        g.drawImage(img, 0, 0);
        return [
          ...g.getImageData(64, 64, 1, 1).data.slice(0, 3),
          ...g.getImageData(2, 64, 1, 1).data.slice(0, 3),
        ];
      });
      // The sun's orange in the middle; blue, not the dark strip left of the square, at its edge.
      expect(centre[0]).toBeGreaterThan(200);
      expect(centre[5]).toBeGreaterThan(120);
      const me = await paula.api("GET", "/api/me");
      expect(me.body.image).toBe(src);
      // After a reload too: it comes with the first screen.
      await page.reload();
      await accountButton.locator("img").waitFor();
      await dialog.getByRole("button", { name: p.avatar.remove }).waitFor();
      expect(await axeBlocking(page)).toEqual([]);
      await photograph(page, "picture");
    },
    STEP,
  );

  it(
    "changes the password: a wrong current one is refused, the other device is signed out, the new one signs in",
    async () => {
      const laptop = await app.browser.newContext();
      const signIn = await laptop.request.post(`${baseUrl}/api/auth/sign-in/email`, {
        headers: { origin: baseUrl, "content-type": "application/json" },
        data: JSON.stringify({ email: paula.user.email, password: PASSWORD }),
      });
      expect(signIn.status()).toBe(200);
      expect((await laptop.request.get(`${baseUrl}/api/me`)).status()).toBe(200);

      await page.goto(`${baseUrl}/?settings=profile`);
      const dialog = page.getByRole("dialog", { name: en.settings.title, exact: true });
      await dialog.getByRole("button", { name: p.password.change }).click();
      await dialog.getByLabel(p.password.current, { exact: true }).fill("not-my-password");
      await dialog.getByLabel(p.password.new, { exact: true }).fill(NEW_PASSWORD);
      await dialog.getByRole("button", { name: p.password.change }).click();
      await dialog.getByText(p.password.wrong).waitFor();
      expect(await axeBlocking(page)).toEqual([]);
      await dialog.getByRole("button", { name: p.password.change }).scrollIntoViewIfNeeded();
      await photograph(page, "password-refused");
      expect((await laptop.request.get(`${baseUrl}/api/me`)).status()).toBe(200);

      await dialog.getByLabel(p.password.current, { exact: true }).fill(PASSWORD);
      await dialog.getByRole("button", { name: p.password.change }).click();
      await toast(page, p.password.changedSignedOut_one.replace("{{count}}", "1"));
      // This device stays signed in; the laptop is out at once.
      expect((await paula.api("GET", "/api/me")).status).toBe(200);
      expect((await laptop.request.get(`${baseUrl}/api/me`)).status()).toBe(401);
      await laptop.close();

      // Signed out, the old password no longer opens the account and the new one does.
      await page.keyboard.press("Escape");
      await expect.poll(() => page.getByRole("dialog").count()).toBe(0);
      await page.getByRole("button", { name: "Account: Paula Profile" }).click();
      await page.getByRole("button", { name: en.header.signOut }).click();
      await page.waitForURL(/\/signin/);
      await page.getByLabel(en.auth.email).fill(paula.user.email);
      await page.getByLabel(en.auth.password, { exact: true }).fill(PASSWORD);
      await page.getByRole("button", { name: en.auth.signIn, exact: true }).click();
      await page.getByText(en.errors.auth.invalid_email_or_password).waitFor();
      await page.getByLabel(en.auth.password, { exact: true }).fill(NEW_PASSWORD);
      await page.getByRole("button", { name: en.auth.signIn, exact: true }).click();
      await page.getByRole("button", { name: "Account: Paula Profile" }).locator("img").waitFor();
    },
    STEP,
  );

  it(
    "names where each device signed in, and changes the email address with the password",
    async () => {
      await page.goto(`${baseUrl}/?settings=sessions`);
      const dialog = page.getByRole("dialog", { name: en.settings.title, exact: true });
      const list = dialog.getByRole("list", { name: en.settings.sessions.listLabel });
      await list.getByText("127.0.0.1").first().waitFor();
      await list
        .getByText(/Chrome on Linux/)
        .first()
        .waitFor();
      await photograph(page, "sessions");

      await dialog.getByRole("tab", { name: en.settings.tabs.profile }).click();
      await dialog.getByRole("button", { name: p.email.change }).click();
      const address = `paula-${Date.now()}@example.test`;
      await dialog.getByLabel(p.email.new).fill(address);
      await dialog.getByLabel(p.password.current, { exact: true }).fill(NEW_PASSWORD);
      await photograph(page, "email-form");
      await dialog.getByRole("button", { name: p.email.change }).click();
      await toast(page, p.email.changed.replace("{{email}}", address));
      expect((await paula.api("GET", "/api/me")).body.email).toBe(address);
      await dialog.locator(".profile-email", { hasText: address }).waitFor();
      // The account menu says it too (the page was opened on the settings, so it is left for the board).
      await page.goto(baseUrl);
      await page.getByRole("button", { name: "Account: Paula Profile" }).click();
      await page.locator(".user-card", { hasText: address }).waitFor();
    },
    STEP,
  );
});
