import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RadarrFake, startRadarrFake } from "../src/integrations/radarr/fake.js";
import { type SonarrFake, startSonarrFake } from "../src/integrations/sonarr/fake.js";
import { axeBlocking } from "./support/axe.js";
import { photographer } from "./support/photograph.js";
import {
  addFromPicker,
  openNewBoard,
  saveForEveryone,
  startWithAdmin,
  widgetOf as widget,
  widgetsOnceSaved,
} from "./support/service-boards.js";
import type { E2eApp, Person } from "./support/web-app.js";

/**
 * Sonarr and Radarr (issue 33) in Chromium against the compiled server, the services being the
 * fakes on loopback and no private network allowed by the environment: an admin adds Sonarr on
 * the admin page (its key's help shown, tested against Sonarr's status), Radarr through the API;
 * adds the Upcoming Media widget from the picker and ticks both; sees episodes, a movie's release
 * days and the queue with its bars and warnings; a Calendar widget takes both as sources; a
 * refused key is named beside the rest. Pictures at 390 and 1440 px, light and dark.
 */
const SHOTS = process.env.SHOTS_DIR ?? "/tmp/shots/arr";
const STEP = 90_000;

let app: E2eApp;
let sonarr: SonarrFake;
let radarr: RadarrFake;
let admin: Person;
const ids: Record<string, string> = {};
const pageErrors: string[] = [];

const photograph = photographer(SHOTS, "arr-");

beforeAll(async () => {
  [sonarr, radarr] = await Promise.all([startSonarrFake(), startRadarrFake()]);
  ({ app, admin } = await startWithAdmin({ pageErrors }));
}, 300_000);

afterAll(async () => {
  await app?.stop();
  await Promise.all([sonarr?.close(), radarr?.close()]);
  expect(pageErrors).toEqual([]);
});

describe("Sonarr and Radarr in the browser", () => {
  it(
    "lets an admin add Sonarr on the admin page, its key's place named, tested against Sonarr",
    async () => {
      const { page, api } = admin;
      await page.goto(`${app.baseUrl}/admin`);
      const section = page.getByRole("region", { name: "Instance integrations" });
      await section.getByRole("button", { name: "Add an instance integration" }).click();
      const form = section.getByRole("form", { name: "New integration" });
      await form.getByLabel("Kind", { exact: true }).selectOption("sonarr");
      await form.getByText("Upcoming episodes and the download queue of Sonarr.").waitFor();
      await form.getByText(/In Sonarr: Settings > General > Security, API Key/).waitFor();
      await form.getByLabel("Name", { exact: true }).fill("Sonarr");
      const address = form.getByLabel("Address", { exact: true });
      expect(await address.getAttribute("placeholder")).toBe("http://sonarr.local:8989");
      await address.fill(sonarr.url);
      await form.getByLabel("API key", { exact: true }).fill(sonarr.apiKey);
      await form.getByRole("checkbox", { name: /On my home network/ }).check();
      await form.getByRole("button", { name: "Test", exact: true }).click();
      await form
        .getByRole("status")
        .getByText(/Sonarr 4\.0\.19\.2979/)
        .waitFor();
      expect(sonarr.requests.at(-1)).toMatchObject({ path: "/api/v3/system/status" });
      expect(sonarr.requests.at(-1)!.headers["x-api-key"]).toBe(sonarr.apiKey);
      expect(await axeBlocking(page)).toEqual([]);
      await photograph(page, "admin-form", form);
      await form.getByRole("button", { name: "Add integration" }).click();
      await section
        .locator("li", { hasText: "Sonarr" })
        .getByText("Sonarr", { exact: true })
        .first()
        .waitFor();

      const save = async (name: string, kind: string, url: string, apiKey: string) => {
        ids[name] = (
          await saveForEveryone(admin, { kind, name, url, allowPrivate: true, secrets: { apiKey } })
        ).id;
      };
      await save("Radarr", "radarr", radarr.url, radarr.apiKey);
      await save("Old Sonarr", "sonarr", sonarr.url, "0123456789abcdef0123456789abcdef");
      const listed = (await api("GET", "/api/integrations")).body as { id: string; name: string }[];
      ids.Sonarr = listed.find((i) => i.name === "Sonarr")!.id;
    },
    STEP,
  );

  it(
    "adds the Upcoming Media widget from the picker and shows what is coming and downloading",
    async () => {
      const { page, api } = admin;
      const boardId = await openNewBoard(app, admin, "Media");
      const card = await addFromPicker(page, "Upcoming Media", "Upcoming Media");
      await card
        .getByText("Choose your Sonarr or Radarr to see what is coming up and downloading.")
        .waitFor();
      await card.getByRole("button", { name: "Choose integrations" }).click();
      const panel = page.getByRole("dialog", { name: "Upcoming Media settings" });
      await panel.getByRole("checkbox", { name: /^Sonarr \(shared\)/ }).check();
      await panel.getByRole("checkbox", { name: /^Radarr \(shared\)/ }).check();
      await panel.getByRole("radio", { name: "Coming up and downloads" }).waitFor();
      expect(await panel.getByLabel("Days ahead").inputValue()).toBe("14");
      expect(await axeBlocking(page)).toEqual([]);
      await panel.getByRole("button", { name: "Save" }).click();
      const saved = await widgetsOnceSaved(
        admin,
        boardId,
        (r) => r.body[0]?.config.integrationIds?.length === 2,
        "the saved integrations",
      );
      expect(saved.body[0].config).toMatchObject({
        integrationIds: [ids.Sonarr, ids.Radarr],
        days: 14,
        show: "both",
      });

      // Size the card as a person would for a list this long.
      const cardId = saved.body[0].id as string;
      await api("PUT", "/api/widgets", { id: cardId, width: 720, height: 900 });
      await page.reload();
      const episode = card.locator('[data-kind="episode"]', { hasText: "Cold Harbor" });
      await episode.getByText("Severance", { exact: true }).waitFor();
      await episode.getByText("Season finale").waitFor();
      expect(await episode.locator(".upcoming-meta").textContent()).toMatch(/^S02E10 · Cold Harbor/);
      // 02:00 UTC is 03:00 in Berlin.
      expect(await episode.locator("time").textContent()).toBe("03:00");
      const mickey = card.locator('[data-kind="movie"]', { hasText: "Mickey 17 (2025)" });
      expect(await mickey.locator(".upcoming-releases").textContent()).toMatch(
        /^In cinemas .+ · Digital .+ · On disc .+ · Radarr$|^In cinemas .+ · Digital .+ · On disc .+$/,
      );
      const queue = card.locator(".queue-entry");
      await expect.poll(() => queue.count()).toBe(5);
      const severance = queue.filter({ hasText: "S02E09 · The After Hours" });
      expect(
        await severance
          .getByRole("progressbar", { name: "Progress of Severance" })
          .getAttribute("aria-valuenow"),
      ).toBe("60");
      expect(await severance.locator(".queue-meta").textContent()).toMatch(
        /^60% · 13 min left · qBittorrent/,
      );
      const pack = queue.filter({ hasText: "S05E03–E04" });
      await pack.getByText("Import blocked").waitFor();
      await pack.getByText("Episode has a TBA title and recently aired").waitFor();
      await queue
        .filter({ hasText: "The Bear" })
        .getByText("Download failed: not enough repair blocks")
        .waitFor();
      expect(await axeBlocking(page)).toEqual([]);
      await photograph(page, "widget", card);
    },
    STEP * 2,
  );

  it(
    "feeds a Calendar widget from both, and names a refused key beside the rest",
    async () => {
      const { page } = admin;
      const board = await admin.board("Calendars", [
        {
          widgetType: "Calendar",
          width: 480,
          height: 620,
          config: {
            days: 7,
            sources: [
              { id: "tv", name: "TV", integrationId: ids.Sonarr, color: "#8b5cf6" },
              { id: "films", name: "Films", integrationId: ids.Radarr, color: "#f59e0b" },
            ],
          },
        },
        {
          widgetType: "Upcoming Media",
          positionX: 500,
          positionY: 0,
          width: 420,
          height: 620,
          config: { integrationIds: [ids["Old Sonarr"], ids.Radarr], show: "queue" },
        },
      ]);
      await page.goto(`${app.baseUrl}/d/${board.id}`);
      const calendar = widget(page, "Calendar");
      await calendar.getByText("Severance - 2x10 - Cold Harbor").waitFor();
      await calendar.getByText("Mickey 17 (Digital Release)").waitFor();
      await calendar.getByText("Dune: Part Three (Theatrical Release)").waitFor();
      const media = widget(page, "Upcoming Media");
      await media.getByText(/the API key was refused/).waitFor();
      await media.locator(".queue-entry", { hasText: "Mickey 17 (2025)" }).waitFor();
      // Only the queue was asked for.
      expect(await media.getByText("Coming up", { exact: true }).count()).toBe(0);

      // The Calendar's settings offer the Sonarr and Radarr integrations as connections.
      await page.getByRole("button", { name: "Calendar settings" }).click();
      const panel = page.getByRole("dialog", { name: "Calendar settings" });
      const connection = panel.getByLabel("Connection", { exact: true }).first();
      await expect
        .poll(() => connection.locator("option").allTextContents())
        .toEqual(expect.arrayContaining(["Sonarr (everyone's)", "Radarr (everyone's)"]));
      await page.keyboard.press("Escape");
      await panel.waitFor({ state: "hidden" });
      expect(await axeBlocking(page)).toEqual([]);
      await photograph(page, "calendar", calendar);
    },
    STEP,
  );
});
