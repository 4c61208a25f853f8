import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeBlocking } from "./support/axe.js";
import { eventually, inScheme, pageApi, stylesSettled } from "./support/page-helpers.js";
import { type E2eApp, type Person, startApp } from "./support/web-app.js";

/**
 * Sharing dashboards in Chromium against the built app and the real server (embedded database,
 * invite-only sign-up, so the share dialog lists everyone by name): Anna, the instance's first
 * user and so its admin, shares a board with Ben as viewer through the share dialog; Ben finds it
 * under "Shared with me", sees it without any control that would change it, and duplicates it;
 * Anna makes him editor and he edits it; Anna makes a group on the admin page; a board shared
 * with everyone greets a newcomer. Steps run in order and share the people.
 */
const SHOTS = process.env.SHOTS_DIR ?? path.resolve("test-results");
const STEP = 60_000;
const PASSWORD = "a-long-enough-password";
const stamp = Date.now();

let app: E2eApp;
let anna: Person;
let ben: Person;
let board: { id: string; widgets: { id: string }[] };
const pageErrors: string[] = [];

const BEN = { name: "Ben Carter", email: `ben-${stamp}@example.test` };

/** Someone invited by Anna, signed up through the invite in a browser context of their own. */
async function invited(who: { name: string; email: string }): Promise<Person> {
  const invite = await anna.api("POST", "/api/admin/invites", { email: who.email });
  expect(invite.status, JSON.stringify(invite.body)).toBe(201);
  const context = await app.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-GB" });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.on("pageerror", (error) => pageErrors.push(error.message));
  const api = pageApi(
    () => page,
    () => app.baseUrl,
  );
  const signUp = await api("POST", "/api/auth/sign-up/email", {
    ...who,
    password: PASSWORD,
    inviteToken: invite.body.token,
  });
  expect(signUp.status, JSON.stringify(signUp.body)).toBe(200);
  const settings = await api("GET", "/api/settings");
  const saved = await api("PUT", "/api/settings", {
    id: settings.body[0].id,
    onboardingCompleted: true,
    config: { theme: "system", todoReminder: false, countdownReminder: false, meetingReminder: false },
  });
  expect(saved.status).toBe(200);
  return {
    context,
    page,
    api,
    user: signUp.body.user,
    board: () => Promise.reject(new Error("not used")),
  };
}

/**
 * The page in the light and dark scheme (the user's theme follows the system), each checked with
 * axe, and at phone width, where nothing may stick out sideways.
 */
async function shoot(page: Page, name: string, options: { fullPage?: boolean; phone?: boolean } = {}) {
  const viewport = page.viewportSize();
  for (const scheme of ["light", "dark"] as const) {
    await inScheme(page, scheme);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${scheme}.png`), fullPage: options.fullPage });
    expect(await axeBlocking(page), `${name} in ${scheme}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: "light" });
  if (options.phone === false) return;
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await stylesSettled(page);
    // Nothing sticks out sideways on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: path.join(SHOTS, `${name}-390.png`), fullPage: options.fullPage });
  } finally {
    if (viewport) await page.setViewportSize(viewport);
  }
}

const switcher = (page: Page) => page.locator(".switcher-button");

async function openSwitcher(page: Page): Promise<Locator> {
  await switcher(page).click();
  const menu = page.getByRole("dialog", { name: "Dashboards" });
  await menu.waitFor();
  return menu;
}

async function openShareDialog(page: Page, name: string): Promise<Locator> {
  const menu = await openSwitcher(page);
  await menu.getByRole("button", { name: /^Share…/ }).click();
  const dialog = page.getByRole("dialog", { name: `Share “${name}”` });
  await dialog.getByRole("list", { name: "People with access" }).waitFor();
  return dialog;
}

/** Every control on a board that would change it; a viewer's board has none. */
async function editControls(page: Page) {
  const board = page.locator("section.dashboard");
  return {
    addWidget: await board.getByRole("button", { name: "Add widget" }).count(),
    editLayout: await board.getByRole("button", { name: "Edit layout" }).count(),
    undo: await board.getByRole("button", { name: "Undo" }).count(),
    widgetButtons: await board.locator(".widget-actions, .widget-grip, .widget-resize").count(),
    widgetInputs: await board.locator("[data-widget-id] :is(input, textarea, select)").count(),
  };
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  app = await startApp({ env: { SIGNUP_MODE: "invite" } });
  anna = await app.person({
    name: "Anna Berg",
    email: `anna-${stamp}@example.test`,
    settings: { theme: "system" },
  });
  anna.page.on("pageerror", (error) => pageErrors.push(error.message));
  const me = await anna.api("GET", "/api/me");
  expect(me.body.role).toBe("admin");
  board = await anna.board("Team home", [
    { widgetType: "Clock", positionX: 0, positionY: 0, width: 360, height: 220 },
    {
      widgetType: "Todo",
      positionX: 360,
      positionY: 0,
      width: 420,
      height: 280,
      config: {
        todos: [
          { id: "t1", text: "Water the plants", done: false },
          { id: "t2", text: "Order coffee", done: true },
        ],
      },
    },
    {
      widgetType: "Bookmark",
      positionX: 780,
      positionY: 0,
      width: 360,
      height: 220,
      config: { bookmarks: [{ id: "b1", title: "Handbook", url: "https://example.com/" }] },
    },
  ]);
  ben = await invited(BEN);
  // Ben has a picture: the share dialog shows it beside his name; Anna, without one, her initials.
  const picture = await ben.page.evaluate(() => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 64;
    const draw = canvas.getContext("2d")!;
    draw.fillStyle = "#2f7d6d";
    draw.fillRect(0, 0, 64, 64);
    draw.fillStyle = "#ffffff";
    draw.font = "bold 34px sans-serif";
    draw.fillText("B", 20, 45);
    return canvas.toDataURL("image/png");
  });
  expect((await ben.api("PUT", "/api/account/avatar", { image: picture })).status).toBe(200);
}, 300_000);

afterAll(async () => {
  await app?.stop();
});

describe("sharing dashboards in the browser", () => {
  it(
    "Anna shares a board with Ben as viewer; the server's objection shows beside the member it names",
    async () => {
      const { page } = anna;
      await page.goto(`${app.baseUrl}/d/${board.id}`);
      await page.getByRole("heading", { name: "Team home", level: 1 }).waitFor();
      const dialog = await openShareDialog(page, "Team home");
      await dialog.getByText("Not shared with anyone yet.").waitFor();
      await dialog.getByText("Anna Berg (you)").waitFor();

      // By name from the directory, as viewer (the default).
      const search = dialog.getByRole("searchbox", { name: "Add people or groups" });
      await search.fill("ben");
      await dialog.getByRole("list", { name: "People and groups to add" }).waitFor();
      await shoot(page, "share-picker");
      await dialog.getByRole("button", { name: `Add ${BEN.name}` }).click();
      const members = dialog.getByRole("list", { name: "People with access" });
      expect(await members.getByRole("combobox", { name: `Role of ${BEN.name}` }).inputValue()).toBe(
        "viewer",
      );
      expect(await members.locator(`[data-member="user:${ben.user.id}"] img.share-avatar`).count()).toBe(1);
      expect(
        await members.locator(".share-member").first().locator(".share-avatar[data-initials]").count(),
      ).toBe(1);
      // The owner is never offered.
      await search.fill("anna");
      await dialog.getByText("Nobody by that name").waitFor();

      // An address nobody signed up with: the server refuses it, and says so on its row.
      const stranger = `nobody-${stamp}@example.test`;
      await search.fill(stranger);
      await dialog.getByRole("button", { name: `Add ${stranger}` }).click();
      await dialog.getByRole("button", { name: "Save sharing" }).click();
      const refused = members.locator(`[data-member="email:${stranger}"]`);
      await refused.getByText("Nobody here has an account with this address").waitFor();
      await dialog.getByText("Some of them could not be given access").waitFor();
      expect(await members.locator(`[data-member="user:${ben.user.id}"] .field-error`).count()).toBe(0);
      await shoot(page, "share-dialog-error", { phone: false });

      await refused.getByRole("button", { name: `Remove ${stranger}` }).click();
      await shoot(page, "share-dialog");
      await dialog.getByRole("button", { name: "Save sharing" }).click();
      await dialog.waitFor({ state: "detached" });
      await page.getByText("Sharing of “Team home” saved").waitFor();

      const stored = await anna.api("GET", `/api/dashboards/members?id=${board.id}`);
      expect(stored.body).toEqual([{ type: "user", id: ben.user.id, name: BEN.name, role: "viewer" }]);
    },
    STEP * 2,
  );

  it(
    "Ben finds it under Shared with me and sees it with no control that would change it",
    async () => {
      const { page } = ben;
      await page.goto(`${app.baseUrl}/`);
      // Ben has no board of his own: the shared one opens.
      await page.getByRole("heading", { name: "Team home", level: 1 }).waitFor();
      const menu = await openSwitcher(page);
      const shared = menu.getByRole("navigation", { name: "Shared with me" });
      const link = shared.getByRole("link", { name: /^Team home · Anna Berg/ });
      await link.waitFor();
      expect(await link.textContent()).toContain("view only");
      // Only what a viewer may do.
      for (const entry of [/^Duplicate/, /^Export/])
        expect(
          await menu
            .getByRole("button", { name: entry })
            .or(menu.getByRole("link", { name: entry }))
            .count(),
        ).toBe(1);
      for (const entry of [/^Rename/, /^Share/, /^Look/, /^History/, /^Delete/])
        expect(await menu.getByRole("button", { name: entry }).count()).toBe(0);
      await page.keyboard.press("Escape");

      await page.locator('[data-widget-type="Todo"]').getByText("Water the plants").waitFor();
      await page.getByText("Shared with you by Anna Berg · view only").waitFor();
      await page.getByRole("button", { name: "Duplicate to edit" }).waitFor();
      expect(await editControls(page)).toEqual({
        addWidget: 0,
        editLayout: 0,
        undo: 0,
        widgetButtons: 0,
        widgetInputs: 0,
      });
      // "Edit layout" remembered on this device changes nothing for a viewer.
      await page.evaluate(() => localStorage.setItem("tessera:edit-layout", "on"));
      await page.reload();
      await page.locator('[data-widget-type="Todo"]').getByText("Water the plants").waitFor();
      expect((await editControls(page)).widgetButtons).toBe(0);
      expect(await page.locator(".grid-wrap.is-editing").count()).toBe(0);
      await page.evaluate(() => localStorage.removeItem("tessera:edit-layout"));
      await page.mouse.move(0, 0);
      await shoot(page, "viewer-board", { fullPage: true });
    },
    STEP * 2,
  );

  it(
    "Ben duplicates it into a board of his own, which he can edit",
    async () => {
      const { page } = ben;
      await page.getByRole("button", { name: "Duplicate to edit" }).click();
      await page.getByText("Copied “Team home”.").waitFor();
      await expect.poll(() => page.url()).not.toContain(board.id);
      await page.getByRole("button", { name: "Add widget" }).waitFor();
      expect(await page.getByText(/Shared with you/).count()).toBe(0);
      const mine = await ben.api<{ id: string; name: string; access: string; owner?: unknown }[]>(
        "GET",
        "/api/dashboards",
      );
      expect(mine.body).toHaveLength(1);
      expect(mine.body[0]).toMatchObject({ access: "owner" });
      expect(mine.body[0]!.owner).toBeUndefined();
      // His copy is listed among his own, the original still under Shared with me.
      const menu = await openSwitcher(page);
      await menu
        .getByRole("navigation", { name: "Your dashboards" })
        .getByRole("link", { name: mine.body[0]!.name })
        .waitFor();
      await menu
        .getByRole("navigation", { name: "Shared with me" })
        .getByRole("link", { name: /^Team home/ })
        .waitFor();
      await shoot(page, "switcher-shared");
      await page.keyboard.press("Escape");
    },
    STEP,
  );

  it(
    "Anna makes Ben editor; he edits the board, and its owner sees the change",
    async () => {
      const dialog = await openShareDialog(anna.page, "Team home");
      await dialog.getByRole("combobox", { name: `Role of ${BEN.name}` }).selectOption("editor");
      await dialog.getByRole("button", { name: "Save sharing" }).click();
      await dialog.waitFor({ state: "detached" });

      const { page } = ben;
      await page.goto(`${app.baseUrl}/d/${board.id}`);
      await page.getByText("Shared with you by Anna Berg · you can edit").waitFor();
      await page.getByRole("button", { name: "Add widget" }).waitFor();
      await page.getByRole("button", { name: "Edit layout" }).waitFor();
      const todo = page.locator('[data-widget-type="Todo"]');
      await todo.getByRole("checkbox", { name: /Water the plants/ }).check();
      await eventually(
        async () => (await anna.api("GET", `/api/widgets?dashboardId=${board.id}`)).body,
        (widgets: { widgetType: string; config: { todos?: { id: string; done: boolean }[] } }[]) =>
          widgets.find((w) => w.widgetType === "Todo")?.config.todos?.find((t) => t.id === "t1")?.done ===
          true,
        "Ben's tick to reach Anna's board",
      );
      // An editor renames and restyles, but does not share or delete.
      const menu = await openSwitcher(page);
      await menu.getByRole("button", { name: /^Rename/ }).waitFor();
      await menu.getByRole("button", { name: /^History/ }).waitFor();
      expect(await menu.getByRole("button", { name: /^Share/ }).count()).toBe(0);
      expect(await menu.getByRole("button", { name: /^Delete/ }).count()).toBe(0);
      await page.keyboard.press("Escape");
    },
    STEP,
  );

  it(
    "Anna makes a group on the admin page, edits its members and deletes another",
    async () => {
      const { page } = anna;
      await page.goto(`${app.baseUrl}/admin`);
      const section = page.locator("section.admin-section", {
        has: page.getByRole("heading", { name: "Groups" }),
      });
      await section.getByText("No groups yet.").waitFor();

      await section.getByRole("button", { name: "New group" }).click();
      let dialog = page.getByRole("dialog", { name: "New group" });
      await dialog.getByRole("textbox", { name: "Name" }).fill("Design team");
      await dialog.getByRole("checkbox", { name: new RegExp(BEN.name) }).check();
      await dialog.getByText("Members: 1 chosen").waitFor();
      await shoot(page, "group-dialog");
      await dialog.getByRole("button", { name: "Create group" }).click();
      await dialog.waitFor({ state: "detached" });
      const table = section.getByRole("table", { name: "Groups" });
      const row = table.getByRole("row", { name: /Design team/ });
      await row.getByText(BEN.name).waitFor();

      // Renamed, and Anna joins it.
      await row.getByRole("button", { name: "Edit Design team" }).click();
      dialog = page.getByRole("dialog", { name: "Edit “Design team”" });
      await dialog.getByRole("textbox", { name: "Name" }).fill("Design");
      await dialog.getByRole("checkbox", { name: /Anna Berg/ }).check();
      await dialog.getByRole("button", { name: "Save" }).click();
      await dialog.waitFor({ state: "detached" });
      await table
        .getByRole("row", { name: /Design/ })
        .getByText(`Anna Berg, ${BEN.name}`)
        .waitFor();

      // A second group, deleted after a confirmation that names it.
      await section.getByRole("button", { name: "New group" }).click();
      dialog = page.getByRole("dialog", { name: "New group" });
      await dialog.getByRole("textbox", { name: "Name" }).fill("Short-lived");
      await dialog.getByRole("button", { name: "Create group" }).click();
      await dialog.waitFor({ state: "detached" });
      await table
        .getByRole("row", { name: /Short-lived/ })
        .getByText("No members")
        .waitFor();
      await table.getByRole("button", { name: "Delete Short-lived" }).click();
      const confirm = page.getByRole("dialog", { name: "Delete the group “Short-lived”?" });
      await confirm.getByRole("button", { name: "Delete Short-lived" }).click();
      await confirm.waitFor({ state: "detached" });
      await expect.poll(() => table.getByRole("row", { name: /Short-lived/ }).count()).toBe(0);

      const groups = await anna.api<{ name: string; members: string[] }[]>("GET", "/api/admin/groups");
      expect(groups.body.map((g) => ({ name: g.name, members: g.members.length }))).toEqual([
        { name: "Design", members: 2 },
      ]);
      // The toasts would cover the picture: each is closed.
      const toasts = page.locator(".toast");
      await expect
        .poll(async () => {
          if ((await toasts.count()) > 0) await toasts.first().locator(".icon-button").click();
          return toasts.count();
        })
        .toBe(0);
      await page.mouse.move(0, 0);
      await shoot(page, "admin-groups", { fullPage: true });
    },
    STEP * 2,
  );

  it(
    "a board shared with everyone as viewer greets a newcomer under Shared with me",
    async () => {
      const welcome = await anna.board("Welcome", [{ widgetType: "Clock" }]);
      await anna.page.goto(`${app.baseUrl}/d/${welcome.id}`);
      const dialog = await openShareDialog(anna.page, "Welcome");
      // The group is offered too; everyone is picked with its hint.
      await dialog.getByRole("searchbox", { name: "Add people or groups" }).fill("every");
      const everyone = dialog.getByRole("button", { name: "Add Everyone on this instance" });
      await everyone.getByText("Everyone who has or will have an account").waitFor();
      await everyone.click();
      await dialog.getByRole("searchbox", { name: "Add people or groups" }).fill("des");
      await dialog.getByRole("button", { name: "Add Design" }).click();
      await dialog.getByRole("combobox", { name: "Role of Design" }).selectOption("editor");
      await dialog.getByRole("switch", { name: /Public link/ }).waitFor();
      await shoot(anna.page, "share-dialog-everyone", { phone: false });
      await dialog.getByRole("button", { name: "Save sharing" }).click();
      await dialog.waitFor({ state: "detached" });
      const stored = await anna.api("GET", `/api/dashboards/members?id=${welcome.id}`);
      expect(stored.body).toEqual([
        { type: "group", id: expect.any(String), name: "Design", role: "editor" },
        { type: "everyone", id: null, name: "", role: "viewer" },
      ]);

      const cleo = await invited({ name: "Cleo Diaz", email: `cleo-${stamp}@example.test` });
      try {
        await cleo.page.goto(`${app.baseUrl}/`);
        await cleo.page.getByRole("heading", { level: 1 }).waitFor();
        const menu = await openSwitcher(cleo.page);
        await menu
          .getByRole("navigation", { name: "Shared with me" })
          .getByRole("link", { name: /^Welcome · Anna Berg/ })
          .click();
        await cleo.page.getByText("Shared with you by Anna Berg · view only").waitFor();
        await cleo.page.getByRole("button", { name: "Duplicate to edit" }).waitFor();
      } finally {
        await cleo.context.close();
      }
      expect(pageErrors).toEqual([]);
    },
    STEP * 2,
  );
});

describe("sharing where anyone may sign up", () => {
  let open: E2eApp;
  beforeAll(async () => {
    // The tests' default: open sign-up, where the directory lists nobody and people are added by email.
    open = await startApp();
  }, 300_000);
  afterAll(async () => {
    await open?.stop();
  });

  it(
    "adds someone by the address they signed up with, and they find the board shared with them",
    async () => {
      const dee = await open.person({ name: "Dee Ekberg", settings: { theme: "system" } });
      const eve = await open.person({ name: "Eve Fischer", settings: { theme: "system" } });
      const notes = await dee.board("Notes", [{ widgetType: "Clock" }]);
      await dee.page.goto(`${open.baseUrl}/d/${notes.id}`);
      const dialog = await openShareDialog(dee.page, "Notes");
      const field = dialog.getByRole("searchbox", { name: "Add people by email, or a group" });
      await dialog.getByText("Anyone can join this Tessera, so it lists nobody").waitFor();
      await field.fill(eve.user.email);
      await dialog.getByRole("button", { name: `Add ${eve.user.email}` }).waitFor();
      await field.press("Enter");
      const members = dialog.getByRole("list", { name: "People with access" });
      await members.getByRole("combobox", { name: `Role of ${eve.user.email}` }).selectOption("editor");
      await shoot(dee.page, "share-dialog-by-email");
      await dialog.getByRole("button", { name: "Save sharing" }).click();
      await dialog.waitFor({ state: "detached" });
      const stored = await dee.api("GET", `/api/dashboards/members?id=${notes.id}`);
      expect(stored.body).toEqual([{ type: "user", id: eve.user.id, name: "Eve Fischer", role: "editor" }]);

      await eve.page.goto(`${open.baseUrl}/d/${notes.id}`);
      await eve.page.getByText("Shared with you by Dee Ekberg · you can edit").waitFor();
      await eve.page.getByRole("button", { name: "Add widget" }).waitFor();
    },
    STEP * 2,
  );
});
