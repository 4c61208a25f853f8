import path from "node:path";
import type { Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type JellyfinFake, startJellyfinFake } from "../src/integrations/jellyfin/fake.js";
import { type QbittorrentFake, startQbittorrentFake } from "../src/integrations/qbittorrent/fake.js";
import { axeBlocking } from "./support/axe.js";
import { photographer } from "./support/photograph.js";
import {
  addFromPicker,
  connectionTest,
  DESKTOP,
  openNewBoard,
  publish,
  saveForEveryone,
  startWithAdmin,
  widgetOf as widget,
  widgetsOnceSaved,
} from "./support/service-boards.js";
import type { E2eApp, Person } from "./support/web-app.js";

/**
 * The Jellyfin and qBittorrent widgets (issue 33) in Chromium against the compiled server, with
 * both services as fakes on loopback and no private network allowed by the environment: an admin
 * saves both integrations for everyone, adds both widgets from the picker, picks the Jellyfin
 * user whose additions are shown from Jellyfin's own list, and sees what plays, the posters (from
 * our origin) and the torrents; a visitor of the public dashboard sees titles and posters without
 * who watches. Pictures at 390 and 1440 px, light and dark, go to SHOTS_DIR (test-results/).
 */
const SHOTS = process.env.SHOTS_DIR ?? path.resolve("test-results");
const STEP = 90_000;

let app: E2eApp;
let jf: JellyfinFake;
let qb: QbittorrentFake;
let admin: Person;
let boardId = "";
const pageErrors: string[] = [];

const photograph = photographer(SHOTS, "media-");

/** Every poster in `card` has loaded as a picture, from our own origin. */
async function postersLoaded(card: Locator, prefix: string) {
  const posters = card.locator("img.jf-poster");
  await expect
    .poll(() =>
      posters.evaluateAll((images) =>
        images.map((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0),
      ),
    )
    .toEqual([true, true, true, true]);
  for (const src of await posters.evaluateAll((images) => images.map((i) => i.getAttribute("src"))))
    expect(src?.startsWith(prefix), src ?? "").toBe(true);
}

beforeAll(async () => {
  [jf, qb] = await Promise.all([startJellyfinFake(), startQbittorrentFake()]);
  ({ app, admin } = await startWithAdmin({ pageErrors }));
}, 300_000);

afterAll(async () => {
  await app?.stop();
  await jf?.close();
  await qb?.close();
  expect(pageErrors).toEqual([]);
});

describe("Jellyfin and qBittorrent in the browser", () => {
  it(
    "saves both integrations for everyone through the API, each tested against its service",
    async () => {
      const media = await saveForEveryone(admin, {
        kind: "jellyfin",
        name: "Media",
        url: jf.url,
        allowPrivate: true,
        secrets: { apiKey: jf.apiKey },
      });
      const box = await saveForEveryone(admin, {
        kind: "qbittorrent",
        name: "Seedbox",
        url: qb.url,
        allowPrivate: true,
        secrets: { username: qb.username, password: qb.password },
      });
      const checks = [];
      for (const saved of [media, box]) checks.push(await connectionTest(admin, saved.id));
      expect(checks).toEqual([
        expect.objectContaining({ ok: true, detail: "Jellyfin 10.11.11 (Media)" }),
        expect.objectContaining({ ok: true, detail: "qBittorrent v5.1.2" }),
      ]);
      boardId = await openNewBoard(app, admin, "Media");
    },
    STEP,
  );

  it(
    "adds the Jellyfin widget, picks a user from Jellyfin's list, and shows what plays and ben's new films",
    async () => {
      const { page, api } = admin;
      const card = await addFromPicker(page, "Jellyfin", "Jellyfin");
      await card.getByText("Choose a Jellyfin integration to see what is playing").waitFor();
      await card.getByRole("button", { name: "Choose an integration" }).click();
      const panel = page.getByRole("dialog", { name: "Jellyfin settings" });
      await panel.getByLabel("Jellyfin integration").selectOption({ label: "Media (shared)" });
      const user = panel.getByLabel("Latest additions of");
      await expect
        .poll(() => user.locator("option").allTextContents())
        .toEqual(["The first administrator", "anna (administrator)", "ben", "kids"]);
      await user.selectOption({ label: "ben" });
      expect(await axeBlocking(page)).toEqual([]);
      await photograph(page, "jellyfin-settings", panel);
      await panel.getByRole("button", { name: "Save" }).click();
      await widgetsOnceSaved(admin, boardId, (r) => r.body[0]?.config.userId !== undefined, "the saved user");

      await card.getByRole("heading", { name: "Now playing" }).waitFor();
      const sessions = card.locator(".jf-session");
      await expect.poll(() => sessions.count()).toBe(2);
      expect(await sessions.nth(0).locator(".jf-title").textContent()).toBe("Severance");
      expect(await sessions.nth(0).locator(".jf-subtitle").textContent()).toBe("S2:E3 · Who Is Alive?");
      expect(await sessions.nth(0).locator(".jf-state").textContent()).toBe("Playing");
      expect(await sessions.nth(0).locator(".jf-meta").textContent()).toBe(
        "anna · Living room TV · 15:00 / 44:00",
      );
      expect(await sessions.nth(1).locator(".jf-state").textContent()).toBe("Paused");
      expect(await sessions.nth(1).locator(".jf-meta").textContent()).toBe(
        "ben · Firefox · 1:30:00 / 2:46:00 · Transcoding",
      );
      expect(
        await sessions
          .nth(0)
          .getByRole("progressbar", { name: "Progress of Severance" })
          .getAttribute("aria-valuenow"),
      ).toBe("34");
      await card.getByRole("heading", { name: "Latest additions for ben" }).waitFor();
      expect(await card.locator(".jf-item-name").allTextContents()).toEqual([
        "Dune: Part Two",
        "Severance",
        "Paddington in Peru",
        "Nosferatu",
        "The Wild Robot",
      ]);
      expect(await card.locator(".jf-item-detail").allTextContents()).toEqual([
        "2024",
        "2 new episodes",
        "2024",
        "2024",
        "2024",
      ]);
      // Nosferatu has no picture in Jellyfin: a placeholder, not a broken image.
      expect(await card.locator(".jf-poster.is-missing").count()).toBe(1);
      await postersLoaded(
        card,
        `/api/jellyfin/posters/${(await api("GET", `/api/widgets?dashboardId=${boardId}`)).body[0].id}/`,
      );
      // The key went in the header only: no address Jellyfin saw carries it.
      expect(jf.requests.some((r) => [...r.query.values()].includes(jf.apiKey))).toBe(false);
      expect(
        jf.requests
          .filter((r) => r.path === "/Items/Latest")
          .at(-1)!
          .query.get("userId"),
      ).toMatch(/^[0-9a-f]{32}$/);
      expect(await axeBlocking(page)).toEqual([]);
      await photograph(page, "jellyfin", card);
    },
    STEP,
  );

  it(
    "adds the qBittorrent widget: speeds, counts and the active torrents, signed in once",
    async () => {
      const { page } = admin;
      const card = await addFromPicker(page, "qBittorrent", "qBittorrent");
      await card.getByRole("button", { name: "Choose an integration" }).click();
      const panel = page.getByRole("dialog", { name: "qBittorrent settings" });
      await panel.getByLabel("qBittorrent integration").selectOption({ label: "Seedbox (shared)" });
      await panel.getByLabel("Torrents listed").fill("3");
      await panel.getByRole("button", { name: "Save" }).click();

      await card.getByText("4 active", { exact: true }).waitFor();
      await card.getByText("2 downloading", { exact: true }).waitFor();
      await card.getByText("2 seeding", { exact: true }).waitFor();
      expect(await card.locator(".qbt-speed-value").allTextContents()).toEqual(["5.8 MiB/s", "1.3 MiB/s"]);
      expect(await card.locator(".qbt-speed-meta").allTextContents()).toEqual([
        "12 GiB this session",
        "3.1 GiB this session",
      ]);
      // Only upload has a limit.
      expect(await card.locator(".qbt-speed-limit").allTextContents()).toEqual(["Limit 2 MiB/s"]);
      expect(await card.locator(".qbt-name").allTextContents()).toEqual([
        "debian-13.2.0-amd64-netinst.iso",
        "ubuntu-26.04-desktop-amd64.iso",
        "Big.Buck.Bunny.2008.2160p.60fps",
      ]);
      // Intl puts no-break spaces between a number and its unit.
      expect((await card.locator(".qbt-meta").first().textContent())?.replace(/\s/g, " ")).toBe(
        "Downloading · ↓ 4.2 MiB/s · ↑ 310 KiB/s · 1 min 45 secs left",
      );
      expect(await card.locator(".qbt-meta").nth(2).textContent()).toBe("Seeding · ↑ 820 KiB/s");
      expect(
        await card
          .getByRole("progressbar", { name: "Progress of debian-13.2.0-amd64-netinst.iso" })
          .getAttribute("aria-valuenow"),
      ).toBe("42");
      await card.getByText("and 1 more", { exact: true }).waitFor();
      // The connection test signed in; the widget uses that session, kept for the saved integration.
      expect(qb.logins).toBe(1);
      expect(qb.failedLogins).toBe(0);
      expect(await axeBlocking(page)).toEqual([]);
      await photograph(page, "qbittorrent", card);
      expect(qb.logins).toBe(1);
    },
    STEP,
  );

  it(
    "shows a visitor of the public dashboard titles and posters, never who watches",
    async () => {
      await publish(admin, boardId, "Media");
      const visitor = await app.browser.newContext(DESKTOP);
      try {
        const guest = await visitor.newPage();
        guest.on("pageerror", (error) => pageErrors.push(error.message));
        await guest.goto(`${app.baseUrl}/p/${boardId}`);
        await guest.getByRole("heading", { name: "Media", level: 1 }).waitFor();
        const card = widget(guest, "Jellyfin");
        await card.locator(".jf-session").first().waitFor();
        expect(await card.locator(".jf-meta").allTextContents()).toEqual([
          "15:00 / 44:00",
          "1:30:00 / 2:46:00 · Transcoding",
        ]);
        expect(await card.textContent()).not.toContain("anna");
        await card.getByRole("heading", { name: "Latest additions", exact: true }).waitFor();
        await postersLoaded(card, `/api/public/dashboards/${boardId}/widgets/`);
        await widget(guest, "qBittorrent").getByText("4 active", { exact: true }).waitFor();
        expect(await axeBlocking(guest)).toEqual([]);
        await photograph(guest, "public", card, async () => {
          await card.locator(".jf-session").first().waitFor();
          await postersLoaded(card, `/api/public/dashboards/${boardId}/widgets/`);
          await widget(guest, "qBittorrent").locator(".qbt-torrent").first().waitFor();
        });
      } finally {
        await visitor.close();
      }
    },
    STEP,
  );
});
