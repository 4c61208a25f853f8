import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatReport, measureBundle } from "../scripts/bundle-size.mjs";
import {
  type ApiWidget,
  dragBy,
  floating,
  overlapping,
  storedBoxes,
  storedCells,
  waitForSaved,
} from "./support/grid-helpers.js";
import { eventually, pageApi } from "./support/page-helpers.js";
import { type E2eApp, startApp } from "./support/web-app.js";
import { CONFIG_WIDGETS, OFFERED_WIDGETS } from "./support/widget-types.js";

/**
 * The whole web app in real Chromium against the built bundle and the real server (embedded
 * database): one user's first day, step by step. Steps share one page and run in order.
 */

const ARTIFACTS = path.resolve("test-results");
const STEP_TIMEOUT = 60_000;

let app: E2eApp;
let baseUrl: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];
const user = {
  name: "Grace Hopper",
  email: `grace-${Date.now()}@example.test`,
  password: "a-long-enough-password",
};
let boardId = "";

const widget = (type: string): Locator => page.locator(`[data-widget-type="${type}"]`);

const api = pageApi(
  () => page,
  () => baseUrl,
);

async function serverWidgets(): Promise<ApiWidget[]> {
  const res = await api<ApiWidget[]>("GET", `/api/widgets?dashboardId=${boardId}`);
  expect(res.status).toBe(200);
  return res.body;
}

/**
 * Each card's cell as the grid shows it, in the stored pixels of the widest breakpoint (60 px
 * columns, 20 px rows): the tests run at 1440 px, where the grid has 24 columns.
 */
async function domRects() {
  return page.$$eval("[data-widget-type]", (cards) =>
    cards.map((card) => {
      const item = card.parentElement as HTMLElement;
      return {
        type: card.getAttribute("data-widget-type"),
        x: Number(item.dataset.col) * 60,
        y: Number(item.dataset.row) * 20,
        w: Number(item.dataset.cols) * 60,
        h: Number(item.dataset.rows) * 20,
      };
    }),
  );
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  app = await startApp();
  baseUrl = app.baseUrl;
  browser = app.browser;
  context = await browser.newContext({
    viewport: { width: 1440, height: 1400 },
    timezoneId: "Europe/Berlin",
    locale: "en-GB",
    // The service worker fetches API answers itself (network first, keeping offline copies), so
    // page.route below would not see them; the worker has its own test (e2e/pwa.e2e.test.ts).
    serviceWorkers: "block",
  });
  page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(error.message));
}, 300_000);

// Closing took over 60 s once in CI (2026-11-27, a loaded machine; never locally): each step's time
// is printed so the next occurrence says which one it was.
afterAll(async () => {
  const timed = async (step: string, close: () => Promise<void> | undefined) => {
    const started = performance.now();
    await close();
    console.log(`closing: ${step} took ${(performance.now() - started).toFixed(0)} ms`);
  };
  await timed("Chromium and the server", () => app?.stop());
}, 300_000);

describe("the built bundle", () => {
  it("keeps the dashboard route's initial JavaScript within 250 KB gzipped", () => {
    const report = measureBundle(app.webDist);
    console.log(formatReport(report));
    expect(report.initialJsGzip).toBeGreaterThan(10_000);
    expect(report.initialJsGzip).toBeLessThanOrEqual(report.budget);
    // Heavy parts load on demand: the Markdown renderer and the settings dialog are separate chunks.
    const lazy = report.assets.filter((a) => !a.initial).map((a) => a.file);
    expect(lazy.some((f) => f.includes("MarkdownPreview"))).toBe(true);
    expect(lazy.some((f) => f.includes("SettingsDialog"))).toBe(true);
  });

  it("is served with long-lived caching for hashed assets and none for the page", async () => {
    const res = await fetch(`${baseUrl}/d/some-client-route`, { headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const html = await res.text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${baseUrl}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    // API paths and missing assets are never answered with the page.
    expect((await fetch(`${baseUrl}/api/nothing-here`, { headers: { accept: "text/html" } })).status).toBe(
      404,
    );
    expect((await fetch(`${baseUrl}/assets/missing.js`, { headers: { accept: "text/html" } })).status).toBe(
      404,
    );
  });
});

describe("a first day in the browser", () => {
  it(
    "signs up with clear field errors first",
    async () => {
      await page.goto(`${baseUrl}/`);
      await page.waitForURL(/\/signin$/);
      await page.getByRole("link", { name: "Create an account" }).click();
      await page.getByRole("button", { name: "Create account" }).click();
      await expect.poll(() => page.getByText("Tell us what to call you").isVisible()).toBe(true);
      await page.getByLabel("Name").fill(user.name);
      await page.getByLabel("Email").fill(user.email);
      await page.getByLabel("Password").fill("short");
      await page.getByRole("button", { name: "Create account" }).click();
      await expect.poll(() => page.getByText("Use at least 8 characters").first().isVisible()).toBe(true);
      await page.getByLabel("Password").fill(user.password);
      await page.getByRole("button", { name: "Create account" }).click();
      await page.getByRole("dialog", { name: /Welcome to Tessera, Grace/ }).waitFor();
    },
    STEP_TIMEOUT,
  );

  it(
    "finishes onboarding, which creates a first dashboard and is never shown again",
    async () => {
      await page.getByRole("radio", { name: "Dark" }).click();
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
      await page.getByRole("radio", { name: "Light" }).click();
      await page.getByRole("button", { name: "Next" }).click();
      await page.getByLabel("Dashboard name").fill("Home");
      await page.getByRole("button", { name: "Create and continue" }).click();
      await page.getByRole("button", { name: "Get started" }).click();
      await page.getByRole("heading", { name: "Home", level: 1 }).waitFor();
      await expect.poll(() => page.getByRole("dialog").count()).toBe(0);
      const settings = await api("GET", "/api/settings");
      expect(settings.body[0]).toMatchObject({ onboardingCompleted: true, config: { theme: "light" } });
      await page.reload();
      await page.getByRole("heading", { name: "Home", level: 1 }).waitFor();
      expect(await page.getByText("Welcome to Tessera").count()).toBe(0);
    },
    STEP_TIMEOUT,
  );

  it(
    "creates a dashboard from the switcher and opens it",
    async () => {
      await page.getByRole("button", { name: "Home" }).click();
      await page.getByRole("button", { name: "New dashboard" }).click();
      await page.getByRole("dialog", { name: "New dashboard" }).getByLabel("Name").fill("Launch");
      await page.getByRole("button", { name: "Create dashboard" }).click();
      await page.getByRole("heading", { name: "Launch", level: 1 }).waitFor();
      await page.getByRole("button", { name: "Launch", exact: true }).click();
      await page.getByRole("button", { name: "Rename “Launch”" }).click();
      const rename = page.getByRole("dialog", { name: "Rename dashboard" });
      await rename.getByLabel("Name").fill("   ");
      await rename.getByRole("button", { name: "Rename" }).click();
      await rename.getByText("Give the dashboard a name").waitFor();
      await rename.getByLabel("Name").fill("Launch week");
      await rename.getByRole("button", { name: "Rename" }).click();
      await page.getByRole("heading", { name: "Launch week", level: 1 }).waitFor();
      boardId = /\/d\/([0-9a-f-]{36})$/.exec(page.url())?.[1] ?? "";
      expect(boardId).not.toBe("");
      await page.getByText("This dashboard is empty").waitFor();
      const settings = await eventually(
        () => api("GET", "/api/settings"),
        (r) => r.body[0]?.lastDashboardId === boardId,
        "lastDashboardId",
      );
      expect(settings.body[0].lastDashboardId).toBe(boardId);
    },
    STEP_TIMEOUT,
  );

  it(
    "adds each of the widgets that need no data source from the picker",
    async () => {
      await page.getByRole("button", { name: "Add widget" }).click();
      const picker = page.getByRole("dialog", { name: "Add a widget" });
      // Every type is offered; the data widgets have their own e2e file (data-widgets).
      expect(await picker.locator(".picker-card").count()).toBe(OFFERED_WIDGETS.length);
      await picker.getByRole("searchbox", { name: "Search widgets" }).fill("checklist");
      expect(await picker.locator(".picker-card").count()).toBe(1);
      await picker.getByRole("searchbox", { name: "Search widgets" }).fill("");
      await page.keyboard.press("Escape");

      for (const { type, name } of CONFIG_WIDGETS) {
        await page.getByRole("button", { name: "Add widget" }).click();
        await page.getByRole("button", { name: new RegExp(`^Add ${name}:`) }).click();
        await widget(type).waitFor();
      }
      expect(await page.locator("[data-widget-type]").count()).toBe(CONFIG_WIDGETS.length);
      const stored = await serverWidgets();
      expect(stored.map((w) => w.widgetType).sort()).toEqual(CONFIG_WIDGETS.map((w) => w.type).sort());
      expect(overlapping(storedBoxes(stored))).toBeNull();
    },
    STEP_TIMEOUT,
  );

  it(
    "edits the clock and the countdown through their settings panels",
    async () => {
      await page.getByRole("button", { name: "Clock settings" }).click();
      const clockDialog = page.getByRole("dialog", { name: "Clock settings" });
      await clockDialog.getByLabel("Time zone").selectOption("Asia/Tokyo");
      await clockDialog.getByLabel("Hour format").selectOption("12");
      await clockDialog.getByRole("button", { name: "Save" }).click();
      await widget("Clock").getByRole("heading", { name: "Clock · Tokyo" }).waitFor();
      await expect.poll(() => widget("Clock").locator(".clock-period").textContent()).toMatch(/am|pm/i);

      await page.getByRole("button", { name: "Countdown settings" }).click();
      const countdownDialog = page.getByRole("dialog", { name: "Countdown settings" });
      await countdownDialog.getByLabel("Title").fill("Launch");
      await countdownDialog.getByRole("button", { name: "Use 🚀" }).click();
      await countdownDialog.getByLabel("Date and time").fill("2031-06-01T09:30");
      await countdownDialog.getByRole("button", { name: "Save" }).click();
      await widget("Countdown").locator(".countdown-title", { hasText: "Launch" }).waitFor();
      expect(await widget("Countdown").getByRole("timer").count()).toBe(1);
    },
    STEP_TIMEOUT,
  );

  it(
    "adds, edits, reorders and removes bookmarks",
    async () => {
      const bookmarks = widget("Bookmark");
      for (const [title, url] of [
        ["Health", `${baseUrl}/healthz`],
        ["API docs", `${baseUrl}/api/docs`],
        ["Spare", `${baseUrl}/spare`],
      ]) {
        await bookmarks.getByRole("button", { name: "Add bookmark" }).click();
        await bookmarks.getByLabel("Bookmark title").fill(title!);
        await bookmarks.getByLabel("Bookmark URL").fill(url!);
        await bookmarks.getByRole("button", { name: "Add", exact: true }).click();
      }
      await bookmarks.getByRole("button", { name: "Add bookmark" }).click();
      await bookmarks.getByLabel("Bookmark URL").fill("javascript:alert(1)");
      await bookmarks.getByRole("button", { name: "Add", exact: true }).click();
      await bookmarks.getByText("Enter a web address").waitFor();
      await bookmarks.getByRole("button", { name: "Cancel" }).click();

      await bookmarks.getByRole("button", { name: "Edit Health" }).click();
      await bookmarks.getByLabel("Bookmark title").fill("Health check");
      await bookmarks.getByRole("button", { name: "Save" }).click();
      await bookmarks.getByRole("button", { name: "Remove Spare" }).click();
      await bookmarks.getByRole("button", { name: "Reorder API docs (arrow keys)" }).press("ArrowUp");
      await expect
        .poll(() => bookmarks.locator(".bookmark-title").allTextContents())
        .toEqual(["API docs", "Health check"]);
      // No favicon at that address: the initial stands in.
      await expect.poll(() => bookmarks.locator(".bookmark-initial").count()).toBe(2);
      expect(await bookmarks.getByRole("link", { name: /Health check/ }).getAttribute("rel")).toContain(
        "noopener",
      );
    },
    STEP_TIMEOUT,
  );

  it(
    "adds, toggles, edits, reorders, removes and clears todos",
    async () => {
      const todos = widget("Todo");
      for (const text of ["Buy milk", "Write report", "Call mom", "Throw away"]) {
        await todos.getByLabel("New todo").fill(text);
        await todos.getByLabel("New todo").press("Enter");
      }
      await todos.getByLabel("Done: Throw away").check();
      await todos.getByRole("button", { name: "Clear done (1)" }).click();
      await todos.getByLabel("Done: Buy milk").check();
      await todos.getByRole("button", { name: "Remove Call mom" }).click();
      await todos.getByRole("button", { name: "Edit Write report" }).click();
      await todos.getByLabel("Edit todo").fill("Write the report");
      await todos.getByLabel("Edit todo").press("Enter");
      await todos.getByRole("button", { name: "Reorder Write the report (arrow keys)" }).press("ArrowUp");
      await expect
        .poll(() => todos.locator(".todo-text").allTextContents())
        .toEqual(["Write the report", "Buy milk"]);
      expect(await todos.getByText("1 left").count()).toBe(1);
    },
    STEP_TIMEOUT,
  );

  it(
    "keeps a change the server could not take, says so, and saves it on retry",
    async () => {
      await waitForSaved(page);
      // A to-do travels as a patch (PATCH) first, then whole (PUT) once it could not: both fail.
      await page.route("**/api/widgets", (route) =>
        ["PUT", "PATCH"].includes(route.request().method()) ? route.abort() : route.continue(),
      );
      const todos = widget("Todo");
      await todos.getByLabel("New todo").fill("Made while offline");
      await todos.getByLabel("New todo").press("Enter");
      await page.locator(".save-status.is-failing").waitFor({ timeout: 10_000 });
      await page.locator(".toast", { hasText: "Couldn't save your changes" }).waitFor();
      expect(await todos.getByText("Made while offline").count()).toBe(1);
      const stale = (await serverWidgets()).find((w) => w.widgetType === "Todo");
      expect(JSON.stringify(stale?.config)).not.toContain("Made while offline");
      await page.unroute("**/api/widgets");
      await page.locator(".save-status").getByRole("button", { name: "Retry now" }).click();
      await waitForSaved(page);
      const saved = (await serverWidgets()).find((w) => w.widgetType === "Todo")!;
      expect(saved.config.todos.map((t: { text: string }) => t.text)).toEqual([
        "Write the report",
        "Buy milk",
        "Made while offline",
      ]);
      await todos.getByRole("button", { name: "Remove Made while offline" }).click();
      await waitForSaved(page);
    },
    STEP_TIMEOUT,
  );

  it(
    "builds a kanban board: cards, a drag across columns, a new column",
    async () => {
      const board = widget("Kanban");
      const todoColumn = board.getByRole("region", { name: "Column To do" });
      await todoColumn.getByRole("button", { name: "Add card" }).click();
      for (const title of ["Design", "Build", "Ship"]) {
        await todoColumn.getByLabel("Card title").fill(title);
        await todoColumn.getByLabel("Card title").press("Enter");
      }
      await todoColumn.getByLabel("Card title").press("Escape");
      // Pointer drag and drop across columns.
      await board
        .locator("[data-card-id]", { hasText: "Design" })
        .dragTo(board.getByRole("region", { name: "Column Doing" }));
      // Keyboard equivalent: Alt+Right moves a card to the next column.
      await board.locator("[data-card-id]", { hasText: "Ship" }).locator(".kanban-card-title").focus();
      await page.keyboard.press("Alt+ArrowRight");
      await expect
        .poll(() => board.getByRole("region", { name: "Column Doing" }).getByText("Ship").count())
        .toBe(1);
      await board.locator("[data-card-id]", { hasText: "Ship" }).locator(".kanban-card-title").focus();
      await page.keyboard.press("Alt+ArrowRight");
      await board.getByRole("button", { name: "Column", exact: true }).click();
      await board.getByLabel("Column title").fill("Review");
      await board.getByLabel("Column title").press("Enter");
      await board.getByRole("region", { name: "Column Review" }).waitFor();
      const columnCards = (name: string) =>
        board
          .getByRole("region", { name: `Column ${name}` })
          .locator(".kanban-card-title")
          .allTextContents();
      await expect.poll(() => columnCards("To do")).toEqual(["Build"]);
      await expect.poll(() => columnCards("Doing")).toEqual(["Design"]);
      await expect.poll(() => columnCards("Done")).toEqual(["Ship"]);

      // The settings panel manages columns: move Review before Done, recolour it.
      await page.getByRole("button", { name: "Kanban settings" }).click();
      const panel = page.getByRole("dialog", { name: "Kanban settings" });
      await panel.getByRole("button", { name: "Move Review up" }).click();
      const reviewRow = panel.locator(".list-editor-row").nth(2);
      expect(await reviewRow.getByLabel("Column title").inputValue()).toBe("Review");
      await reviewRow.getByLabel("#ef4444").check();
      await panel.getByRole("button", { name: "Save" }).click();
      const titles = () =>
        board.locator(".kanban-column-title").evaluateAll((els) => els.map((e) => e.firstChild?.textContent));
      await expect.poll(titles).toEqual(["To do", "Doing", "Review", "Done"]);
    },
    STEP_TIMEOUT,
  );

  it(
    "writes Markdown notes and previews them sanitized",
    async () => {
      const notes = widget("Editor");
      await notes.getByRole("button", { name: "New note" }).click();
      await notes.getByLabel("Note title").fill("Plan");
      await notes
        .getByLabel("Note text (Markdown)")
        .fill(
          '# Hello\n\n- **bold** item\n\n<img src=x onerror="window.__xss=1">\n<script>window.__xss=2</script>',
        );
      await notes.getByRole("button", { name: "New", exact: true }).click();
      await notes.getByLabel("Note title").fill("Second");
      await notes.getByRole("button", { name: "Plan" }).click();
      await notes.getByRole("button", { name: "Preview" }).click();
      await notes.locator(".markdown h1", { hasText: "Hello" }).waitFor();
      expect(await notes.locator(".markdown strong").textContent()).toBe("bold");
      expect(await notes.locator(".markdown script").count()).toBe(0);
      expect(await notes.locator(".markdown img").getAttribute("onerror")).toBeNull();
      expect(await page.evaluate(() => (window as any).__xss)).toBeUndefined();
      await notes.getByRole("button", { name: "Edit", exact: true }).click();
    },
    STEP_TIMEOUT,
  );

  it(
    "shows a page in a sandboxed frame, refusing other schemes",
    async () => {
      const frame = widget("Frame");
      await frame.getByLabel("Page URL").fill("javascript:alert(1)");
      await frame.getByRole("button", { name: "Show" }).click();
      await frame.getByText("Enter an http or https address").waitFor();
      await frame.getByLabel("Page URL").fill(`${baseUrl}/healthz`);
      await frame.getByRole("button", { name: "Show" }).click();
      const iframe = frame.locator("iframe");
      await iframe.waitFor();
      expect(await iframe.getAttribute("src")).toBe(`${baseUrl}/healthz`);
      const sandbox = (await iframe.getAttribute("sandbox"))?.split(/\s+/) ?? [];
      expect(sandbox).toContain("allow-scripts");
      expect(sandbox).not.toContain("allow-same-origin");
      await waitForSaved(page);
    },
    STEP_TIMEOUT,
  );

  it(
    "drags and resizes in Edit layout, snapping to the grid and pushing neighbours aside",
    async () => {
      await waitForSaved(page);
      // Locked until asked: no handles, and a drag on a header moves nothing.
      expect(await page.locator(".widget-grip, .widget-resize").count()).toBe(0);
      expect(
        await page
          .locator(".widget-header")
          .getByRole("button", { name: /^Remove / })
          .count(),
      ).toBe(0);
      const locked = await serverWidgets();
      await dragBy(page, widget("Clock").locator(".widget-title"), 400, 300);
      expect(await serverWidgets()).toEqual(locked);
      await page.getByRole("button", { name: "Edit layout" }).click();
      await widget("Clock")
        .getByRole("button", { name: /^Move Clock/ })
        .waitFor();

      const before = await serverWidgets();
      const beforeById = new Map(before.map((w) => [w.id, w]));
      const clock = before.find((w) => w.widgetType === "Clock")!;
      const lowest = Math.max(...before.map((w) => w.positionY + w.height));

      // Move the clock below everything else: it lands on what is below it in its columns.
      await dragBy(page, widget("Clock").locator(".widget-title"), 37, lowest - clock.positionY + 53);
      // Grow the frame from its corner.
      const frameBefore = before.find((w) => w.widgetType === "Frame")!;
      await dragBy(page, widget("Frame").locator(".widget-resize"), 93, 71);

      await eventually(
        serverWidgets,
        (list) => {
          const c = list.find((w) => w.widgetType === "Clock")!;
          const f = list.find((w) => w.widgetType === "Frame")!;
          return c.positionY !== clock.positionY && f.width !== frameBefore.width;
        },
        "the moved clock and the resized frame to be saved",
      );
      // The neighbours the resize pushed down are saved by their own requests: read once the page
      // says every change is saved, not while the last of them may still be on its way.
      await waitForSaved(page);
      const after = await serverWidgets();
      const movedClock = after.find((w) => w.widgetType === "Clock")!;
      const resized = after.find((w) => w.widgetType === "Frame")!;
      // Stored on the widest breakpoint's lattice: 60 px columns, 20 px rows.
      for (const value of [movedClock.positionX, resized.width]) expect(value % 60).toBe(0);
      for (const value of [movedClock.positionY, resized.height]) expect(value % 20).toBe(0);
      expect(movedClock.positionY).toBeGreaterThan(clock.positionY);
      // The grid keeps no holes: what was below the clock slid up into its place.
      expect(floating(storedCells(after))).toEqual([]);
      expect(resized.width).toBeGreaterThan(frameBefore.width);
      expect(resized.height).toBeGreaterThan(frameBefore.height);
      expect(overlapping(storedBoxes(after))).toBeNull();
      // Besides the two touched widgets, only widgets that moved straight up or down were written
      // (into the clock's old place, or pushed down by the resize).
      for (const w of after.filter((w) => beforeById.get(w.id)!.updatedAt !== w.updatedAt)) {
        if (w.widgetType === "Clock" || w.widgetType === "Frame") continue;
        const was = beforeById.get(w.id)!;
        expect(w.positionY, w.widgetType).not.toBe(was.positionY);
        expect([w.positionX, w.width, w.height]).toEqual([was.positionX, was.width, was.height]);
      }

      // The keyboard moves a widget too: arrow keys on its handle, one column at a time, announced.
      const beforeKeys = (await serverWidgets()).find((w) => w.widgetType === "Clock")!;
      await widget("Clock")
        .getByRole("button", { name: /^Move Clock/ })
        .press("ArrowRight");
      await eventually(
        serverWidgets,
        (list) => list.find((w) => w.widgetType === "Clock")!.positionX === beforeKeys.positionX + 60,
        "the keyboard move to be saved",
      );
      expect(await page.getByTestId("grid-announcer").textContent()).toMatch(
        /^Clock moved: column \d+, row \d+/,
      );
      await page.getByRole("button", { name: "Undo" }).click();
      await waitForSaved(page);

      // Dropping the clock onto the countdown swaps or pushes, never overlaps or snaps back.
      const countdown = (await serverWidgets()).find((w) => w.widgetType === "Countdown")!;
      const clockNow = (await serverWidgets()).find((w) => w.widgetType === "Clock")!;
      const from = (await widget("Clock").boundingBox())!;
      const to = (await widget("Countdown").boundingBox())!;
      await dragBy(page, widget("Clock").locator(".widget-title"), to.x - from.x + 4, to.y - from.y + 4);
      await waitForSaved(page);
      expect(overlapping(await domRects())).toBeNull();
      const dropped = await serverWidgets();
      const clockDropped = dropped.find((w) => w.widgetType === "Clock")!;
      const countdownMoved = dropped.find((w) => w.widgetType === "Countdown")!;
      expect([clockDropped.positionX, clockDropped.positionY]).toEqual([
        countdown.positionX,
        countdown.positionY,
      ]);
      expect([countdownMoved.positionX, countdownMoved.positionY]).not.toEqual([
        countdown.positionX,
        countdown.positionY,
      ]);

      // Undo puts both back where they were before that drop.
      await page.getByRole("button", { name: "Undo" }).click();
      await eventually(
        serverWidgets,
        (list) => {
          const c = list.find((w) => w.widgetType === "Clock")!;
          const d = list.find((w) => w.widgetType === "Countdown")!;
          return (
            c.positionX === clockNow.positionX &&
            c.positionY === clockNow.positionY &&
            d.positionX === countdown.positionX &&
            d.positionY === countdown.positionY
          );
        },
        "the undone move to be saved",
      );
      await page.getByRole("button", { name: "Done", exact: true }).click();
      expect(await page.locator(".widget-grip").count()).toBe(0);
    },
    STEP_TIMEOUT,
  );

  it(
    "finds everything as it was left after a reload, and answers a click at once",
    async () => {
      await waitForSaved(page);
      const expected = await serverWidgets();
      const timings: number[] = [];
      for (let i = 0; i < 3; i++) {
        await page.reload();
        await page.locator("[data-widget-type]").nth(6).waitFor();
        const mark = await page.waitForFunction(
          () => performance.getEntriesByName("tessera:dashboard-interactive")[0]?.startTime,
        );
        timings.push(Number(await mark.jsonValue()));
      }
      // Interactive means it answers input: a click on a todo checkbox takes effect at once.
      const clicked = await page.evaluate(async () => {
        const box = document.querySelector<HTMLInputElement>('[data-widget-type="Todo"] .todo-check');
        const started = performance.now();
        box?.click();
        await new Promise((r) => requestAnimationFrame(() => r(null)));
        return { checked: box?.checked, ms: performance.now() - started };
      });
      expect(clicked.checked).toBe(true);
      await page.getByLabel("Done: Write the report").uncheck();
      timings.sort((a, b) => a - b);
      const median = timings[1]!;
      console.log(
        `Dashboard with 7 widgets interactive (navigation start → all widgets rendered): median ${median.toFixed(0)} ms of [${timings
          .map((t) => t.toFixed(0))
          .join(", ")}]; first click handled in ${clicked.ms.toFixed(1)} ms`,
      );
      // The figure is reported, not asserted: a time budget in a test fails on a loaded machine
      // (CI runs the fuzzers beside it). The page-load budget lives in `npm run bench:lean`.

      const rects = await domRects();
      for (const w of expected) {
        const rect = rects.find((r) => r.type === w.widgetType)!;
        expect(rect).toEqual({ type: w.widgetType, x: w.positionX, y: w.positionY, w: w.width, h: w.height });
      }
      await widget("Clock").getByRole("heading", { name: "Clock · Tokyo" }).waitFor();
      expect(await widget("Countdown").locator(".countdown-title").textContent()).toBe("Launch");
      expect(await widget("Bookmark").locator(".bookmark-title").allTextContents()).toEqual([
        "API docs",
        "Health check",
      ]);
      expect(await widget("Todo").locator(".todo-text").allTextContents()).toEqual([
        "Write the report",
        "Buy milk",
      ]);
      expect(await widget("Todo").getByLabel("Done: Buy milk").isChecked()).toBe(true);
      expect(
        await widget("Kanban")
          .getByRole("region", { name: "Column Doing" })
          .locator(".kanban-card-title")
          .allTextContents(),
      ).toEqual(["Design"]);
      expect(await widget("Kanban").getByRole("region", { name: "Column Review" }).count()).toBe(1);
      const review = expected.find((w) => w.widgetType === "Kanban")!.config.columns[2];
      expect(review).toMatchObject({ title: "Review", color: "#ef4444" });
      expect(await widget("Editor").locator(".editor-note-label").allTextContents()).toEqual([
        "Second",
        "Plan",
      ]);
      expect(await widget("Frame").locator("iframe").getAttribute("src")).toBe(`${baseUrl}/healthz`);

      const stored = expected.find((w) => w.widgetType === "Countdown")!;
      expect(stored.config).toMatchObject({ title: "Launch", emoji: "🚀" });
      expect(new Date(stored.config.target).getTime()).toBe(new Date("2031-06-01T09:30:00+02:00").getTime());

      await page.mouse.move(0, 0);
      await waitForSaved(page);
      await page.screenshot({ path: path.join(ARTIFACTS, "dashboard.png") });
      // On a phone the grid has four columns and every widget takes all of them, one under another.
      await page.setViewportSize({ width: 390, height: 844 });
      await expect.poll(() => page.locator(".grid-wrap").getAttribute("data-breakpoint")).toBe("sm");
      const cells = await page.$$eval(".grid-item", (items) =>
        items.map((i) => [Number((i as HTMLElement).dataset.col), Number((i as HTMLElement).dataset.cols)]),
      );
      expect(cells).toHaveLength(CONFIG_WIDGETS.length);
      for (const [col, cols] of cells) expect([col, cols]).toEqual([0, 4]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.screenshot({ path: path.join(ARTIFACTS, "dashboard-mobile.png") });
      await page.setViewportSize({ width: 1440, height: 1400 });
    },
    STEP_TIMEOUT,
  );

  it(
    "shows the skeleton while a slow first answer comes, then the dashboard",
    async () => {
      // The first render waits for the bootstrap answer only until the next frame: a slow server
      // gets the skeleton, never a blank page.
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route("**/api/bootstrap*", async (route) => {
        await released;
        await route.continue().catch(() => {});
      });
      await page.reload({ waitUntil: "commit" });
      await page.locator(".app-skeleton").waitFor();
      expect(await page.locator("[data-widget-type]").count()).toBe(0);
      release();
      await page.locator("[data-widget-type]").nth(6).waitFor();
      expect(await page.locator(".app-skeleton").count()).toBe(0);
      await page.unroute("**/api/bootstrap*");
    },
    STEP_TIMEOUT,
  );

  it(
    "receives a notification posted from another session live in the bell",
    async () => {
      const signIn = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: baseUrl },
        body: JSON.stringify({ email: user.email, password: user.password }),
      });
      expect(signIn.status).toBe(200);
      const { token } = (await signIn.json()) as { token: string };
      // Only the realtime stream makes toasts for new notifications, so the toast proves live delivery.
      const posted = await fetch(`${baseUrl}/api/notifications`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ type: "alert", message: "Deploy finished on the other laptop" }),
      });
      expect(posted.status).toBe(201);

      await page
        .locator(".toast", { hasText: "Deploy finished on the other laptop" })
        .waitFor({ timeout: 10_000 });
      await expect.poll(() => page.getByTestId("unread-count").textContent()).toBe("1");
      await page.getByRole("button", { name: "Notifications, 1 unread" }).click();
      const list = page.getByRole("list", { name: "Notification list" });
      await list.getByText("Deploy finished on the other laptop").waitFor();
      await page.keyboard.press("Escape");
      expect(await page.getByTestId("unread-count").count()).toBe(0);
    },
    STEP_TIMEOUT,
  );

  it(
    "shows an ended countdown in every tab, and no tab sends a reminder of its own",
    async () => {
      const second = await context.newPage();
      await second.goto(page.url());
      await second.locator("[data-widget-type]").nth(6).waitFor();
      const minuteAgo = new Date(Date.now() - 60_000);
      const pad = (n: number) => String(n).padStart(2, "0");
      const local = `${minuteAgo.getFullYear()}-${pad(minuteAgo.getMonth() + 1)}-${pad(minuteAgo.getDate())}T${pad(
        minuteAgo.getHours(),
      )}:${pad(minuteAgo.getMinutes())}`;
      await page.getByRole("button", { name: "Countdown settings" }).click();
      await page.getByRole("dialog", { name: "Countdown settings" }).getByLabel("Date and time").fill(local);
      await page.getByRole("button", { name: "Save" }).click();
      await widget("Countdown").getByText("Ended").waitFor();
      await waitForSaved(page);
      // The second tab picks the change up on reload. Reminders are the server's (issue 16), sent
      // only for a future target with `notify` on: neither tab writes one.
      await second.reload();
      await second.locator('[data-widget-type="Countdown"]').getByText("Ended").waitFor();
      await second.close();
      const notifications = await api<{ message: string }[]>("GET", "/api/notifications");
      expect(notifications.body.filter((n) => n.message.includes("Launch has ended"))).toEqual([]);
      expect(notifications.body.length).toBeGreaterThan(0);

      await page.getByRole("button", { name: /^Notifications/ }).click();
      await page.getByRole("button", { name: "Clear all" }).click();
      await page.getByText("You're all caught up").waitFor();
      expect((await api("GET", "/api/notifications")).body).toEqual([]);
      await page.keyboard.press("Escape");
    },
    STEP_TIMEOUT,
  );

  it(
    "changes settings and the profile name",
    async () => {
      await page.getByRole("button", { name: "Settings", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Settings", exact: true });
      await dialog.getByRole("radio", { name: "Dark" }).click();
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
      await dialog.getByLabel("Hour format").selectOption("12");
      await dialog.getByRole("tab", { name: "Profile" }).click();
      await dialog.getByLabel("Name").fill("Grace B. Hopper");
      await dialog.getByRole("button", { name: "Save name" }).click();
      await page.locator(".toast", { hasText: "Name saved" }).waitFor();
      await dialog.getByRole("tab", { name: "Connections" }).click();
      for (const label of ["Google", "GitHub", "Notion"])
        await dialog.getByText(label, { exact: true }).waitFor();
      await page.keyboard.press("Escape");
      // Closing steps back over the dialog's history entries: a reload before that has happened
      // would open it again from the address (?settings=connections).
      await dialog.waitFor({ state: "detached" });
      await page.waitForURL((url) => !url.searchParams.has("settings"));
      const settings = await eventually(
        () => api("GET", "/api/settings"),
        (r) => r.body[0]?.config?.hourFormat === "12",
        "settings to be saved",
      );
      expect(settings.body[0].config).toMatchObject({ theme: "dark", hourFormat: "12" });
      // The browser no longer reminds of unfinished todos at the day's end (issue 16).
      expect((await api("GET", "/api/notifications")).body).toEqual([]);
      const session = await api("GET", "/api/auth/get-session");
      expect(session.body.user.name).toBe("Grace B. Hopper");
      await page.reload();
      await page.locator("[data-widget-type]").nth(6).waitFor();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
      await page.mouse.move(0, 0);
      await page.screenshot({ path: path.join(ARTIFACTS, "dashboard-dark.png") });
    },
    STEP_TIMEOUT,
  );

  it(
    "deletes the dashboard after a confirmation that names its widgets",
    async () => {
      await page.getByRole("button", { name: "Launch week" }).click();
      await page.getByRole("button", { name: "Delete “Launch week”…" }).click();
      const confirm = page.getByRole("dialog", { name: "Delete “Launch week”?" });
      await confirm.getByText("its 7 widgets").waitFor();
      await confirm.getByRole("button", { name: "Delete dashboard" }).click();
      await page.getByRole("heading", { name: "Home", level: 1 }).waitFor();
      const dashboards = await api<{ id: string; name: string }[]>("GET", "/api/dashboards");
      expect(dashboards.body.map((d) => d.name)).toEqual(["Home"]);
      expect((await api("GET", `/api/widgets?dashboardId=${boardId}`)).status).toBe(404);
    },
    STEP_TIMEOUT,
  );

  it(
    "signs out, and the session is gone",
    async () => {
      await page.getByRole("button", { name: /^Account:/ }).click();
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.waitForURL(/\/signin$/);
      expect((await api("GET", "/api/auth/get-session")).body).toBeNull();
      await page.goto(`${baseUrl}/d/${boardId}`);
      await page.waitForURL(/\/signin$/);
      expect(pageErrors).toEqual([]);
    },
    STEP_TIMEOUT,
  );
});
