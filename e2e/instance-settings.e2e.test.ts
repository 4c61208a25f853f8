import { mkdirSync } from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeBlocking } from "./support/axe.js";
import { eventually, inScheme, pageApi } from "./support/page-helpers.js";
import { type E2eApp, type Person, startApp } from "./support/web-app.js";

/**
 * Instance settings in Chromium against the compiled server, with SIGNUP_MODE and
 * FETCH_ALLOW_PRIVATE unset so the admin page decides: the admin closes sign-up, the sign-in and
 * sign-up pages say what that means, the admin creates an account whose owner then signs in; invite
 * and open mode read as they should; bad private networks are refused line by line. Steps run in order.
 */
const SHOTS = process.env.SHOTS_DIR ?? path.resolve("test-results");
const STEP = 60_000;

let app: E2eApp;
let admin: Person;
let visitor: BrowserContext;
const pageErrors: string[] = [];

async function shoot(on: Page, name: string, scheme: "light" | "dark") {
  await inScheme(on, scheme);
  await on.screenshot({ path: path.join(SHOTS, `${name}-${scheme}.png`), fullPage: true });
}

/** Phone and desktop, light and dark: `name-390-light.png` and so on; nothing scrolls sideways. */
async function shootWidths(on: Page, name: string) {
  for (const width of [390, 1440]) {
    await on.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    expect(
      await on.evaluate(() => document.documentElement.scrollWidth),
      `${name} at ${width}`,
    ).toBeLessThanOrEqual(width);
    for (const scheme of ["light", "dark"] as const) await shoot(on, `${name}-${width}`, scheme);
  }
  await on.emulateMedia({ colorScheme: "light" });
  await on.setViewportSize({ width: 1280, height: 900 });
}

async function visitorPage(): Promise<Page> {
  const page = await visitor.newPage();
  page.setDefaultTimeout(10_000);
  page.on("pageerror", (error) => pageErrors.push(error.message));
  return page;
}

/** The admin page's settings form: choose the mode and save. */
async function chooseMode(mode: "Invite only" | "Open" | "Closed") {
  const page = admin.page;
  const form = page.getByRole("form", { name: "Instance settings" });
  await form.getByRole("radio", { name: new RegExp(`^${mode}`) }).check();
  await form.getByRole("button", { name: "Save settings" }).click();
  await page.locator(".toast", { hasText: "Settings saved" }).last().waitFor();
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // Unset (empty), so the admin page decides both.
  app = await startApp({ env: { SIGNUP_MODE: "", FETCH_ALLOW_PRIVATE: "", ALERTS_WATCH_SECONDS: "1" } });
  // The system's theme, so the pictures show the page light and dark.
  admin = await app.person({ name: "Ada Admin", settings: { theme: "system" } });
  admin.page.on("pageerror", (error) => pageErrors.push(error.message));
  visitor = await app.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-GB" });
}, 300_000);

afterAll(async () => {
  await visitor?.close();
  await app?.stop();
});

describe("instance settings in the browser", () => {
  it(
    "closes sign-up on the admin page, and the sign-in and sign-up pages say what that means",
    async () => {
      const page = admin.page;
      expect((await admin.api("GET", "/api/me")).body.role).toBe("admin");
      await page.goto(`${app.baseUrl}/admin`);
      await page.getByRole("heading", { name: "Sign-up and instance settings" }).waitFor();
      const form = page.getByRole("form", { name: "Instance settings" });
      // Nothing chosen yet: the default, invite only.
      expect(await form.getByRole("radio", { name: /^Invite only/ }).isChecked()).toBe(true);
      await chooseMode("Closed");
      expect((await admin.api("GET", "/api/admin/settings")).body.signupMode).toMatchObject({
        value: "closed",
        source: "admin",
      });
      // Invites let nobody in while sign-up is closed: none are offered, and the page says why.
      await page.getByText("Sign-up is closed, so invite links let nobody in").waitFor();
      expect(await page.getByRole("button", { name: "Create invite link" }).count()).toBe(0);
      expect(await axeBlocking(page)).toEqual([]);
      await shootWidths(page, "admin-settings-closed");

      const signIn = await visitorPage();
      await signIn.goto(`${app.baseUrl}/signin`);
      await signIn.getByText("Accounts on this Tessera are created by its admins").waitFor();
      expect(await signIn.getByRole("link", { name: "Create an account" }).count()).toBe(0);
      expect(await axeBlocking(signIn)).toEqual([]);
      await shootWidths(signIn, "signin-closed");

      await signIn.goto(`${app.baseUrl}/signup`);
      await signIn.getByRole("heading", { name: "Sign-up is closed" }).waitFor();
      await signIn.getByText("New accounts on this Tessera are created by its administrator").waitFor();
      expect(await signIn.getByRole("button", { name: "Create account" }).count()).toBe(0);
      await shootWidths(signIn, "signup-closed");
      await signIn.close();
    },
    STEP * 3,
  );

  it(
    "lets the admin create an account while sign-up is closed, and its owner signs in",
    async () => {
      const page = admin.page;
      const email = `made-${Date.now()}@example.test`;
      const section = page.getByRole("region", { name: "Create an account" });
      await section.getByText("Sign-up is closed, so this is how people get in").waitFor();
      const form = section.getByRole("form", { name: "New account" });
      await form.getByLabel("Name").fill("Grace Made");
      await form.getByLabel("Email").fill(email);
      await form.getByRole("button", { name: "Create the account" }).click();
      await section.getByRole("heading", { name: "Grace Made's account is ready" }).waitFor();
      const password = await section
        .getByRole("textbox", { name: "Initial password", exact: true })
        .inputValue();
      expect(password).toMatch(/^[\w-]{20,}$/);
      await page
        .getByRole("table", { name: "Users" })
        .getByRole("rowheader", { name: /Grace Made/ })
        .waitFor();
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SHOTS, "admin-account-created-light.png") });
      await section.getByRole("button", { name: "Done" }).click();
      await form.waitFor();

      // A taken address is refused at the field.
      await form.getByLabel("Name").fill("Again");
      await form.getByLabel("Email").fill(email);
      await form.getByRole("button", { name: "Create the account" }).click();
      await form.getByText("There is already an account with this address.").waitFor();

      const newcomer = await visitorPage();
      await newcomer.goto(`${app.baseUrl}/signin`);
      await newcomer.getByLabel("Email").fill(email);
      await newcomer.getByLabel("Password", { exact: true }).fill(password);
      await newcomer.getByRole("button", { name: "Sign in", exact: true }).click();
      // Signed in: the first-run tour greets them.
      await newcomer.getByRole("button", { name: "Skip" }).click();
      const me = await pageApi(
        () => newcomer,
        () => app.baseUrl,
      )("GET", "/api/me");
      expect(me.body).toMatchObject({ email, role: "member", name: "Grace Made" });
      await newcomer.context().clearCookies();
      await newcomer.close();
    },
    STEP * 2,
  );

  it(
    "in invite mode offers no dead-end sign-up link, unless the address carries an invite; open mode offers it",
    async () => {
      await chooseMode("Invite only");
      const page = await visitorPage();
      await page.goto(`${app.baseUrl}/signin`);
      await page.getByText("This Tessera is invite-only: ask an admin for an invite link.").waitFor();
      expect(await page.getByRole("link", { name: "Create an account" }).count()).toBe(0);
      await shootWidths(page, "signin-invite-only");

      await page.goto(`${app.baseUrl}/signin?invite=some-token`);
      const link = page.getByRole("link", { name: "Create an account" });
      await link.waitFor();
      expect(await link.getAttribute("href")).toBe("/signup?invite=some-token");

      await chooseMode("Open");
      await page.goto(`${app.baseUrl}/signin`);
      await page.getByRole("link", { name: "Create an account" }).click();
      await page.getByText("Anyone can create an account on this Tessera.").waitFor();
      await page.getByRole("button", { name: "Create account" }).waitFor();
      expect(await axeBlocking(page)).toEqual([]);
      await shootWidths(page, "signup-open");
      await page.close();
      await chooseMode("Invite only");
    },
    STEP * 3,
  );

  it(
    "refuses a bad private network by its line, saves good ones, and picks the starting dashboard",
    async () => {
      const page = admin.page;
      const board = await admin.board("Team start", [
        { widgetType: "Clock", config: { showSeconds: false } },
      ]);
      await page.reload();
      const form = page.getByRole("form", { name: "Instance settings" });
      const networks = form.getByLabel("Private networks the server may reach");
      await networks.fill("nas.lan\nbad host");
      await form.getByRole("button", { name: "Save settings" }).click();
      await form.getByText("Line 2: “bad host” is not a host name, an address or a network.").waitFor();
      expect(await networks.getAttribute("aria-invalid")).toBe("true");
      await networks.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SHOTS, "admin-networks-refused-light.png") });
      expect((await admin.api("GET", "/api/admin/settings")).body.privateNetworks.value).toEqual([]);

      await networks.fill("nas.lan\n192.168.1.0/24");
      await form.getByLabel("Starting dashboard for new accounts").selectOption(board.id);
      await form.getByRole("button", { name: "Save settings" }).click();
      await page.locator(".toast", { hasText: "Settings saved" }).last().waitFor();
      const saved = (await admin.api("GET", "/api/admin/settings")).body;
      expect(saved.privateNetworks.value).toEqual(["nas.lan", "192.168.1.0/24"]);
      expect(saved.starterDashboard).toMatchObject({ value: board.id, name: "Team start" });
      expect(await axeBlocking(page)).toEqual([]);
      await shootWidths(page, "admin-settings");
    },
    STEP * 3,
  );

  it(
    "sends an admin from the Status widget's hint to the private networks, whose change the next check obeys",
    async () => {
      const page = admin.page;
      // The server itself, on loopback: refused until an admin allows 127.0.0.1.
      const board = await admin.board("Homelab", [
        {
          widgetType: "Status",
          width: 420,
          height: 300,
          config: { checks: [{ id: "self", name: "This server", url: `${app.baseUrl}/healthz` }] },
        },
      ]);
      const widgetId = board.widgets[0].id as string;
      const state = () => admin.api("GET", `/api/status?widgetId=${widgetId}`);
      await eventually(
        state,
        (r) => r.body[0]?.state?.error?.code === "address_not_allowed",
        "a refused check",
      );
      await page.goto(`${app.baseUrl}/d/${board.id}`);
      const widget = page.locator('[data-widget-type="Status"]');
      await widget.getByText("Not allowed", { exact: true }).waitFor();
      // The hint sits above the addresses, and names the admin page's setting.
      const hint = widget.locator(".status-hint");
      expect(
        await hint.evaluate(
          (el) =>
            (el.compareDocumentPosition(el.parentElement!.querySelector(".status-checks")!) &
              Node.DOCUMENT_POSITION_FOLLOWING) !==
            0,
        ),
      ).toBe(true);
      await page.mouse.move(0, 0);
      await widget.screenshot({ path: path.join(SHOTS, "status-hint-admin-light.png") });
      await hint.getByRole("link", { name: "Administration › Private networks" }).click();
      const networks = page.getByLabel("Private networks the server may reach");
      await expect.poll(() => networks.evaluate((el) => el === document.activeElement)).toBe(true);
      await networks.fill("nas.lan\n192.168.1.0/24\n127.0.0.1");
      await page.getByRole("button", { name: "Save settings" }).click();
      await page.locator(".toast", { hasText: "Settings saved" }).last().waitFor();
      await eventually(state, (r) => r.body[0]?.state?.up === true, "the check to pass once allowed", 20_000);
      expect(pageErrors).toEqual([]);
    },
    STEP * 2,
  );
});
