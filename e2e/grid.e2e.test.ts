import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiWidget,
  dragBy,
  overlapping,
  shownCells,
  storedBoxes,
  waitForSaved,
} from "./support/grid-helpers.js";
import { pageApi } from "./support/page-helpers.js";
import { type E2eApp, startApp } from "./support/web-app.js";

/**
 * The responsive grid, Edit layout, the public page and the keyboard paths in Chromium, at the
 * widths people use (390, 1024, 1440, 1920 px), against the built app and the real server.
 * Steps share one page and run in order.
 */

const ARTIFACTS = path.resolve("test-results");
const STEP = 60_000;
const WIDTHS = [
  [390, "sm"],
  [1024, "lg"],
  [1440, "xl"],
  [1920, "xl"],
] as const;

let app: E2eApp;
let baseUrl: string;
let otherOrigin: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let boardId = "";
let secondBoardId = "";
const pageErrors: string[] = [];
const password = "a-long-enough-password";
const email = `grid-${Date.now()}@example.test`;

const widget = (type: string, on: Page = page): Locator => on.locator(`[data-widget-type="${type}"]`);
const api = pageApi(
  () => page,
  () => baseUrl,
);

async function serverWidgets(dashboardId = boardId): Promise<ApiWidget[]> {
  const res = await api<ApiWidget[]>("GET", `/api/widgets?dashboardId=${dashboardId}`);
  expect(res.status).toBe(200);
  return res.body;
}
const byType = (list: ApiWidget[], type: string) => list.find((w) => w.widgetType === type)!;

/**
 * Nothing leaves the machine: the bookmarks name home-network hosts (and their favicons and a
 * bookmark opened from the palette would be fetched), so every request to another host is
 * answered here.
 */
async function keepTrafficLocal(target: BrowserContext) {
  await target.route(
    (url) => url.hostname !== "127.0.0.1" && url.hostname !== "localhost",
    (route) => route.fulfill({ status: 200, contentType: "text/plain", body: "a page of another site" }),
  );
}

/** Each grid item's cell as shown: column, row, columns wide, rows high. */
const cells = (on: Page = page) => shownCells(on);

/** Page boxes of every card, for "nothing overlaps, nothing sticks out". */
async function cardBoxes(on: Page) {
  return on.$$eval("[data-widget-type]", (cards) =>
    cards.map((card) => {
      const r = card.getBoundingClientRect();
      return {
        type: card.getAttribute("data-widget-type"),
        x: r.left,
        y: r.top + window.scrollY,
        w: r.width,
        h: r.height,
      };
    }),
  );
}

/** No sideways scrolling, and every card whole inside the window's width. */
async function expectFits(on: Page, width: number) {
  const scroll = await on.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll.page, `sideways scroll at ${width}px`).toBeLessThanOrEqual(scroll.client);
  const boxes = await cardBoxes(on);
  for (const box of boxes) {
    expect(box.x, `${box.type} at ${width}px`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.w, `${box.type} at ${width}px`).toBeLessThanOrEqual(scroll.client + 0.5);
    expect(box.w, `${box.type} at ${width}px`).toBeGreaterThan(150);
  }
  expect(overlapping(boxes)).toBeNull();
  return boxes;
}

async function showBoard(width: number, breakpoint: string, on: Page = page) {
  await on.setViewportSize({ width, height: 1000 });
  await expect.poll(() => on.locator(".grid-wrap").getAttribute("data-breakpoint")).toBe(breakpoint);
  // The grid has measured its new width: the test board's first row spans all its columns.
  await expect
    .poll(() =>
      on.evaluate(() => {
        const wrap = document.querySelector(".grid-wrap")!.getBoundingClientRect();
        const right = Math.max(
          ...[...document.querySelectorAll(".grid-item")].map((i) => i.getBoundingClientRect().right),
        );
        return Math.abs(right - wrap.right) < 1;
      }),
    )
    .toBe(true);
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  app = await startApp();
  baseUrl = app.baseUrl;
  // The same server under another name is another origin, as a self-hosted app beside Tessera is.
  otherOrigin = baseUrl.replace("127.0.0.1", "localhost");
  browser = app.browser;
  context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, locale: "en-GB" });
  await keepTrafficLocal(context);
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.on("pageerror", (error) => pageErrors.push(error.message));
  await page.goto(`${baseUrl}/signin`);

  const signUp = await api("POST", "/api/auth/sign-up/email", { name: "Linus", email, password });
  expect(signUp.status).toBe(200);
  const settings = await api("GET", "/api/settings");
  await api("PUT", "/api/settings", {
    id: settings.body[0].id,
    onboardingCompleted: true,
    config: { theme: "light", todoReminder: false, countdownReminder: false },
  });
  boardId = (await api("POST", "/api/dashboards", { name: "Home lab" })).body.id;
  secondBoardId = (await api("POST", "/api/dashboards", { name: "Travel plans" })).body.id;
  const now = new Date().toISOString();
  // Stored pixels: the widest breakpoint's layout, 60 px columns, 20 px rows; 24 columns in all.
  const layout: [string, number, number, number, number, object][] = [
    ["Clock", 0, 0, 300, 200, {}],
    ["Countdown", 300, 0, 300, 220, { title: "Launch", emoji: "🚀", target: "2031-06-01T09:30:00.000Z" }],
    [
      "Bookmark",
      600,
      0,
      360,
      300,
      {
        bookmarks: [
          { id: "b1", title: "Jellyfin", url: "http://jellyfin.home.lan:8096/" },
          { id: "b2", title: "Sonarr", url: "http://127.0.0.5:8989/" },
        ],
      },
    ],
    [
      "Todo",
      960,
      0,
      480,
      340,
      {
        todos: [
          { id: "t1", text: "Back up the NAS", done: true, createdAt: now },
          { id: "t2", text: "Renew the certificate", done: false, createdAt: now },
        ],
      },
    ],
    [
      "Editor",
      0,
      360,
      480,
      380,
      {
        notes: [{ id: "n1", title: "", emoji: "📝", markdown: "# Plan\n\n- **first** step", updatedAt: now }],
      },
    ],
    [
      "Kanban",
      480,
      360,
      600,
      380,
      {
        columns: [
          { id: "c1", title: "To do", color: "#64748b", cards: [{ id: "k1", title: "Patch the router" }] },
          { id: "c2", title: "Doing", color: "#3b82f6", cards: [] },
          { id: "c3", title: "Done", color: "#10b981", cards: [{ id: "k2", title: "Order disks" }] },
        ],
      },
    ],
    ["Frame", 1080, 360, 360, 380, { url: `${otherOrigin}/healthz` }],
    ["Weather", 0, 740, 360, 300, {}],
  ];
  for (const [widgetType, positionX, positionY, width, height, config] of layout) {
    const res = await api("POST", "/api/widgets", {
      dashboardId: boardId,
      widgetType,
      positionX,
      positionY,
      width,
      height,
      config,
    });
    expect(res.status).toBe(201);
  }
  await page.goto(`${baseUrl}/d/${boardId}`);
  await page.getByRole("heading", { name: "Home lab", level: 1 }).waitFor();
}, 300_000);

afterAll(() => app?.stop());

describe("the grid at every width", () => {
  it(
    "fits 390, 1024, 1440 and 1920 px: no sideways scroll, every widget whole (screenshots)",
    async () => {
      for (const [width, breakpoint] of WIDTHS) {
        await showBoard(width, breakpoint);
        await widget("Frame").locator("iframe").waitFor({ state: "attached" });
        const boxes = await expectFits(page, width);
        expect(boxes).toHaveLength(8);
        if (breakpoint === "sm") for (const b of boxes) expect(b.w).toBeGreaterThan(width - 60);
        if (width === 1920) {
          // The widest row spans the window: no 40 % left empty on a big screen.
          const right = Math.max(...boxes.map((b) => b.x + b.w));
          expect(right).toBeGreaterThan(width * 0.9);
        }
        await page.mouse.move(0, 0);
        await page.screenshot({ path: path.join(ARTIFACTS, `grid-${width}.png`), fullPage: true });
      }
      // The stored pixels did not change just by looking at the dashboard on other screens.
      const stored = await serverWidgets();
      expect(byType(stored, "Todo")).toMatchObject({ positionX: 960, width: 480 });
      expect(byType(stored, "Todo").config.layout).toBeUndefined();
      await showBoard(1440, "xl");
    },
    STEP,
  );
});

describe("the public page", () => {
  it(
    "is read-only for real: no enabled input or button besides navigation and the frame's load",
    async () => {
      const res = await api("PUT", "/api/dashboards", { id: boardId, name: "Home lab", isPublic: true });
      expect(res.status).toBe(200);
      const visitor = await browser.newContext({ viewport: { width: 1440, height: 1000 }, locale: "en-GB" });
      await keepTrafficLocal(visitor);
      try {
        const guest = await visitor.newPage();
        const errors: string[] = [];
        guest.on("pageerror", (e) => errors.push(e.message));
        await guest.goto(`${baseUrl}/p/${boardId}`);
        await guest.getByRole("heading", { name: "Home lab", level: 1 }).waitFor();
        await widget("Editor", guest).locator(".markdown h1", { hasText: "Plan" }).waitFor();

        const enabledControls = () =>
          guest.$$eval("input, textarea, select, button, [contenteditable='true']", (elements) =>
            elements
              .filter((e) => !(e as HTMLInputElement).disabled)
              .map(
                (e) => `${e.tagName.toLowerCase()}:${e.getAttribute("aria-label") ?? e.textContent?.trim()}`,
              ),
          );
        // The one button: the visitor's choice to load a page from another site.
        expect(await enabledControls()).toEqual(["button:Load the page"]);
        expect(await guest.locator("iframe").count()).toBe(0);
        const frame = widget("Frame", guest);
        expect(await frame.locator(".frame-origin").textContent()).toContain(otherOrigin);
        // Notes rendered, Kanban and Todo as lists, no place search for the weather.
        expect(await widget("Editor", guest).locator(".markdown strong").textContent()).toBe("first");
        expect(await widget("Kanban", guest).locator(".kanban-card").allTextContents()).toEqual([
          "Patch the router",
          "Order disks",
        ]);
        expect(await widget("Todo", guest).locator(".todo-text").allTextContents()).toEqual([
          "Back up the NAS (done)",
          "Renew the certificate",
        ]);
        expect(await widget("Weather", guest).getByText("No forecast to show here.").count()).toBe(1);
        // Links still work: bookmarks open their sites.
        expect(
          await widget("Bookmark", guest)
            .getByRole("link", { name: /Jellyfin/ })
            .getAttribute("href"),
        ).toBe("http://jellyfin.home.lan:8096/");
        await guest.mouse.move(0, 0);
        await guest.screenshot({ path: path.join(ARTIFACTS, "grid-public-1440.png"), fullPage: true });

        await frame.getByRole("button", { name: "Load the page" }).click();
        const iframe = frame.locator("iframe");
        await iframe.waitFor();
        expect(await iframe.getAttribute("src")).toBe(`${otherOrigin}/healthz`);
        // Another origin keeps its own origin in the sandbox (so its own API calls work).
        expect((await iframe.getAttribute("sandbox"))?.split(/\s+/)).toContain("allow-same-origin");
        expect(await frame.locator(".frame-origin-bar").textContent()).toContain(otherOrigin);
        expect(await enabledControls()).toEqual([]);

        for (const [width, breakpoint] of WIDTHS) {
          await showBoard(width, breakpoint, guest);
          await expectFits(guest, width);
        }
        await guest.setViewportSize({ width: 390, height: 844 });
        await guest.screenshot({ path: path.join(ARTIFACTS, "grid-public-390.png"), fullPage: true });
        expect(errors).toEqual([]);
      } finally {
        await visitor.close();
      }
    },
    STEP,
  );
});

describe("Edit layout", () => {
  it(
    "keeps widgets still until it is on, and each device remembers it",
    async () => {
      await showBoard(1440, "xl");
      expect(await page.locator(".widget-grip, .widget-resize").count()).toBe(0);
      const before = await serverWidgets();
      await dragBy(page, widget("Clock").locator(".widget-title"), 300, 400);
      expect(await cells()).toMatchObject({ Clock: [0, 0, 5, 10] });
      expect(await serverWidgets()).toEqual(before);

      await page.getByRole("button", { name: "Edit layout" }).click();
      await widget("Clock")
        .getByRole("button", { name: /^Move Clock/ })
        .waitFor();
      await page.mouse.move(0, 0);
      await page.screenshot({ path: path.join(ARTIFACTS, "grid-edit-1440.png") });
      await page.reload();
      await page.getByRole("button", { name: "Done", exact: true }).waitFor();
      expect(await page.getByRole("button", { name: "Done", exact: true }).getAttribute("aria-pressed")).toBe(
        "true",
      );
      expect(await page.locator(".widget-resize").count()).toBe(8);

      // Another device (another browser profile) is still locked.
      const tablet = await browser.newContext({ viewport: { width: 1024, height: 800 } });
      await keepTrafficLocal(tablet);
      try {
        const cookies = await context.cookies();
        await tablet.addCookies(cookies);
        const other = await tablet.newPage();
        await other.goto(`${baseUrl}/d/${boardId}`);
        await other.getByRole("button", { name: "Edit layout" }).waitFor();
        expect(await other.locator(".widget-grip").count()).toBe(0);
      } finally {
        await tablet.close();
      }
    },
    STEP,
  );

  it(
    "pushes a neighbour aside while dragging into it, and keeps it there on drop",
    async () => {
      const column = (await widget("Clock").boundingBox())!.width / 5;
      // Three columns right: the clock covers two of the countdown's five, so the countdown moves down.
      await dragBy(page, widget("Clock").locator(".widget-title"), column * 3, 0, { release: false });
      await expect.poll(async () => (await cells()).Countdown?.[1]).toBe(10);
      expect(await page.locator(".grid-placeholder").count()).toBe(1);
      await page.mouse.up();
      await waitForSaved(page);
      const after = await serverWidgets();
      expect(byType(after, "Clock")).toMatchObject({ positionX: 180, positionY: 0 });
      expect(byType(after, "Countdown")).toMatchObject({ positionX: 300, positionY: 200 });
      expect(overlapping(storedBoxes(after))).toBeNull();

      // Onto the whole of a widget: the two swap places.
      await page.getByRole("button", { name: "Undo" }).click();
      await waitForSaved(page);
      const clock = (await widget("Clock").boundingBox())!;
      const countdown = (await widget("Countdown").boundingBox())!;
      await dragBy(
        page,
        widget("Clock").locator(".widget-title"),
        countdown.x - clock.x,
        countdown.y - clock.y,
      );
      await waitForSaved(page);
      expect(await cells()).toMatchObject({ Clock: [5, 0, 5, 10], Countdown: [0, 0, 5, 11] });
      await page.getByRole("button", { name: "Undo" }).click();
      await waitForSaved(page);
      expect(await cells()).toMatchObject({ Clock: [0, 0, 5, 10], Countdown: [5, 0, 5, 11] });
    },
    STEP,
  );

  it(
    "pushes the widgets below down when one grows into them",
    async () => {
      const before = await cells();
      // The bookmarks grow 6 rows (120 px) down, into the Kanban board under them.
      await widget("Bookmark").hover();
      await dragBy(page, widget("Bookmark").locator(".widget-resize"), 0, 122);
      await waitForSaved(page);
      const after = await cells();
      expect(after.Bookmark![3]).toBe(before.Bookmark![3] + 6);
      expect(after.Kanban![1]).toBeGreaterThan(before.Kanban![1]);
      const stored = await serverWidgets();
      expect(byType(stored, "Bookmark").height).toBe(420);
      expect(byType(stored, "Kanban").positionY).toBe(byType(stored, "Bookmark").positionY + 420);
      await page.getByRole("button", { name: "Undo" }).click();
      await waitForSaved(page);
      expect(await cells()).toMatchObject({ Bookmark: before.Bookmark, Kanban: before.Kanban });
    },
    STEP,
  );

  it(
    "moves and resizes from the keyboard, showing and announcing where it went",
    async () => {
      const grip = widget("Weather").getByRole("button", { name: /^Move Weather/ });
      await grip.focus();
      await page.keyboard.press("ArrowRight");
      await expect.poll(async () => (await cells()).Weather?.[0]).toBe(1);
      // (Row 31, not the stored 38: the grid closed the hole above it; compaction.ts.)
      expect(await page.getByTestId("grid-announcer").textContent()).toBe(
        "Weather moved: column 2, row 31, 6 columns by 15 rows.",
      );
      expect(await page.locator(".grid-feedback").textContent()).toBe("Col 2 · row 31 · 6×15");
      await page.keyboard.press("Shift+ArrowRight");
      await page.keyboard.press("Shift+ArrowDown");
      await expect.poll(async () => (await cells()).Weather).toEqual([1, 30, 7, 16]);
      expect(await page.getByTestId("grid-announcer").textContent()).toMatch(
        /^Weather resized: .*7 columns by 16 rows/,
      );
      // Focus stays on the handle, so the next key press moves on from there.
      expect(await grip.evaluate((el) => el === document.activeElement)).toBe(true);
      await waitForSaved(page);
      expect(byType(await serverWidgets(), "Weather")).toMatchObject({
        positionX: 60,
        positionY: 600,
        width: 420,
        height: 320,
      });
      // Up into the notes above: they give way, and it goes up past them.
      await page.keyboard.press("ArrowUp");
      await expect.poll(async () => (await cells()).Weather?.[1]).toBe(11);
      expect(await page.getByTestId("grid-announcer").textContent()).toContain(
        "Moved out of the way: Notes.",
      );
      await page.getByRole("button", { name: "Undo" }).click();
      await waitForSaved(page);
    },
    STEP,
  );

  it(
    "keeps a separate arrangement for a narrower screen, leaving the wide one as it was",
    async () => {
      const wide = await serverWidgets();
      await showBoard(1024, "lg");
      const before = await cells();
      // Move the clock below the todo list, on the laptop layout only. (Distances from the
      // cells: the cards may still be gliding to their laptop places.)
      const column = (await page.locator(".grid-wrap").boundingBox())!.width / 16;
      const below = [before.Todo![0], before.Todo![1] + before.Todo![3]];
      await dragBy(
        page,
        widget("Clock").locator(".widget-title"),
        (below[0]! - before.Clock![0]) * column,
        (below[1]! - before.Clock![1]) * 20,
      );
      await waitForSaved(page);
      const after = await cells();
      expect(after.Clock!.slice(0, 2)).toEqual(below);
      const stored = await serverWidgets();
      expect(byType(stored, "Clock").config.layout.lg).toEqual({
        x: after.Clock![0],
        y: after.Clock![1],
        w: after.Clock![2],
        h: after.Clock![3],
      });
      // The stored pixels (the wide layout) are untouched.
      for (const w of stored)
        expect([w.positionX, w.positionY, w.width, w.height], w.widgetType).toEqual(
          (({ positionX, positionY, width, height }) => [positionX, positionY, width, height])(
            wide.find((x) => x.id === w.id)!,
          ),
        );
      await page.reload();
      await expect.poll(async () => (await cells()).Clock).toEqual(after.Clock);
      await expectFits(page, 1024);
      await showBoard(1440, "xl");
      expect((await cells()).Clock).toEqual([0, 0, 5, 10]);
      // A widget's own edits keep the grid's cells in its config.
      await widget("Clock").getByRole("button", { name: "Clock settings" }).click();
      await page.getByRole("dialog", { name: "Clock settings" }).getByLabel("Show seconds").check();
      await page
        .getByRole("dialog", { name: "Clock settings" })
        .getByRole("button", { name: "Save" })
        .click();
      await waitForSaved(page);
      expect(byType(await serverWidgets(), "Clock").config).toMatchObject({
        showSeconds: true,
        layout: { lg: expect.any(Object) },
      });
    },
    STEP,
  );

  it(
    "puts a new widget in a free spot, small while it can only ask to be set up",
    async () => {
      await page.getByRole("button", { name: "Add widget" }).click();
      await page
        .getByRole("dialog", { name: "Add a widget" })
        .screenshot({ path: path.join(ARTIFACTS, "grid-picker.png") });
      await page.getByRole("button", { name: /^Add Inbox:/ }).click();
      await widget("Inbox").getByText("Google is not configured").waitFor();
      const stored = byType(await serverWidgets(), "Inbox");
      expect([stored.width, stored.height]).toEqual([300, 240]);
      const all = await serverWidgets();
      expect(overlapping(storedBoxes(all))).toBeNull();
      // It also got a spot in the laptop layout the user arranged, without moving anything there.
      expect(stored.config.layout?.lg).toMatchObject({ w: 5, h: 12 });
      await expect.poll(() => widget("Inbox").isVisible()).toBe(true);
      await page.getByRole("button", { name: "Remove Inbox" }).click();
      await waitForSaved(page);
    },
    STEP,
  );
});

describe("widgets and the keyboard", () => {
  it(
    "takes bookmarks at host:port and bare IP addresses and shows their ports",
    async () => {
      const bookmarks = widget("Bookmark");
      await bookmarks.getByRole("button", { name: "Add bookmark" }).click();
      await bookmarks.getByLabel("Bookmark URL").fill("pihole.lan:8080/admin");
      await bookmarks.getByRole("button", { name: "Add", exact: true }).click();
      await bookmarks.getByRole("button", { name: "Add bookmark" }).click();
      await bookmarks.getByLabel("Bookmark title").fill("Router");
      await bookmarks.getByLabel("Bookmark URL").fill("127.0.0.6");
      await bookmarks.getByRole("button", { name: "Add", exact: true }).click();
      await expect
        .poll(() => bookmarks.locator(".bookmark-host").allTextContents())
        .toEqual(["jellyfin.home.lan:8096", "127.0.0.5:8989", "pihole.lan:8080", "127.0.0.6"]);
      expect(await bookmarks.getByRole("link", { name: /pihole/ }).getAttribute("href")).toBe(
        "http://pihole.lan:8080/admin",
      );
      expect(await bookmarks.getByRole("link", { name: /Router/ }).getAttribute("href")).toBe(
        "http://127.0.0.6/",
      );
      await waitForSaved(page);
      const saved = byType(await serverWidgets(), "Bookmark").config.bookmarks;
      expect(saved.map((b: { url: string }) => b.url)).toEqual([
        "http://jellyfin.home.lan:8096/",
        "http://127.0.0.5:8989/",
        "http://pihole.lan:8080/admin",
        "http://127.0.0.6/",
      ]);
    },
    STEP,
  );

  it(
    "reaches dashboards, settings, widgets, bookmarks and notes from the command palette by keyboard",
    async () => {
      await page.locator("body").click({ position: { x: 5, y: 300 } });
      await page.keyboard.press("Control+k");
      const palette = page.getByRole("dialog", { name: "Go to…" });
      const search = palette.getByRole("combobox");
      await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.type("travel");
      await page.keyboard.press("Enter");
      await page.waitForURL(`${baseUrl}/d/${secondBoardId}`);
      await page.getByRole("heading", { name: "Travel plans", level: 1 }).waitFor();

      // "/" opens it too; a note of another dashboard opens there, selected.
      await page.keyboard.press("/");
      await page.keyboard.type("plan first");
      expect(await palette.getByRole("option", { selected: true }).textContent()).toContain("Home lab");
      await page.keyboard.press("Enter");
      await page.waitForURL(`${baseUrl}/d/${boardId}`);
      await expect
        .poll(() => widget("Editor").locator(".editor-note[aria-current='true']").textContent())
        .toContain("Plan");

      // A settings tab, with its own URL; Back closes it again.
      await page.keyboard.press("Control+k");
      await page.keyboard.type("reminders");
      await page.keyboard.press("Enter");
      const settings = page.getByRole("dialog", { name: "Settings", exact: true });
      await settings.getByRole("tab", { name: "Reminders", selected: true }).waitFor();
      expect(new URL(page.url()).searchParams.get("settings")).toBe("reminders");
      await page.goBack();
      await settings.waitFor({ state: "detached" });

      // Adding a widget, with arrow keys to pick among the matches.
      const count = await page.locator("[data-widget-type]").count();
      await page.keyboard.press("Control+k");
      await page.keyboard.type("add c");
      const options = await palette.getByRole("option").allTextContents();
      const countdown = options.findIndex((o) => o.includes("Add Countdown"));
      expect(countdown).toBeGreaterThan(0);
      for (let i = 0; i < countdown; i++) await page.keyboard.press("ArrowDown");
      await page.screenshot({ path: path.join(ARTIFACTS, "grid-palette.png") });
      await page.keyboard.press("Enter");
      await expect.poll(() => page.locator("[data-widget-type]").count()).toBe(count + 1);

      // A bookmark opens its site in a new tab.
      await page.keyboard.press("Escape");
      await page.locator("body").click({ position: { x: 5, y: 300 } });
      await page.keyboard.press("Control+k");
      await page.keyboard.type("sonarr");
      const [popup] = await Promise.all([context.waitForEvent("page"), page.keyboard.press("Enter")]);
      expect(popup.url()).toBe("http://127.0.0.5:8989/");
      await popup.close();

      // "?" lists the shortcuts.
      await page.locator("body").click({ position: { x: 5, y: 300 } });
      await page.keyboard.press("?");
      const sheet = page.getByRole("dialog", { name: "Keyboard shortcuts" });
      await sheet.getByText("Open the command palette", { exact: false }).waitFor();
      await sheet.screenshot({ path: path.join(ARTIFACTS, "grid-shortcuts.png") });
      await page.keyboard.press("Escape");
      await sheet.waitFor({ state: "detached" });
    },
    STEP,
  );

  it(
    "gives settings and each tab its own URL, for deep links and the back button",
    async () => {
      await page.goto(`${baseUrl}/?settings=profile`);
      const settings = page.getByRole("dialog", { name: "Settings", exact: true });
      await settings.getByRole("tab", { name: "Profile", selected: true }).waitFor();
      expect(page.url()).toMatch(new RegExp(`/d/${boardId}\\?settings=profile$`));
      await settings.getByRole("tab", { name: "Connections" }).click();
      expect(new URL(page.url()).searchParams.get("settings")).toBe("connections");
      await page.goBack();
      await settings.getByRole("tab", { name: "Profile", selected: true }).waitFor();
      // Closing a deep-linked dialog leaves the dashboard's own URL.
      await page.keyboard.press("Escape");
      await settings.waitFor({ state: "detached" });
      expect(page.url()).toBe(`${baseUrl}/d/${boardId}`);
    },
    STEP,
  );

  it(
    "keeps Kanban's + Column in reach with many columns at the default size",
    async () => {
      const columns = Array.from({ length: 6 }, (_, i) => ({
        id: `c${i}`,
        title: `Stage ${i + 1}`,
        color: "#64748b",
        cards: [],
      }));
      const kanban = byType(await serverWidgets(), "Kanban");
      await api("PUT", "/api/widgets", { id: kanban.id, config: { columns }, width: 600, height: 380 });
      await page.reload();
      const add = widget("Kanban").getByRole("button", { name: "Column", exact: true });
      await add.waitFor();
      const card = (await widget("Kanban").boundingBox())!;
      const button = (await add.boundingBox())!;
      expect(button.x + button.width).toBeLessThanOrEqual(card.x + card.width);
      await add.click();
      await widget("Kanban").getByLabel("Column title").fill("Stage 7");
      await widget("Kanban").getByLabel("Column title").press("Enter");
      await widget("Kanban").getByRole("region", { name: "Column Stage 7" }).waitFor();
    },
    STEP,
  );
});

describe("the details a newcomer trips over", () => {
  it(
    "selects the name to rename, and says what deleting takes for one widget",
    async () => {
      await page.goto(`${baseUrl}/d/${secondBoardId}`);
      await page.getByRole("heading", { name: "Travel plans", level: 1 }).waitFor();
      await page.getByRole("button", { name: "Travel plans", exact: true }).click();
      await page.getByRole("button", { name: "Rename “Travel plans”" }).click();
      const input = page.getByRole("dialog", { name: "Rename dashboard" }).getByLabel("Name");
      await expect
        .poll(() =>
          input.evaluate((el: HTMLInputElement) => [
            el === document.activeElement,
            el.selectionStart,
            el.selectionEnd,
          ]),
        )
        .toEqual([true, 0, "Travel plans".length]);
      await page.keyboard.type("Trips");
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { name: "Trips", level: 1 }).waitFor();

      await api("POST", "/api/widgets", {
        dashboardId: secondBoardId,
        widgetType: "Clock",
        positionX: 0,
        positionY: 0,
        width: 300,
        height: 200,
      });
      await page.reload();
      await widget("Clock").waitFor();
      await page.getByRole("button", { name: "Trips", exact: true }).click();
      await page.getByRole("button", { name: "Delete “Trips”…" }).click();
      const confirm = page.getByRole("dialog", { name: "Delete “Trips”?" });
      await confirm
        .getByText("This deletes the dashboard and its one widget, with whatever it holds.")
        .waitFor();
      await confirm.getByRole("button", { name: "Keep it" }).click();
    },
    STEP,
  );

  it(
    "moves focus with the skip link",
    async () => {
      await page.goto(`${baseUrl}/d/${boardId}`);
      await widget("Clock").waitFor();
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to dashboard");
      await page.keyboard.press("Enter");
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("main");
      // The next Tab continues inside the dashboard, not in the header.
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => !!document.activeElement?.closest("#main"))).toBe(true);
    },
    STEP,
  );

  it(
    "says Welcome on a fresh browser, Welcome back after a sign-in, with one password hint and a show toggle",
    async () => {
      const fresh = await browser.newContext({ viewport: { width: 390, height: 844 } });
      try {
        const p = await fresh.newPage();
        await p.goto(`${baseUrl}/signin`);
        await p.getByRole("heading", { name: "Welcome", exact: true, level: 1 }).waitFor();
        await p.getByRole("link", { name: "Create an account" }).click();
        await p.getByLabel("Password").fill("short");
        await p.getByRole("button", { name: "Create account" }).click();
        await p.getByText("Use at least 8 characters").waitFor();
        // The error replaces the hint: one line about the length, not two.
        expect(await p.getByText(/8 characters/).count()).toBe(1);
        await p.getByRole("button", { name: "Show password" }).click();
        expect(await p.getByLabel("Password").getAttribute("type")).toBe("text");
        expect(await p.getByRole("button", { name: "Hide password" }).getAttribute("aria-pressed")).toBe(
          "true",
        );
        await p.getByRole("button", { name: "Hide password" }).click();
        expect(await p.getByLabel("Password").getAttribute("type")).toBe("password");

        // A new person lands in onboarding with focus on the theme that is chosen.
        await p.getByLabel("Name").fill("Ada");
        await p.getByLabel("Email").fill(`fresh-${Date.now()}@example.test`);
        await p.getByLabel("Password").fill(password);
        await p.getByRole("button", { name: "Create account" }).click();
        await p.getByRole("dialog", { name: /Welcome to Tessera, Ada/ }).waitFor();
        await expect
          .poll(() =>
            p.evaluate(() => {
              const el = document.activeElement as HTMLInputElement | null;
              return el?.type === "radio" && el.checked ? el.value : null;
            }),
          )
          .toBe("system");
        await p.getByRole("button", { name: "Skip" }).click();
        await p.getByRole("button", { name: /^Account:/ }).click();
        await p.getByRole("button", { name: "Sign out" }).click();
        await p.getByRole("heading", { name: "Welcome back", level: 1 }).waitFor();
      } finally {
        await fresh.close();
      }
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );
});
