import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clusterCertificates, type ProxmoxFake, startProxmoxFake } from "../src/integrations/proxmox/fake.js";
import { type StatusSite, startStatusSite } from "../src/widgets/status/fake.js";
import { axeBlocking } from "./support/axe.js";
import { eventually } from "./support/page-helpers.js";
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
 * The Proxmox VE widget and the Bookmark widget's status dots (issue 33) in Chromium against the
 * compiled server. Proxmox is the fake on loopback over https, its certificate signed by a cluster
 * CA of its own: an admin saves the integration with that CA, adds the widget from the picker and
 * narrows it in its settings. App tiles: a Bookmark widget whose links show whether they answer,
 * one by its own address (chosen in the settings), one by a Status widget's check; a visitor of
 * the published page sees no dot for the loopback addresses. Pictures at 390 and 1440 px, light
 * and dark, go to /tmp/shots/proxmox (SHOTS_DIR).
 */
const SHOTS = process.env.SHOTS_DIR ?? "/tmp/shots/proxmox";
const STEP = 120_000;
/** How long a poll waits for the page to catch up (a save, then a fetch) on a busy machine. */
const WAIT = { timeout: 30_000 };

let app: E2eApp;
let pve: ProxmoxFake;
let ca: string;
let up: StatusSite;
let down: StatusSite;
let admin: Person;
let visitorContext: BrowserContext;
let boardId = "";
let statusWidgetId = "";
const pageErrors: string[] = [];

const photograph = photographer(SHOTS, "", { parts: true });

beforeAll(async () => {
  const certificates = clusterCertificates();
  ca = certificates.ca;
  [pve, up, down] = await Promise.all([
    startProxmoxFake({ tls: certificates }),
    startStatusSite(200),
    startStatusSite(503),
  ]);
  // Loopback is open to people's addresses (the sites the dots check); Proxmox is reached through
  // its integration's own "home network" choice all the same.
  // A shared, busy machine: a step may take longer than the support's 10 s without being wrong.
  ({ app, admin } = await startWithAdmin({
    pageErrors,
    env: { FETCH_ALLOW_PRIVATE: "127.0.0.1/32", ALERTS_WATCH_SECONDS: "2" },
    stepTimeout: 30_000,
  }));
  visitorContext = await app.browser.newContext({ ...DESKTOP, colorScheme: "light" });
}, 300_000);

afterAll(async () => {
  await visitorContext?.close();
  await app?.stop();
  await Promise.all([pve?.close(), up?.stop(), down?.stop()]);
  expect(pageErrors).toEqual([]);
});

describe("Proxmox VE in the browser", () => {
  it(
    "saves the integration with the cluster's CA certificate, tested over https",
    async () => {
      const base = {
        kind: "proxmox",
        url: pve.url,
        allowPrivate: true,
        secrets: { tokenId: pve.token.tokenId, secret: pve.token.secret },
      };
      const untrusted = await admin.api("POST", "/api/integrations/test", base);
      expect(untrusted.body.ok).toBe(false);
      expect(untrusted.body.detail).toMatch(/TLS: /);
      const saved = await saveForEveryone(admin, { ...base, name: "Homelab", caCertificate: ca });
      expect(await connectionTest(admin, saved.id)).toMatchObject({
        ok: true,
        detail: "Proxmox VE 9.1.3: 3 nodes, 5 guests",
      });
      expect(pve.requests.at(-1)!.headers.authorization).toBe(
        `PVEAPIToken=${pve.token.tokenId}=${pve.token.secret}`,
      );
      boardId = await openNewBoard(app, admin, "Homelab");
    },
    STEP,
  );

  it(
    "adds the widget from the picker, chooses the integration, and shows nodes and guests",
    async () => {
      const { page } = admin;
      const card = await addFromPicker(page, "Proxmox VE", "Proxmox");
      await card.getByText("Choose a Proxmox VE integration to see its nodes and guests").waitFor();
      await card.getByRole("button", { name: "Choose an integration" }).click();
      const panel = page.getByRole("dialog", { name: "Proxmox VE settings" });
      await panel.getByLabel("Proxmox VE integration").selectOption({ label: "Homelab (shared)" });
      expect(await axeBlocking(page)).toEqual([]);
      await panel.getByRole("button", { name: "Save" }).click();

      const node = (name: string) => card.locator(`[data-node="${name}"]`);
      await node("pve1").getByText("Online", { exact: true }).waitFor();
      expect(await node("pve1").locator(".pve-figures").textContent()).toBe(
        "CPU 6%RAM 21.5 GiB of 64 GiBup 14d",
      );
      await node("pve3").getByText("Offline", { exact: true }).waitFor();
      expect(await node("pve3").locator(".pve-figures").count()).toBe(0);
      const guest = (vmid: number) => card.locator(`[data-vmid="${vmid}"]`);
      await guest(100).getByText("Running", { exact: true }).waitFor();
      expect(await guest(100).locator("th").textContent()).toBe("haosVM · pve1");
      expect(await guest(100).locator("td").allTextContents()).toEqual([
        "100",
        "Running",
        "3%",
        "2.9 GiB of 4 GiB",
        // A VM's disk use is Proxmox's blind spot: its size alone.
        "32 GiB",
      ]);
      expect(await guest(101).locator(".pve-status").textContent()).toBe("Stopped");
      expect(await guest(300).locator("th").textContent()).toBe("Guest 300Container · pve3");
      // The template is no guest to show.
      expect(await guest(9000).count()).toBe(0);
      await card.getByText("3 running", { exact: true }).waitFor();
      await card.getByText("Proxmox VE 9.1.3").waitFor();
      expect(pve.count("/api2/json/cluster/resources")).toBeGreaterThan(0);
      const saved = await widgetsOnceSaved(
        admin,
        boardId,
        (r) => typeof r.body[0]?.config.integrationId === "string",
        "the saved integration",
      );
      expect(saved.body[0].config.integrationId).toMatch(/^[0-9a-f-]{36}$/);
      expect(await axeBlocking(page)).toEqual([]);
      await photograph(page, "proxmox", card);
    },
    STEP,
  );

  it(
    "narrows to one node's containers and hides stopped guests from its settings",
    async () => {
      const { page } = admin;
      const card = widget(page, "Proxmox");
      await card.getByRole("button", { name: "Proxmox VE settings" }).click();
      const panel = page.getByRole("dialog", { name: "Proxmox VE settings" });
      const nodes = panel.getByRole("textbox", { name: "Nodes" });
      await nodes.fill("pve_1");
      await panel.getByText("A node name has letters, digits and hyphens").waitFor();
      expect(await axeBlocking(page)).toEqual([]);
      // Photographed before the changes that are saved: a change of scheme may reload the page,
      // which opens the panel again on what is stored.
      await photograph(page, "proxmox-settings", nodes);
      await nodes.fill("pve1, pve2");
      await panel.getByRole("combobox", { name: "Guests" }).selectOption({ label: "Containers only" });
      await panel.getByRole("checkbox", { name: "Hide stopped guests" }).check();
      await panel.getByRole("checkbox", { name: "Show the nodes" }).uncheck();
      await panel.getByRole("button", { name: "Save" }).click();
      await panel.waitFor({ state: "hidden" });
      await widgetsOnceSaved(admin, boardId, (r) => r.body[0]?.config.guests === "lxc", "the saved settings");
      await expect.poll(() => card.locator("[data-vmid]").count(), WAIT).toBe(2);
      expect(
        await card.locator("[data-vmid]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-vmid"))),
      ).toEqual(["200", "201"]);
      expect(await card.locator("[data-node]").count()).toBe(0);
      await card.getByText("2 running", { exact: true }).waitFor();
    },
    STEP,
  );
});

describe("app tiles: bookmarks with a status dot", () => {
  it(
    "shows a Status check's state and, once chosen in the settings, the link's own",
    async () => {
      const { page, api } = admin;
      const checks = await admin.board("Checks", [
        {
          widgetType: "Status",
          config: { checks: [{ id: "media", name: "Media server", url: `${up.url}media` }] },
        },
      ]);
      statusWidgetId = checks.widgets[0].id;
      await eventually(
        () => api("GET", `/api/status?widgetId=${statusWidgetId}`),
        (r) => r.status === 200 && r.body[0]?.state?.up === true,
        "a watch pass over the check",
        20_000,
      );
      const created = await api("POST", "/api/widgets", {
        dashboardId: boardId,
        widgetType: "Bookmark",
        positionX: 620,
        positionY: 0,
        width: 320,
        height: 300,
        config: {
          bookmarks: [
            { id: "jellyfin", title: "Jellyfin", url: `${up.url}jellyfin`, icon: "si:jellyfin" },
            { id: "nas", title: "Backup NAS", url: `${down.url}nas`, status: "self" },
            {
              id: "media",
              title: "Media",
              url: `${up.url}media`,
              status: { widgetId: statusWidgetId, checkId: "media" },
            },
            { id: "docs", title: "Docs", url: "https://example.com/docs" },
          ],
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      await page.reload();
      const card = widget(page, "Bookmark");
      const dot = (title: string) =>
        card.locator(".bookmark-row", { hasText: title }).locator(".bookmark-status");
      await expect.poll(() => dot("Backup NAS").getAttribute("data-state"), WAIT).toBe("down");
      await expect.poll(() => dot("Media").getAttribute("data-state"), WAIT).toBe("up");
      // Words for screen readers, as the link's name ends; the tooltip says more.
      await card.getByRole("link", { name: /^Backup NAS .*, Down$/ }).waitFor();
      expect(await dot("Backup NAS").getAttribute("title")).toMatch(/^Down · HTTP 503 · checked /);
      expect(await dot("Jellyfin").count()).toBe(0);
      expect(await dot("Docs").count()).toBe(0);

      await card.getByRole("button", { name: "Bookmarks settings" }).click();
      const panel = page.getByRole("dialog", { name: "Bookmarks settings" });
      const choice = panel.getByLabel("Status dot for Jellyfin");
      // The owner's own checks are offered by dashboard.
      const media = panel.getByLabel("Status dot for Media");
      expect(await media.inputValue()).toBe(`check:${statusWidgetId}:media`);
      await expect
        .poll(
          () => media.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent),
          WAIT,
        )
        .toBe("Status dot: Media server");
      expect(await axeBlocking(page)).toEqual([]);
      // Before the change that is saved (a change of scheme may reload the page).
      await photograph(page, "bookmark-settings", choice);
      await choice.selectOption({ label: "Status dot: this address" });
      await panel.getByRole("button", { name: "Save" }).click();
      await expect.poll(() => dot("Jellyfin").getAttribute("data-state"), WAIT).toBe("up");
      await card.getByRole("link", { name: /^Jellyfin .*, Up$/ }).waitFor();
      expect(up.requests).toContain("HEAD /jellyfin");
      const stored = await widgetsOnceSaved(
        admin,
        boardId,
        (r) => r.body.some((w: any) => w.config.bookmarks?.[0]?.status === "self"),
        "the saved dot",
      );
      expect(stored.body.find((w: any) => w.widgetType === "Bookmark").config.bookmarks[3]).toEqual({
        id: "docs",
        title: "Docs",
        url: "https://example.com/docs",
      });
      expect(await axeBlocking(page)).toEqual([]);
      await photograph(page, "tiles", card);
    },
    STEP,
  );

  it(
    "shows a visitor of the published page the links, and no dot that would tell about home",
    async () => {
      await publish(admin, boardId, "Homelab");
      const widgets = await admin.api("GET", `/api/widgets?dashboardId=${boardId}`);
      const bookmarks = widgets.body.find((w: any) => w.widgetType === "Bookmark").id as string;
      const page = await visitorContext.newPage();
      page.setDefaultTimeout(30_000);
      page.on("pageerror", (error) => pageErrors.push(error.message));
      const dots = page.waitForResponse((r) => r.url().endsWith(`/widgets/${bookmarks}/bookmark-status`));
      await page.goto(`${app.baseUrl}/p/${boardId}`);
      const card = widget(page, "Bookmark");
      await card.getByRole("link", { name: /^Backup NAS/ }).waitFor();
      await widget(page, "Proxmox").locator('[data-vmid="200"]').waitFor();
      // Loopback addresses, and a check on a dashboard that is not public: nothing to show a visitor.
      const answered = await dots;
      expect(answered.status()).toBe(200);
      expect((await answered.json()).links).toEqual([]);
      expect(await card.locator(".bookmark-status").count()).toBe(0);
      expect(await axeBlocking(page)).toEqual([]);
      await page.close();
    },
    STEP,
  );
});
