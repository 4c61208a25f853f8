import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import en from "../src/web/i18n/locales/en.json";
import { axeBlocking } from "./support/axe.js";
import { inScheme } from "./support/page-helpers.js";
import { type E2eApp, type Person, startApp } from "./support/web-app.js";

/**
 * Integrations (issue 32) in Chromium against the compiled server, with no private network
 * allowed by the environment: an admin adds a custom API on the home network for everyone with its
 * key as a request header and tests it on the admin page; a member sees it in Settings as
 * Everyone's, may test but not change it, and is refused a loopback address of their own with
 * words that say an admin can allow it; the admin replaces the key, and deletes the integration.
 * Steps run in order. Pictures at 390 and 1440 px, light and dark, go to test-results/.
 */
const SHOTS = process.env.SHOTS_DIR ?? path.resolve("test-results");
const STEP = 90_000;
const i = en.integrations;

/** A JSON service on loopback that wants its key in X-Api-Key, as many home services do. */
interface FakeService {
  url: string;
  /** The key it accepts now. */
  key: string;
  /** The X-Api-Key of every request it got, in order (null: none sent). */
  seen: (string | null)[];
  close(): Promise<void>;
}

async function startFakeService(): Promise<FakeService> {
  const fake = { key: "fridge-key-1", seen: [] as (string | null)[] } as FakeService;
  const server: Server = createServer((req, res) => {
    const key = req.headers["x-api-key"];
    fake.seen.push(typeof key === "string" ? key : null);
    res.setHeader("content-type", "application/json");
    if (req.method !== "GET" || req.url !== "/status") {
      res.statusCode = 404;
      res.end(JSON.stringify({ error: "not found" }));
    } else if (key !== fake.key) {
      res.statusCode = 401;
      res.end(JSON.stringify({ error: "missing or wrong X-Api-Key" }));
    } else res.end(JSON.stringify({ temperature: 4.5, door: "closed" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise((resolve) => server.close(() => resolve()));
  return fake;
}

let app: E2eApp;
let fake: FakeService;
let admin: Person;
let member: Person;
const pageErrors: string[] = [];

/** Phone and desktop, light and dark: `integrations-<name>-390-light.png` and so on; nothing scrolls sideways. */
async function photograph(page: Page, name: string, focus?: Locator) {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await focus?.scrollIntoViewIfNeeded();
    const widths = await page.evaluate(() => {
      const dialog = document.querySelector("dialog[open]");
      return {
        page: document.documentElement.scrollWidth,
        dialog: dialog ? dialog.scrollWidth - dialog.clientWidth : 0,
      };
    });
    expect(widths.page, `${name} at ${width}`).toBeLessThanOrEqual(width);
    expect(widths.dialog, `${name}'s dialog at ${width}`).toBeLessThanOrEqual(0);
    for (const scheme of ["light", "dark"] as const) {
      await inScheme(page, scheme);
      await page.screenshot({ path: path.join(SHOTS, `integrations-${name}-${width}-${scheme}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 900 });
}

const toast = (page: Page, text: string) => page.locator(".toast", { hasText: text }).last().waitFor();
const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key]));
/** What the focused control is called: its aria-label, its label's text, or its own text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement as HTMLInputElement | null;
    return (
      active?.getAttribute("aria-label") || active?.labels?.[0]?.textContent || active?.textContent || ""
    );
  });

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  fake = await startFakeService();
  // Unset: only an integration's own "home network" choice lets the server reach loopback.
  app = await startApp({ env: { FETCH_ALLOW_PRIVATE: "" } });
  // The system's theme, so the pictures show the page light and dark.
  admin = await app.person({ name: "Ada Admin", settings: { theme: "system" } });
  member = await app.person({ name: "Max Member", settings: { theme: "system" } });
  for (const person of [admin, member])
    person.page.on("pageerror", (error) => pageErrors.push(error.message));
  expect((await admin.api("GET", "/api/me")).body.role).toBe("admin");
  expect((await member.api("GET", "/api/me")).body.role).toBe("member");
}, 300_000);

afterAll(async () => {
  await app?.stop();
  await fake?.close();
  expect(pageErrors).toEqual([]);
});

describe("integrations in the browser", () => {
  it(
    "lets an admin add a custom API on the home network for everyone, with its key as a header, tested first",
    async () => {
      const page = admin.page;
      await page.goto(`${app.baseUrl}/admin`);
      const section = page.getByRole("region", { name: en.admin.integrations.title });
      await section.getByText(i.list.instanceEmpty).waitFor();
      await section.getByRole("button", { name: i.addInstance }).click();
      const form = section.getByRole("form", { name: i.form.addTitle });
      const kind = form.getByLabel(i.form.kind, { exact: true });
      // The form opened with the focus in its first field.
      await expect.poll(() => kind.evaluate((el) => el === document.activeElement)).toBe(true);
      await kind.selectOption("custom");
      await form.getByText("Any service that answers JSON over HTTP").waitFor();
      await form.getByLabel(en.common.name, { exact: true }).fill("Fridge");
      const address = form.getByLabel(i.form.url, { exact: true });
      expect(await address.getAttribute("placeholder")).toBe("http://nas.lan:8080/api");
      await address.fill(`${fake.url}/status`);
      await form.getByLabel(fill(i.secrets.headerName, { number: 1 })).fill("X-Api-Key");
      await form.getByLabel(fill(i.secrets.headerValue, { number: 1 })).fill("not-the-key");
      const result = form.getByRole("status").filter({ hasText: /./ });
      const test = form.getByRole("button", { name: i.test.button, exact: true });

      // Loopback without the home network ticked: refused before anything is sent.
      await test.click();
      await result.getByText(i.errors.addressAdmin).waitFor();
      expect(await address.getAttribute("aria-invalid")).toBe("true");
      expect(fake.seen).toEqual([]);

      // Ticked, the service is reached: the wrong key is its 401, in words.
      await form
        .getByRole("checkbox", { name: new RegExp(i.form.allowPrivate.replace(/[()]/g, "\\$&")) })
        .check();
      await form.getByRole("checkbox", { name: new RegExp(i.form.skipTls) }).waitFor();
      await form.getByRole("checkbox", { name: new RegExp(i.form.allowActions) }).waitFor();
      await form.getByText(i.form.unsafe, { exact: true }).waitFor();
      await test.click();
      await result.getByText(/Didn't work/).waitFor();
      expect(await result.textContent()).toMatch(/401/);
      expect(fake.seen).toEqual(["not-the-key"]);

      await form.getByLabel(fill(i.secrets.headerValue, { number: 1 })).fill(fake.key);
      await test.click();
      await result.getByText(/^Works \(\d+ ms\):/).waitFor();
      expect(await result.textContent()).toMatch(/Answered with JSON: an object of 2 keys/);
      expect(fake.seen.at(-1)).toBe(fake.key);
      // The value typed is never shown as text.
      expect(await form.getByLabel(fill(i.secrets.headerValue, { number: 1 })).getAttribute("type")).toBe(
        "password",
      );
      expect(await axeBlocking(page)).toEqual([]);
      await photograph(page, "admin-form-tested", form.getByRole("button", { name: i.form.add }));

      await form.getByRole("button", { name: i.form.add }).click();
      await toast(page, fill(i.added, { name: "Fridge" }));
      const row = section.locator("li", { hasText: "Fridge" });
      await row.getByText("Custom API", { exact: true }).waitFor();
      await row.getByText(/^127\.0\.0\.1:\d+$/).waitFor();
      // The focus is back on the button that opened the form.
      await expect.poll(() => focused(page)).toMatch(i.addInstance);

      const saved = (await admin.api("GET", "/api/integrations")).body;
      expect(saved).toEqual([
        expect.objectContaining({
          name: "Fridge",
          kind: "custom",
          owner: "instance",
          allowPrivate: true,
          skipTlsVerify: false,
          secrets: ["X-Api-Key"],
          editable: true,
        }),
      ]);
      expect(JSON.stringify(saved)).not.toContain(fake.key);

      // Tested from the list, it records its check.
      await row.getByRole("button", { name: fill(i.row.testNamed, { name: "Fridge" }) }).click();
      await row.getByText(i.row.works, { exact: true }).waitFor();
      expect(await axeBlocking(page)).toEqual([]);
      await photograph(page, "admin-list", section);
    },
    STEP * 2,
  );

  it(
    "shows a member the instance's integration as Everyone's, to test but not to change",
    async () => {
      const page = member.page;
      await page.goto(`${app.baseUrl}/?settings=integrations`);
      const dialog = page.getByRole("dialog", { name: en.settings.title, exact: true });
      expect(
        await dialog.getByRole("tab", { name: en.settings.tabs.integrations }).getAttribute("aria-selected"),
      ).toBe("true");
      const row = dialog.locator("li", { hasText: "Fridge" });
      await row.getByText(i.row.everyone, { exact: true }).waitFor();
      expect(await row.getByRole("button", { name: fill(i.row.editNamed, { name: "Fridge" }) }).count()).toBe(
        0,
      );
      expect(
        await row.getByRole("button", { name: fill(i.row.deleteNamed, { name: "Fridge" }) }).count(),
      ).toBe(0);
      await row.getByRole("button", { name: fill(i.row.testNamed, { name: "Fridge" }) }).click();
      await row.getByText(i.row.works, { exact: true }).waitFor();

      const [listed] = (await member.api("GET", "/api/integrations")).body;
      expect(listed).toMatchObject({ name: "Fridge", owner: "instance", editable: false });
      expect((await member.api("PUT", `/api/integrations/${listed.id}`, { name: "Mine now" })).status).toBe(
        403,
      );
      expect(await axeBlocking(page)).toEqual([]);
      await photograph(page, "member-list");
    },
    STEP,
  );

  it(
    "refuses a member's own integration to a loopback address, saying an admin can allow it",
    async () => {
      const page = member.page;
      const dialog = page.getByRole("dialog", { name: en.settings.title, exact: true });
      await dialog.getByRole("button", { name: i.add, exact: true }).click();
      const form = dialog.getByRole("form", { name: i.form.addTitle });
      await form.getByLabel(i.form.kind, { exact: true }).selectOption("custom");
      // The admin-only choices are not offered.
      expect(await form.getByRole("checkbox").count()).toBe(0);
      await form.getByLabel(en.common.name, { exact: true }).fill("My fridge");
      const address = form.getByLabel(i.form.url, { exact: true });
      await address.fill(`${fake.url}/status`);
      await form.getByLabel(fill(i.secrets.headerName, { number: 1 })).fill("X-Api-Key");
      await form.getByLabel(fill(i.secrets.headerValue, { number: 1 })).fill(fake.key);
      const before = fake.seen.length;

      await form.getByRole("button", { name: i.test.button, exact: true }).click();
      await form.getByRole("status").getByText(i.errors.addressMember).waitFor();
      await form.getByRole("button", { name: i.form.add }).click();
      await form.locator(".field-error", { hasText: i.errors.addressMember }).waitFor();
      expect(await address.getAttribute("aria-invalid")).toBe("true");
      // The refused field takes the focus.
      await expect.poll(() => address.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(fake.seen.length).toBe(before);
      const mine = (await member.api("GET", "/api/integrations")).body;
      expect(mine.map((x: { name: string }) => x.name)).toEqual(["Fridge"]);
      expect(await axeBlocking(page)).toEqual([]);
      await photograph(page, "member-refused", address);

      // Another kind brings its own secret fields; a required one left empty is caught at once.
      await form.getByLabel(i.form.kind, { exact: true }).selectOption("homeassistant");
      await address.fill("https://ha.example.net:8123");
      const token = form.getByLabel("Long-lived access token", { exact: true });
      expect(await token.getAttribute("type")).toBe("password");
      await form.getByText(/Long-lived access tokens, Create token/).waitFor();
      await form.getByRole("button", { name: i.form.add }).click();
      await form.getByText(i.errors.valueMissing).waitFor();
      await expect.poll(() => token.evaluate((el) => el === document.activeElement)).toBe(true);
      await token.fill("a-long-lived-token");
      // A certificate that is none: the server's word lands on the field, in its opened disclosure.
      await form.getByText(i.form.certificateTitle).click();
      const certificate = form.getByLabel(i.form.certificate, { exact: true });
      await certificate.fill("-----BEGIN CERTIFICATE-----\nnot really\n-----END CERTIFICATE-----");
      await form.getByRole("button", { name: i.form.add }).click();
      await expect.poll(() => certificate.getAttribute("aria-invalid")).toBe("true");
      await form.locator(".field-error", { hasText: /PEM certificates/ }).waitFor();
      expect(await axeBlocking(page)).toEqual([]);
      await photograph(page, "member-kind-fields", certificate);
      await form.getByRole("button", { name: en.common.cancel }).click();
      await expect.poll(() => focused(page)).toMatch(i.add);
    },
    STEP,
  );

  it(
    "lets the admin replace the key (sending only that secret) and delete the integration",
    async () => {
      const page = admin.page;
      const section = page.getByRole("region", { name: en.admin.integrations.title });
      await section.getByRole("button", { name: fill(i.row.editNamed, { name: "Fridge" }) }).click();
      const form = section.getByRole("form", { name: fill(i.form.editTitle, { name: "Fridge" }) });
      const name = form.getByLabel(en.common.name, { exact: true });
      await expect.poll(() => name.evaluate((el) => el === document.activeElement)).toBe(true);
      const secret = form.locator('[data-secret="X-Api-Key"]');
      await secret.getByText(i.secrets.set, { exact: true }).waitFor();
      // Unchanged, Test tries the saved integration.
      await form.getByRole("button", { name: i.test.button, exact: true }).click();
      await form
        .getByRole("status")
        .getByText(/^Works/)
        .waitFor();

      fake.key = "fridge-key-2";
      await secret.getByRole("button", { name: fill(i.secrets.replaceNamed, { name: "X-Api-Key" }) }).click();
      const value = form.getByLabel(fill(i.secrets.newValue, { name: "X-Api-Key" }));
      await expect.poll(() => value.evaluate((el) => el === document.activeElement)).toBe(true);
      await value.fill(fake.key);
      // A header added and dropped again is not sent.
      await form.getByRole("button", { name: i.secrets.addHeader }).click();
      await form.getByLabel(fill(i.secrets.headerName, { number: 2 })).fill("X-Extra");
      await form
        .getByRole("button", { name: fill(i.secrets.removeHeaderNamed, { name: "X-Extra" }) })
        .click();
      await form.getByRole("button", { name: i.test.button, exact: true }).click();
      await form
        .getByRole("status")
        .getByText(/^Works/)
        .waitFor();
      expect(fake.seen.at(-1)).toBe("fridge-key-2");
      await photograph(page, "admin-edit", secret);

      const put = page.waitForRequest((request) => request.method() === "PUT");
      await form.getByRole("button", { name: i.form.save }).click();
      expect((await put).postDataJSON()).toEqual({ secrets: { "X-Api-Key": "fridge-key-2" } });
      await toast(page, fill(i.saved, { name: "Fridge" }));
      await expect.poll(() => focused(page)).toMatch(fill(i.row.editNamed, { name: "Fridge" }));

      await section.getByRole("button", { name: fill(i.row.deleteNamed, { name: "Fridge" }) }).click();
      const confirm = page.getByRole("dialog", { name: fill(i.deleteDialog.title, { name: "Fridge" }) });
      await confirm.getByText(i.deleteDialog.instance).waitFor();
      expect(await axeBlocking(page)).toEqual([]);
      await confirm.getByRole("button", { name: i.deleteDialog.confirm }).click();
      await toast(page, fill(i.deleted, { name: "Fridge" }));
      await section.getByText(i.list.instanceEmpty).waitFor();
      expect((await admin.api("GET", "/api/integrations")).body).toEqual([]);
    },
    STEP,
  );
});
