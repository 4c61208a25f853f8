import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeBlocking } from "./support/axe.js";
import { dragBy, waitForSaved } from "./support/grid-helpers.js";
import { stylesSettled } from "./support/page-helpers.js";
import { type E2eApp, type Person, startApp } from "./support/web-app.js";

/**
 * Editing a shared dashboard together, live (DESIGN section 14), in Chromium against the built app
 * and the real server: Anna and Ben, each in a browser context of their own, on Anna's board.
 * Ben, a viewer, sees Anna's move and new widget without reloading, and each sees the other's
 * avatar; made editor, he sees "Anna Berg is editing" on the widget whose settings she opened,
 * and his change reaches her open settings panel as a question, not as a silent overwrite; the
 * two of them ticking different to-dos at once both land. Steps run in order and share the people.
 * Nothing here sleeps: every step waits on what the page shows.
 */
const SHOTS = process.env.SHOTS_DIR ?? path.resolve("test-results");
const STEP = 60_000;
const AT = "2026-01-05T09:00:00.000Z";

let app: E2eApp;
let anna: Person;
let ben: Person;
let board: { id: string; widgets: { id: string; widgetType: string }[] };
const pageErrors: string[] = [];

const todos = [
  { id: "t1", text: "Water the plants", done: false, createdAt: AT },
  { id: "t2", text: "Order coffee", done: false, createdAt: AT },
  { id: "t3", text: "Book the hall", done: false, createdAt: AT },
];

/**
 * `target` in the light and dark scheme (the users' theme follows the system), each checked with
 * axe, and at phone width, where nothing may stick out sideways.
 */
async function shoot(page: Page, target: Locator, name: string) {
  const viewport = page.viewportSize();
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(scheme);
    await stylesSettled(page);
    await target.screenshot({ path: path.join(SHOTS, `${name}-${scheme}.png`) });
    expect(await axeBlocking(page), `${name} in ${scheme}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
      .toBeLessThanOrEqual(390);
    await stylesSettled(page);
    await target.screenshot({ path: path.join(SHOTS, `${name}-390.png`) });
  } finally {
    if (viewport) await page.setViewportSize(viewport);
  }
}

const card = (page: Page, type: string) => page.locator(`section.dashboard [data-widget-type="${type}"]`);
const gridItem = (page: Page, type: string) =>
  page.locator(".grid-item").filter({ has: page.locator(`[data-widget-type="${type}"]`) });
const toolbar = (page: Page) => page.locator(".dashboard-toolbar");
const presence = (page: Page) => page.getByRole("list", { name: "Also on this dashboard" });
/** A presence entry by what it says ("Ben Carter is here"), for screen readers and as its tooltip. */
const person = (page: Page, says: string) => presence(page).locator(`li[title="${says}"]`);
const checkbox = (page: Page, text: string) =>
  card(page, "Todo").getByRole("checkbox", { name: `Done: ${text}` });

async function share(role: "viewer" | "editor") {
  const res = await anna.api("PUT", "/api/dashboards/members", {
    id: board.id,
    members: [{ type: "user", id: ben.user.id, role }],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function storedTodos() {
  const res = await anna.api("GET", `/api/widgets?dashboardId=${board.id}`);
  return res.body.find((w: { widgetType: string }) => w.widgetType === "Todo").config.todos as {
    id: string;
    done: boolean;
  }[];
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  app = await startApp();
  anna = await app.person({ name: "Anna Berg", settings: { theme: "system" } });
  ben = await app.person({ name: "Ben Carter", settings: { theme: "system" } });
  for (const p of [anna, ben]) p.page.on("pageerror", (error) => pageErrors.push(error.message));
  board = await anna.board("Family", [
    { widgetType: "Clock", positionX: 0, positionY: 0, width: 360, height: 240 },
    { widgetType: "Todo", positionX: 360, positionY: 0, width: 420, height: 400, config: { todos } },
  ]);
  await share("viewer");
}, 300_000);

afterAll(async () => {
  await app?.stop();
});

describe("editing a dashboard together, live", () => {
  it(
    "a viewer sees the owner's move and new widget without reloading, and each sees the other",
    async () => {
      await anna.page.goto(`${app.baseUrl}/d/${board.id}`);
      await ben.page.goto(`${app.baseUrl}/d/${board.id}`);
      await card(ben.page, "Clock").waitFor();
      // Each stream is live once the other's avatar shows: the server lists who watches.
      await person(anna.page, "Ben Carter is here").waitFor();
      await person(ben.page, "Anna Berg is here").waitFor();
      // Nobody is shown themselves.
      expect(await person(anna.page, "Anna Berg is here").count()).toBe(0);

      // Anna moves the clock a column right with the keyboard, in Edit layout.
      const before = Number(await gridItem(ben.page, "Clock").getAttribute("data-col"));
      await anna.page.getByRole("button", { name: "Edit layout" }).click();
      await anna.page.getByRole("button", { name: /^Move Clock/ }).press("ArrowRight");
      await expect
        .poll(() => gridItem(ben.page, "Clock").getAttribute("data-col"), { timeout: 10_000 })
        .toBe(String(before + 1));
      expect(await gridItem(ben.page, "Clock").getAttribute("data-row")).toBe("0");
      await toolbar(anna.page).getByRole("button", { name: "Done" }).click();

      // A widget Anna adds appears on Ben's screen.
      const added = await anna.api("POST", "/api/widgets", {
        dashboardId: board.id,
        widgetType: "Countdown",
        positionX: 0,
        positionY: 500,
        width: 360,
        height: 240,
        config: { title: "Holidays" },
      });
      expect(added.status).toBe(201);
      await card(ben.page, "Countdown").waitFor();
      // ... and one she removes goes.
      expect((await anna.api("DELETE", `/api/widgets?id=${added.body.id}`)).status).toBe(200);
      await card(ben.page, "Countdown").waitFor({ state: "detached" });

      await shoot(anna.page, anna.page.locator(".dashboard-toolbar"), "live-presence-bar");
      expect(pageErrors).toEqual([]);
    },
    STEP * 2,
  );

  it(
    "made editor, Ben sees which widget Anna edits, and his change reaches her open panel as a question",
    async () => {
      await share("editor");
      // The change of access arrives live: Ben's board grows its controls without a reload.
      await ben.page.getByRole("button", { name: "Add widget" }).waitFor();

      await anna.page.getByRole("button", { name: "Todo settings" }).click();
      const dialog = anna.page.getByRole("dialog", { name: "Todo settings" });
      await dialog.waitFor();
      await card(ben.page, "Todo").getByText("Anna Berg is editing").waitFor();
      await person(ben.page, "Anna Berg is editing Todo").waitFor();
      await shoot(ben.page, card(ben.page, "Todo"), "live-editing-badge");
      await shoot(ben.page, ben.page.locator(".dashboard-toolbar"), "live-presence-editing");

      // Ben moves the widget while Anna's panel is open: only its place changed, nothing to ask.
      const todoCol = Number(await gridItem(anna.page, "Todo").getAttribute("data-col"));
      await ben.page.getByRole("button", { name: "Edit layout" }).click();
      await ben.page.getByRole("button", { name: /^Move Todo/ }).press("ArrowRight");
      await expect.poll(() => gridItem(anna.page, "Todo").getAttribute("data-col")).toBe(String(todoCol + 1));
      await toolbar(ben.page).getByRole("button", { name: "Done" }).click();
      expect(await dialog.getByRole("alert").count()).toBe(0);

      // Ben ticks a to-do while Anna's panel is open: she is asked, nothing is overwritten.
      await checkbox(ben.page, "Water the plants").check();
      const notice = dialog.getByRole("alert");
      await notice.getByText("Ben Carter changed this widget while you were editing").waitFor();
      await shoot(anna.page, dialog, "live-conflict-notice");

      // "Load their version" puts his tick into her panel and ends the question.
      await notice.getByRole("button", { name: "Load their version" }).click();
      await notice.waitFor({ state: "detached" });
      expect(await dialog.getByRole("checkbox", { name: "Done: Water the plants" }).isChecked()).toBe(true);

      // He changes it again; she keeps hers, on purpose: saved over his on his new revision.
      await checkbox(ben.page, "Order coffee").check();
      await notice.getByText("Ben Carter changed this widget while you were editing").waitFor();
      await dialog.getByRole("checkbox", { name: "Done: Book the hall" }).check();
      await notice.getByRole("button", { name: "Keep mine" }).click();
      await dialog.waitFor({ state: "detached" });
      await expect.poll(async () => (await storedTodos()).map((t) => t.done)).toEqual([true, false, true]);
      // Ben sees her version, and no longer that she edits it.
      await expect.poll(() => checkbox(ben.page, "Book the hall").isChecked()).toBe(true);
      expect(await checkbox(ben.page, "Order coffee").isChecked()).toBe(false);
      await card(ben.page, "Todo").getByText("Anna Berg is editing").waitFor({ state: "detached" });
      await person(ben.page, "Anna Berg is here").waitFor();
      expect(pageErrors).toEqual([]);
    },
    STEP * 2,
  );

  it(
    "two people ticking different to-dos of one list at the same moment both land",
    async () => {
      const patches: string[] = [];
      for (const p of [anna, ben])
        p.page.on("request", (request) => {
          if (request.url().endsWith("/api/widgets") && request.method() !== "GET")
            patches.push(
              `${request.method()} ${request.headers()["x-client-id"] ? "with" : "without"} client id`,
            );
        });
      // Both boxes are ticked before either tab hears of the other's change.
      await Promise.all([
        checkbox(anna.page, "Order coffee").check(),
        checkbox(ben.page, "Water the plants").uncheck(),
      ]);
      await expect.poll(async () => (await storedTodos()).map((t) => t.done)).toEqual([false, true, true]);
      for (const p of [anna, ben]) {
        await expect.poll(() => checkbox(p.page, "Order coffee").isChecked()).toBe(true);
        await expect.poll(() => checkbox(p.page, "Water the plants").isChecked()).toBe(false);
      }
      expect(patches).toEqual(["PATCH with client id", "PATCH with client id"]);

      // Two tabs of one person: each ticks its own; both land, and each tab shows both.
      const second = await anna.context.newPage();
      second.on("pageerror", (error) => pageErrors.push(error.message));
      await second.goto(`${app.baseUrl}/d/${board.id}`);
      await checkbox(second, "Book the hall").waitFor();
      await Promise.all([
        checkbox(anna.page, "Book the hall").uncheck(),
        checkbox(second, "Water the plants").check(),
      ]);
      await expect.poll(async () => (await storedTodos()).map((t) => t.done)).toEqual([true, true, false]);
      for (const page of [anna.page, second, ben.page]) {
        await expect.poll(() => checkbox(page, "Water the plants").isChecked()).toBe(true);
        await expect.poll(() => checkbox(page, "Book the hall").isChecked()).toBe(false);
      }
      await second.close();
      expect(pageErrors).toEqual([]);
    },
    STEP * 2,
  );

  it(
    "a widget dragged here does not jump when someone else moves another, and the drop keeps their move",
    async () => {
      await anna.page.getByRole("button", { name: "Edit layout" }).click();
      await ben.page.getByRole("button", { name: "Edit layout" }).click();
      const todoCol = await gridItem(anna.page, "Todo").getAttribute("data-col");
      const [clockBox, todoBox] = [
        (await card(anna.page, "Clock").boundingBox())!,
        (await card(anna.page, "Todo").boundingBox())!,
      ];
      // Anna holds the clock half-way through a drag to below the to-do list...
      await dragBy(
        anna.page,
        card(anna.page, "Clock").locator(".widget-title"),
        todoBox.x - clockBox.x,
        todoBox.height + 60,
        { release: false },
      );
      const held = await card(anna.page, "Clock").boundingBox();
      // ... while Ben moves the to-do list a column right, then ticks an item (its content redraws
      // at once).
      await ben.page.getByRole("button", { name: /^Move Todo/ }).press("ArrowRight");
      await toolbar(ben.page).getByRole("button", { name: "Done" }).click();
      // His move is stored before his tick is sent, so her tab hears of the move first.
      await waitForSaved(ben.page);
      await checkbox(ben.page, "Book the hall").check();
      await expect.poll(() => checkbox(anna.page, "Book the hall").isChecked()).toBe(true);
      // Her clock is where her pointer holds it.
      expect(await card(anna.page, "Clock").boundingBox()).toEqual(held);
      await anna.page.mouse.up();
      const benCol = String(Number(todoCol) + 1);
      await expect.poll(() => gridItem(anna.page, "Todo").getAttribute("data-col")).toBe(benCol);
      // The clock rests on the to-do list where he put it.
      const dropped = await gridItem(anna.page, "Clock").getAttribute("data-row");
      expect(dropped).toBe(await gridItem(anna.page, "Todo").getAttribute("data-rows"));
      // Both saves landed and neither undid the other: Ben sees the same.
      await expect.poll(() => gridItem(ben.page, "Clock").getAttribute("data-row")).toBe(dropped);
      expect(await gridItem(ben.page, "Todo").getAttribute("data-col")).toBe(benCol);
      await anna.page.reload();
      await expect.poll(() => gridItem(anna.page, "Todo").getAttribute("data-col")).toBe(benCol);
      expect(await gridItem(anna.page, "Clock").getAttribute("data-row")).toBe(dropped);
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );

  it(
    "Ben is told at once when Anna stops sharing the board, and taken off it",
    async () => {
      const res = await anna.api("PUT", "/api/dashboards/members", { id: board.id, members: [] });
      expect(res.status).toBe(200);
      await ben.page.getByText("You no longer have access to Family").waitFor();
      await expect.poll(() => ben.page.url()).not.toContain(board.id);
      await ben.page.getByRole("heading", { name: "Family" }).waitFor({ state: "detached" });
      // His stream no longer watches it: Anna sees him gone.
      await person(anna.page, "Ben Carter is here").waitFor({ state: "detached" });
      expect(await presence(anna.page).count()).toBe(0);
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );
});
