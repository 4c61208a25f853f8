import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OidcServer, startOidcServer } from "../test/fakes/oauth-oidc.js";
import { inScheme, pageApi } from "./support/page-helpers.js";
import { type E2eApp, freePort, startApp } from "./support/web-app.js";

/**
 * Operators in Chromium against the built app and the real server (embedded database, the
 * default invite-only sign-up): the first visitor of a fresh instance becomes its admin, invites
 * a member whose browser signs up through the link, sees both on the admin page, creates and
 * revokes an API key, and finds this device among the sessions. Steps run in order.
 */
const SHOTS = process.env.SHOTS_DIR ?? path.resolve("test-results");
const STEP = 60_000;
const PASSWORD = "a-long-enough-password";
const admin = { name: "Ada Lovelace", email: `ada-${Date.now()}@example.test` };
const member = { name: "Grace Hopper", email: `grace-${Date.now()}@example.test` };

let app: E2eApp;
let baseUrl: string;
let browser: Browser;
let adminContext: BrowserContext;
let page: Page;
let inviteUrl = "";
const pageErrors: string[] = [];
// The tests' config opens sign-up to everyone; this one is the shipped default, invite only.
const api = pageApi(
  () => page,
  () => baseUrl,
);

async function newPage(context: BrowserContext): Promise<Page> {
  const p = await context.newPage();
  p.setDefaultTimeout(10_000);
  p.on("pageerror", (error) => pageErrors.push(error.message));
  return p;
}

async function newContext(): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-GB" });
}

/**
 * Fills the sign-up form and waits for the first-run tour, which it skips. An invite bound to an
 * address has filled that in, read-only.
 */
async function signUp(p: Page, who: { name: string; email: string }) {
  await p.getByLabel("Name").fill(who.name);
  const email = p.getByLabel("Email");
  if ((await email.getAttribute("readonly")) === null) await email.fill(who.email);
  else expect(await email.inputValue()).toBe(who.email);
  await p.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await p.getByRole("button", { name: "Create account" }).click();
  await p.getByRole("button", { name: "Skip" }).click();
  await p.getByRole("dialog").waitFor({ state: "detached" });
}

async function shoot(name: string, scheme: "light" | "dark", fullPage = true, on: Page = page) {
  await inScheme(on, scheme);
  await on.screenshot({ path: path.join(SHOTS, `${name}-${scheme}.png`), fullPage });
}

/** Phone and desktop, light and dark: `name-390-light.png` and so on. */
async function shootWidths(name: string, on: Page = page) {
  for (const width of [390, 1440]) {
    await on.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    // Nothing may reach past the screen's edge: the page never scrolls sideways.
    expect(
      await on.evaluate(() => document.documentElement.scrollWidth),
      `${name} at ${width}`,
    ).toBeLessThanOrEqual(width);
    for (const scheme of ["light", "dark"] as const) await shoot(`${name}-${width}`, scheme, true, on);
  }
  await on.emulateMedia({ colorScheme: "light" });
  await on.setViewportSize({ width: 1280, height: 900 });
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  app = await startApp({ env: { SIGNUP_MODE: "invite" } });
  baseUrl = app.baseUrl;
  browser = app.browser;
  adminContext = await newContext();
  await adminContext.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl });
  page = await newPage(adminContext);
}, 300_000);

afterAll(() => app?.stop());

describe("operators in the browser", () => {
  it(
    "makes the first visitor of a fresh instance its admin",
    async () => {
      await page.goto(`${baseUrl}/`);
      // Nobody to sign in as yet: the sign-in page says so and points to the welcome.
      await page.waitForURL(/\/signin$/);
      await page.getByText("Nobody has an account here yet.", { exact: false }).waitFor();
      await page.getByRole("link", { name: "Create an account" }).click();
      await page.getByRole("heading", { name: "Welcome" }).waitFor();
      await page.getByText("You will be the admin of this Tessera.").waitFor();
      await signUp(page, admin);
      const me = await api("GET", "/api/me");
      expect(me.body).toMatchObject({ email: admin.email, role: "admin" });
    },
    STEP,
  );

  it(
    "creates an invite on the admin page and copies its link, shown once",
    async () => {
      await page.getByRole("button", { name: `Account: ${admin.name}` }).click();
      await page.getByRole("link", { name: "Administration" }).click();
      await page.getByRole("heading", { name: "Administration", level: 1 }).waitFor();
      await page.getByText("Invite only").waitFor();
      await page.getByLabel("Email (optional)").fill(member.email);
      await page.getByRole("button", { name: "Create invite link" }).click();
      const link = page.getByRole("textbox", { name: "Invite link" });
      inviteUrl = await link.inputValue();
      expect(inviteUrl).toMatch(new RegExp(`^${baseUrl}/signup\\?invite=.+`));
      await page.getByRole("button", { name: /^Copy/ }).click();
      await page.getByText("Copied to the clipboard.").waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(inviteUrl);
      const invites = page.getByRole("table", { name: "Open invites" });
      await invites.getByRole("rowheader", { name: member.email }).waitFor();
      // Done puts the form back: the link is not to be seen again.
      await page.getByRole("button", { name: "Done" }).click();
      await expect.poll(() => link.count()).toBe(0);
    },
    STEP,
  );

  it(
    "turns away a stranger without an invite, and signs the invited member up through the link",
    async () => {
      const stranger = await newContext();
      const strangerPage = await newPage(stranger);
      await strangerPage.goto(`${baseUrl}/signup`);
      await strangerPage.getByRole("heading", { name: "You need an invite" }).waitFor();
      expect(await strangerPage.getByRole("button", { name: "Create account" }).count()).toBe(0);
      await stranger.close();

      const memberContext = await newContext();
      const memberPage = await newPage(memberContext);
      await memberPage.goto(inviteUrl);
      await memberPage.getByRole("heading", { name: "Join Tessera" }).waitFor();
      // The invite is for one address: it is filled in, and cannot be changed to one it refuses.
      const email = memberPage.getByLabel("Email");
      expect(await email.inputValue()).toBe(member.email);
      expect(await email.getAttribute("readonly")).not.toBeNull();
      await memberPage.getByText("Your invite is for this address.", { exact: false }).waitFor();
      await shootWidths("signup-invite", memberPage);
      await signUp(memberPage, member);
      const me = await memberPage.request.get(`${baseUrl}/api/me`);
      expect(await me.json()).toMatchObject({ email: member.email, role: "member" });
      // A member's menu has no Administration, and the page itself says no.
      await memberPage.getByRole("button", { name: `Account: ${member.name}` }).click();
      await memberPage.getByRole("button", { name: "Sign out" }).waitFor();
      expect(await memberPage.getByRole("link", { name: "Administration" }).count()).toBe(0);
      await memberPage.goto(`${baseUrl}/admin`);
      await memberPage.getByText("Only administrators can see this page").waitFor();
      await memberContext.close();

      // The spent link says so before anyone types, not after the form.
      const late = await newContext();
      const latePage = await newPage(late);
      await latePage.goto(inviteUrl);
      await latePage.getByRole("heading", { name: "This invite link doesn't work" }).waitFor();
      await latePage.getByText("This invite has already been used; ask for a new one.").waitFor();
      expect(await latePage.getByRole("button", { name: "Create account" }).count()).toBe(0);
      await latePage.setViewportSize({ width: 390, height: 844 });
      await shoot("signup-invite-used-390", "light", true, latePage);
      await shoot("signup-invite-used-390", "dark", true, latePage);
      await late.close();
    },
    STEP,
  );

  it(
    "lists both people on the admin page; the last admin cannot be demoted",
    async () => {
      await page.reload();
      const users = page.getByRole("table", { name: "Users" });
      await users.getByRole("rowheader", { name: new RegExp(member.name) }).waitFor();
      await users.getByRole("rowheader", { name: new RegExp(admin.name) }).waitFor();
      expect(await page.getByRole("combobox", { name: `Role of ${member.name}` }).inputValue()).toBe(
        "member",
      );
      // The used invite is no longer open.
      await page.getByText("No open invites.").waitFor();
      await page.getByRole("combobox", { name: `Role of ${admin.name}` }).selectOption("member");
      await page.getByRole("alert").filter({ hasText: /admin/i }).waitFor();
      expect(await page.getByRole("combobox", { name: `Role of ${admin.name}` }).inputValue()).toBe("admin");
      await shoot("admin-page", "light");
      await shoot("admin-page", "dark");
      await page.emulateMedia({ colorScheme: "light" });

      // Disabled, the member keeps their last activity (it used to read "Never").
      // Checked once the server says so (a controlled switch): click, then wait for the answer.
      await page.getByRole("switch", { name: `${member.name} disabled` }).click();
      await page.getByText(`${member.name} is disabled and signed out everywhere`).waitFor();
      const row = users.locator(`tr[data-user-email="${member.email}"]`);
      await row.locator(".user-last time").waitFor();
      expect(await row.locator(".user-last").innerText()).not.toMatch(/Never/);

      // On a phone each user is a card: every control on the screen, none past its edge.
      await shootWidths("admin-users");
      await page.setViewportSize({ width: 390, height: 844 });
      for (const control of [
        page.getByRole("combobox", { name: `Role of ${member.name}` }),
        page.getByRole("switch", { name: `${member.name} disabled` }),
        page.getByRole("button", { name: `Delete ${member.name}` }),
      ]) {
        const box = await control.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= 390, String(control)).toBe(true);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    },
    STEP,
  );

  it(
    "deletes a user after a confirmation that names them",
    async () => {
      await page.getByRole("button", { name: `Delete ${member.name}` }).click();
      const dialog = page.getByRole("dialog", { name: `Delete ${member.name}?` });
      await dialog.getByText(member.email).waitFor();
      await dialog.getByRole("button", { name: `Delete ${member.name}` }).click();
      await dialog.waitFor({ state: "detached" });
      await expect.poll(() => page.getByRole("rowheader", { name: new RegExp(member.name) }).count()).toBe(0);
      const users = await api<{ email: string }[]>("GET", "/api/admin/users");
      expect(users.body.map((u) => u.email)).toEqual([admin.email]);
    },
    STEP,
  );

  it(
    "creates an API key shown once, which works until it is revoked",
    async () => {
      await page.goto(`${baseUrl}/admin?settings=keys`);
      const dialog = page.getByRole("dialog", { name: "Settings" });
      await dialog.getByLabel("Name", { exact: true }).fill("Backup script");
      await dialog.getByRole("button", { name: "Create key" }).click();
      const field = dialog.getByRole("textbox", { name: "API key" });
      const key = await field.inputValue();
      expect(key).toMatch(/^tsk_/);
      await dialog.getByText("you won't see it again").waitFor();
      const list = dialog.getByRole("list", { name: "API keys" });
      await list.getByText("Backup script").waitFor();
      await list.getByText(`${key.slice(0, 6)}`, { exact: false }).waitFor();
      // The viewport only: the dialog's backdrop covers no more.
      await shoot("api-keys", "light", false);
      await shoot("api-keys", "dark", false);
      await page.emulateMedia({ colorScheme: "light" });

      // From outside the browser (no session cookie), the way a script would use it.
      const withKey = async () =>
        (await fetch(`${baseUrl}/api/dashboards`, { headers: { authorization: `Bearer ${key}` } })).status;
      expect(await withKey()).toBe(200);

      await dialog.getByRole("button", { name: "Done" }).click();
      await list.getByRole("button", { name: "Revoke Backup script" }).click();
      const confirm = page.getByRole("dialog", { name: "Revoke “Backup script”?" });
      await confirm.getByRole("button", { name: "Revoke key" }).click();
      await confirm.waitFor({ state: "detached" });
      await dialog.getByText("No API keys yet.").waitFor();
      expect(await withKey()).toBe(401);
    },
    STEP,
  );

  it(
    "lists this device among the sessions",
    async () => {
      const dialog = page.getByRole("dialog", { name: "Settings" });
      await dialog.getByRole("tab", { name: "Sessions" }).click();
      const list = dialog.getByRole("list", { name: "Signed-in devices" });
      const current = list.getByRole("listitem").filter({ hasText: "This device" });
      await current.waitFor();
      expect(await current.innerText()).toMatch(/Chrome on Linux/);
      expect(await current.getByRole("button", { name: /Sign out/ }).count()).toBe(0);
      await page.screenshot({ path: path.join(SHOTS, "sessions-light.png") });
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );
});

/**
 * Single sign-on against a real OpenID Connect server (oidc-provider on 127.0.0.1), with the
 * button the sign-in page shows under the configured name. Its own instance of the app.
 */
describe("single sign-on in the browser", () => {
  let oidc: OidcServer;
  let sso: E2eApp;

  beforeAll(async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    oidc = await startOidcServer({
      tessera: {
        redirectUris: [`${origin}/api/auth/callback/oidc`],
        clientAuth: "client_secret_post",
      },
    });
    sso = await startApp({
      port,
      env: {
        // Open sign-up here, so the tests can make password accounts beside the provider's.
        SIGNUP_MODE: "open",
        OIDC_ISSUER: oidc.issuer,
        OIDC_CLIENT_ID: oidc.clients.tessera!.clientId,
        OIDC_CLIENT_SECRET: oidc.clients.tessera!.clientSecret,
        OIDC_DISPLAY_NAME: "Authentik",
        OIDC_SCOPES: "openid email profile groups",
        OIDC_AUTO_SIGNUP: "true",
        OIDC_ADMIN_GROUP: "tessera-admins",
      },
    });
  }, 300_000);

  afterAll(async () => {
    await sso?.stop();
    await oidc?.close();
  });

  it(
    "signs a new person in with the provider's button; the admin group makes them an admin",
    async () => {
      const context = await newContext();
      const p = await newPage(context);
      // Someone has an account already, so this is the sign-in page, not the first-run welcome.
      const first = await p.request.post(`${sso.baseUrl}/api/auth/sign-up/email`, {
        headers: { origin: sso.baseUrl },
        data: { name: "First", email: `first-${Date.now()}@example.test`, password: PASSWORD },
      });
      expect(first.status()).toBe(200);
      await context.clearCookies();

      oidc.nextLogin = {
        sub: `sso-${Date.now()}`,
        email: `lin-${Date.now()}@provider.test`,
        name: "Lin Provider",
        groups: ["tessera-admins"],
      };
      await p.goto(`${sso.baseUrl}/signin`);
      const button = p.getByRole("button", { name: "Sign in with Authentik" });
      await expect.poll(() => button.isEnabled(), { timeout: 10_000 }).toBe(true);
      await p.screenshot({ path: path.join(SHOTS, "signin-sso-light.png") });
      await button.click();
      await p.getByRole("button", { name: "Skip" }).click();
      const me = await p.request.get(`${sso.baseUrl}/api/me`);
      expect(await me.json()).toMatchObject({ email: oidc.nextLogin.email, role: "admin" });
      await context.close();
    },
    STEP,
  );

  it(
    "sends someone the provider cannot vouch for back to the sign-in page with a reason",
    async () => {
      const context = await newContext();
      const p = await newPage(context);
      // A password account exists; the provider does not say this email is verified, so the
      // sign-on must not take it over.
      const email = `taken-${Date.now()}@example.test`;
      const taken = await p.request.post(`${sso.baseUrl}/api/auth/sign-up/email`, {
        headers: { origin: sso.baseUrl },
        data: { name: "Taken", email, password: PASSWORD },
      });
      expect(taken.status()).toBe(200);
      await context.clearCookies();
      oidc.nextLogin = { sub: `sso-${Date.now()}`, email, name: "Not Them", emailVerified: false };
      await p.goto(`${sso.baseUrl}/signin`);
      await p.getByRole("button", { name: "Sign in with Authentik" }).click();
      await p.waitForURL(/\/signin\?error=/);
      const alert = p.getByRole("alert");
      await alert.waitFor();
      expect(p.url()).toContain("error=account_not_linked");
      expect(await alert.innerText()).toMatch(/already exists here.*can't be linked/s);
      expect((await p.request.get(`${sso.baseUrl}/api/me`)).status()).toBe(401);
      await p.screenshot({ path: path.join(SHOTS, "signin-sso-refused-light.png") });

      // The owner signs in with the password and links single sign-on from Settings > Sessions.
      await p.getByLabel("Email").fill(email);
      await p.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await p.getByRole("button", { name: "Sign in", exact: true }).click();
      await p.getByRole("button", { name: "Skip" }).click();
      await p.goto(`${sso.baseUrl}/?settings=sessions`);
      const dialog = p.getByRole("dialog", { name: "Settings", exact: true });
      const link = dialog.getByRole("button", { name: "Link Authentik" });
      await link.waitFor();
      await p.screenshot({ path: path.join(SHOTS, "settings-sso-unlinked-light.png") });
      await p.setViewportSize({ width: 390, height: 844 });
      await p.screenshot({ path: path.join(SHOTS, "settings-sso-unlinked-phone-light.png") });
      await p.setViewportSize({ width: 1280, height: 900 });
      // Linking needs the provider to vouch for its own email: unverified there, it says so.
      await link.click();
      await p.locator(".toast", { hasText: "did not confirm that your email there is verified" }).waitFor({
        timeout: 20_000,
      });
      await p.screenshot({ path: path.join(SHOTS, "settings-sso-unverified-light.png") });
      // The person verifies it at the provider (which remembers the signed-in account) and links again.
      oidc.nextLogin.emailVerified = true;
      await link.click();
      await p.locator(".toast", { hasText: "Authentik is linked" }).waitFor({ timeout: 20_000 });
      await dialog.getByText("Linked", { exact: true }).waitFor();
      await p.screenshot({ path: path.join(SHOTS, "settings-sso-linked-light.png") });
      await context.close();
    },
    STEP,
  );
});
