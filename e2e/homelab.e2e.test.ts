import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HomeAssistantFake, startHomeAssistantFake } from "../src/integrations/homeassistant/fake.js";
import { startUptimeKumaFake, type UptimeKumaFake } from "../src/integrations/uptimekuma/fake.js";
import { axeBlocking } from "./support/axe.js";
import { photographer } from "./support/photograph.js";
import {
  addFromPicker,
  connectionTest,
  openNewBoard,
  saveForEveryone,
  shareWithViewer,
  startWithAdminAndViewer,
  widgetOf as widget,
  widgetsOnceSaved,
} from "./support/service-boards.js";
import type { E2eApp, Person } from "./support/web-app.js";

/**
 * The Home Assistant and Uptime Kuma widgets (issue 32) in Chromium against the compiled server,
 * with both services as fakes on loopback and no private network allowed by the environment: an
 * admin saves both integrations for everyone (home network ticked, actions allowed for Home
 * Assistant), adds both widgets from the picker, picks entities from Home Assistant's own list
 * and names Kuma's status page; toggles the kitchen light; a viewer of the shared dashboard sees
 * the states without a switch. Pictures at 390 and 1440 px, light and dark, go to test-results/.
 */
const SHOTS = process.env.SHOTS_DIR ?? path.resolve("test-results");
const STEP = 90_000;

let app: E2eApp;
let ha: HomeAssistantFake;
let kuma: UptimeKumaFake;
let admin: Person;
let viewer: Person;
let boardId = "";
const pageErrors: string[] = [];

const photograph = photographer(SHOTS, "homelab-");

beforeAll(async () => {
  [ha, kuma] = await Promise.all([startHomeAssistantFake(), startUptimeKumaFake({ version: "2.5" })]);
  ({ app, admin, viewer } = await startWithAdminAndViewer({ pageErrors }));
}, 300_000);

afterAll(async () => {
  await app?.stop();
  await ha?.close();
  await kuma?.close();
  expect(pageErrors).toEqual([]);
});

describe("Home Assistant and Uptime Kuma in the browser", () => {
  it(
    "saves both integrations for everyone through the API, each tested against its service",
    async () => {
      const home = await saveForEveryone(admin, {
        kind: "homeassistant",
        name: "Home",
        url: ha.url,
        allowPrivate: true,
        allowActions: true,
        secrets: { token: ha.token },
      });
      const monitors = await saveForEveryone(admin, {
        kind: "uptimekuma",
        name: "Kuma",
        url: kuma.url,
        allowPrivate: true,
        secrets: { apiKey: kuma.apiKey },
      });
      for (const saved of [home, monitors])
        expect(await connectionTest(admin, saved.id), saved.name).toMatchObject({ ok: true });
      expect(ha.requests.at(-1)!.headers.authorization).toBe(`Bearer ${ha.token}`);
      boardId = await openNewBoard(app, admin, "Homelab");
    },
    STEP,
  );

  it(
    "adds the Home Assistant widget and picks entities from Home Assistant's list",
    async () => {
      const { page } = admin;
      const card = await addFromPicker(page, "Home Assistant", "Home Assistant");
      await card.getByText("Choose a Home Assistant integration and the entities to show").waitFor();
      await card.getByRole("button", { name: "Choose entities" }).click();
      const panel = page.getByRole("dialog", { name: "Home Assistant settings" });
      await panel.getByLabel("Home Assistant integration").selectOption({ label: "Home (shared)" });
      await panel.getByRole("button", { name: "Choose from Home Assistant" }).click();
      const search = panel.getByRole("searchbox", { name: "Search entities" });
      await search.waitFor();
      expect(ha.requests.at(-1)!.path).toBe("/api/states");
      for (const [query, name] of [
        ["kitchen", /^Kitchen\b/],
        ["coffee", /^Coffee maker\b/],
        ["living", /^Living room temperature\b/],
        ["front door", /^Front door\b/],
        ["porch", /^Porch\b/],
      ] as const) {
        await search.fill(query);
        await panel.getByRole("checkbox", { name }).check();
      }
      // The picked entities are rows of the list, each with a label of its own to give.
      await expect.poll(() => panel.getByLabel("Entity id", { exact: true }).count()).toBe(5);
      await panel.getByLabel("Label", { exact: true }).nth(1).fill("Coffee");
      await search.fill("light.");
      expect(await axeBlocking(page)).toEqual([]);
      await photograph(page, "ha-settings", search);
      await panel.getByRole("button", { name: "Save" }).click();

      const saved = await widgetsOnceSaved(
        admin,
        boardId,
        (r) => r.body[0]?.config.entities?.length === 5,
        "the saved entities",
      );
      expect(saved.body[0].config.entities).toEqual([
        { entityId: "light.kitchen" },
        { entityId: "switch.coffee_maker", label: "Coffee" },
        { entityId: "sensor.living_room_temperature" },
        { entityId: "binary_sensor.front_door" },
        { entityId: "light.porch" },
      ]);
      const kitchen = card.locator('[data-entity-id="light.kitchen"]');
      await kitchen.getByText("On", { exact: true }).waitFor();
      await card.locator('[data-entity-id="sensor.living_room_temperature"]').getByText("21.5 °C").waitFor();
      await card.locator('[data-entity-id="binary_sensor.front_door"]').getByText("Closed").waitFor();
      await card
        .locator('[data-entity-id="switch.coffee_maker"]')
        .getByText("Coffee", { exact: true })
        .waitFor();
      // The porch light is unavailable: its switch is there but cannot be used.
      expect(await card.getByRole("switch", { name: "Switch Porch" }).isDisabled()).toBe(true);
      // Sensors have no switch.
      expect(await card.getByRole("switch").count()).toBe(3);
    },
    STEP,
  );

  it(
    "toggles the kitchen light through Home Assistant's service, with the token",
    async () => {
      const { page } = admin;
      const card = widget(page, "Home Assistant");
      const kitchen = card.getByRole("switch", { name: "Switch Kitchen" });
      expect(await kitchen.isChecked()).toBe(true);
      await photograph(page, "ha-on", card);
      await kitchen.click();
      await card.locator('[data-entity-id="light.kitchen"]').getByText("Off", { exact: true }).waitFor();
      await expect.poll(() => kitchen.isChecked()).toBe(false);
      expect(ha.serviceCalls).toEqual([
        {
          domain: "light",
          service: "toggle",
          body: { entity_id: "light.kitchen" },
          authorization: `Bearer ${ha.token}`,
        },
      ]);
      expect(ha.states.get("light.kitchen")!.state).toBe("off");
      const audit = await admin.api("GET", "/api/admin/audit?limit=1");
      expect(audit.body.events[0]).toMatchObject({
        action: "widget.action",
        detail: { widgetType: "Home Assistant", action: "toggle", outcome: "done" },
      });
    },
    STEP,
  );

  it(
    "adds the Uptime Kuma widget for a status page: counts, incident, monitors by group",
    async () => {
      const { page } = admin;
      const card = await addFromPicker(page, "Uptime Kuma", "Uptime Kuma");
      await card.getByRole("button", { name: "Choose an integration" }).click();
      const panel = page.getByRole("dialog", { name: "Uptime Kuma settings" });
      await panel.getByLabel("Uptime Kuma integration").selectOption({ label: "Kuma (shared)" });
      // The page's address as copied from the browser works as well as its slug.
      await panel.getByLabel("Status page").fill(`${kuma.url}/status/home`);
      await panel.getByRole("button", { name: "Save" }).click();
      await card.getByText("2 up", { exact: true }).waitFor();
      await card.getByText("1 down", { exact: true }).waitFor();
      await card.getByText("NAS disk replaced").waitFor();
      await card.getByRole("heading", { name: "House" }).waitFor();
      const nas = card.locator(".kuma-monitor", { hasText: "NAS" });
      expect(await nas.locator(".kuma-status").textContent()).toBe("Down");
      expect(
        await card.locator(".kuma-monitor", { hasText: "Jellyfin" }).locator(".kuma-meta").textContent(),
      ).toMatch(/^Up · 42 ms · 99\.87% \(24 h\) · checked (just now|\d+ min ago)$/);
      expect(kuma.count("/api/status-page/home")).toBeGreaterThan(0);
      expect(await axeBlocking(page)).toEqual([]);
      await photograph(page, "dashboard", card);
    },
    STEP,
  );

  it(
    "says what is wrong: metrics without a key, switches without allowed actions",
    async () => {
      const { page } = admin;
      const save = async (body: Record<string, unknown>) =>
        (await saveForEveryone(admin, { allowPrivate: true, ...body })).id as string;
      const keyless = await save({ kind: "uptimekuma", name: "Kuma without key", url: kuma.url });
      const readOnly = await save({
        kind: "homeassistant",
        name: "Home (read only)",
        url: ha.url,
        secrets: { token: ha.token },
      });
      const board = await admin.board("Checks", [
        {
          widgetType: "Home Assistant",
          width: 360,
          height: 300,
          config: {
            integrationId: readOnly,
            entities: [{ entityId: "light.kitchen" }, { entityId: "switch.coffee_maker" }],
          },
        },
        {
          widgetType: "Uptime Kuma",
          positionX: 380,
          positionY: 0,
          width: 360,
          height: 300,
          config: { integrationId: keyless },
        },
      ]);
      await page.goto(`${app.baseUrl}/d/${board.id}`);
      const kumaCard = widget(page, "Uptime Kuma");
      await kumaCard.getByText("Uptime Kuma refused or could not answer.").waitFor();
      await kumaCard.getByText(/wants an API key for its monitors \(401\)/).waitFor();
      const haCard = widget(page, "Home Assistant");
      await haCard.getByText(/Switching is off for this integration: an admin can allow actions/).waitFor();
      expect(await haCard.getByRole("switch", { name: "Switch Kitchen" }).isDisabled()).toBe(true);
      const services = ha.serviceCalls.length;
      expect(await axeBlocking(page)).toEqual([]);
      await photograph(page, "problems", kumaCard);
      expect(ha.serviceCalls.length).toBe(services);
      await page.goto(`${app.baseUrl}/d/${boardId}`);
    },
    STEP,
  );

  it(
    "shows a viewer of the shared dashboard the states, without a switch",
    async () => {
      await shareWithViewer(admin, boardId, viewer);
      const { page } = viewer;
      await page.goto(`${app.baseUrl}/d/${boardId}`);
      const card = widget(page, "Home Assistant");
      await card.locator('[data-entity-id="light.kitchen"]').getByText("Off", { exact: true }).waitFor();
      expect(await card.getByRole("switch").count()).toBe(0);
      await widget(page, "Uptime Kuma").getByText("1 down", { exact: true }).waitFor();
      expect(await axeBlocking(page)).toEqual([]);
      await photograph(page, "viewer");
    },
    STEP,
  );
});
