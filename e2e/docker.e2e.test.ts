import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DockerFake, startDockerFake } from "../src/integrations/docker/fake.js";
import { axeBlocking } from "./support/axe.js";
import { eventually } from "./support/page-helpers.js";
import { photographer } from "./support/photograph.js";
import {
  addFromPicker,
  connectionTest,
  openNewBoard,
  saveForEveryone,
  shareWithViewer,
  startWithAdminAndViewer,
  widgetOf,
} from "./support/service-boards.js";
import type { E2eApp, Person } from "./support/web-app.js";

/**
 * The Docker widget (issue 33) in Chromium against the compiled server, with Docker as the fake
 * on a Unix socket and on loopback, and no private network allowed by the environment: an admin
 * saves the daemon's socket as an integration for everyone (actions allowed), adds the widget from
 * the picker and chooses the integration; the list shows states, health, uptime, CPU and memory;
 * stopping asks first (cancel changes nothing, confirming stops it); the apps view shows tiles
 * from labels; a viewer sees the list without buttons. Pictures at 390 and 1440 px, light and
 * dark, go to SHOTS_DIR.
 */
const SHOTS = process.env.SHOTS_DIR ?? "/tmp/shots/docker";
const STEP = 90_000;

let app: E2eApp;
let docker: DockerFake;
let admin: Person;
let viewer: Person;
let boardId = "";
let integrationId = "";
const pageErrors: string[] = [];

const widget = (page: Page, type = "Docker"): Locator => widgetOf(page, type);
const row = (card: Locator, name: string) => card.locator(`.docker-row[data-container="${name}"]`);
const photograph = photographer(SHOTS, "docker-");

beforeAll(async () => {
  docker = await startDockerFake();
  // Unset: only the integration's own choices let the server reach loopback or the socket.
  // The machine running the suite may be busy: waits end on conditions, just later.
  ({ app, admin, viewer } = await startWithAdminAndViewer({
    pageErrors,
    env: { FETCH_ALLOW_PRIVATE: "" },
    stepTimeout: 30_000,
  }));
}, 300_000);

afterAll(async () => {
  await app?.stop();
  await docker?.close();
  expect(pageErrors).toEqual([]);
});

describe("Docker in the browser", () => {
  it(
    "saves the daemon's Unix socket as an integration for everyone, tested against the engine",
    async () => {
      const saved = await saveForEveryone(admin, {
        kind: "docker",
        name: "Home server",
        url: `unix://${docker.socketPath}`,
        allowActions: true,
      });
      integrationId = saved.id;
      expect(await connectionTest(admin, integrationId)).toMatchObject({
        ok: true,
        detail: "Docker 27.3.1 (API 1.47); containers can be read",
      });
      expect(docker.requests.at(-1)).toMatchObject({ via: "unix", host: "localhost" });
      boardId = await openNewBoard(app, admin, "Server");
    },
    STEP,
  );

  it(
    "adds the Docker widget from the picker and lists the containers with state, health, uptime, CPU and memory",
    async () => {
      const { page } = admin;
      const card = await addFromPicker(page, "Docker", "Docker");
      await card.getByText("Choose a Docker integration to see its containers").waitFor();
      await card.getByRole("button", { name: "Choose containers" }).click();
      const panel = page.getByRole("dialog", { name: "Docker settings" });
      await panel.getByLabel("Docker integration").selectOption({ label: "Home server (shared)" });
      expect(await panel.getByRole("radio", { name: "All of them" }).isChecked()).toBe(true);
      expect(await axeBlocking(page)).toEqual([]);
      await panel.getByRole("button", { name: "Save" }).click();

      const jellyfin = row(card, "jellyfin");
      await jellyfin.getByText("Running · healthy · up 4 days").waitFor();
      await jellyfin.getByText("25%").waitFor();
      await jellyfin.getByText("400 MiB").waitFor();
      await row(card, "paperless").getByText("Running · unhealthy · up 3 hours").waitFor();
      await row(card, "backup")
        .getByText(/^Stopped · (1 day|\d+ h) ago$/)
        .waitFor();
      await row(card, "watchtower").getByText("Created", { exact: true }).waitFor();
      // Running ones can be restarted and stopped; stopped ones started.
      expect(await jellyfin.getByRole("button").allTextContents()).toHaveLength(2);
      await jellyfin.getByRole("button", { name: "Restart jellyfin" }).waitFor();
      await row(card, "backup").getByRole("button", { name: "Start backup" }).waitFor();
      expect(docker.requests.filter((r) => r.via === "tcp")).toEqual([]);
      expect(await axeBlocking(page)).toEqual([]);
      await photograph(page, "list", card);
    },
    STEP,
  );

  it(
    "asks before stopping a container: Cancel changes nothing, Stop stops it through Docker",
    async () => {
      const { page } = admin;
      const card = widget(page);
      const jellyfin = row(card, "jellyfin");
      const posts = () => docker.requests.filter((r) => r.method === "POST").length;
      await jellyfin.getByRole("button", { name: "Stop jellyfin" }).click();
      const dialog = page.getByRole("dialog", { name: "Stop jellyfin?" });
      await dialog
        .getByText("Whatever runs in this container stops until someone starts it again.")
        .waitFor();
      expect(await axeBlocking(page)).toEqual([]);
      await photograph(page, "confirm-stop", dialog);
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });
      expect(posts()).toBe(0);
      expect(docker.byName("jellyfin").state).toBe("running");

      await jellyfin.getByRole("button", { name: "Stop jellyfin" }).click();
      await dialog.getByRole("button", { name: "Stop", exact: true }).click();
      await dialog.waitFor({ state: "detached" });
      await page.getByText("Stopped jellyfin").first().waitFor();
      await jellyfin.getByText(/^Stopped/).waitFor();
      await jellyfin.getByRole("button", { name: "Start jellyfin" }).waitFor();
      expect(docker.byName("jellyfin").state).toBe("exited");
      expect(docker.requests.filter((r) => r.method === "POST")).toEqual([
        expect.objectContaining({
          path: `/v1.47/containers/${docker.byName("jellyfin").id}/stop`,
          via: "unix",
        }),
      ]);
      const audit = await eventually(
        () => admin.api("GET", "/api/admin/audit?limit=1"),
        (r) => r.body.events?.[0]?.action === "widget.action",
        "the audit entry",
      );
      expect(audit.body.events[0]).toMatchObject({
        detail: { widgetType: "Docker", action: "stop", outcome: "done" },
      });

      // Starting needs no question.
      await jellyfin.getByRole("button", { name: "Start jellyfin" }).click();
      await jellyfin.getByText(/^Running/).waitFor();
      expect(docker.byName("jellyfin").state).toBe("running");
    },
    STEP,
  );

  it(
    "shows apps found in container labels as tiles with their state",
    async () => {
      const { page } = admin;
      const board = await admin.board("Apps", [
        { widgetType: "Docker", width: 720, height: 300, config: { integrationId, display: "apps" } },
      ]);
      await page.goto(`${app.baseUrl}/d/${board.id}`);
      const card = widget(page);
      const jellyfin = card.getByRole("link", { name: /Jellyfin/ });
      await jellyfin.waitFor();
      expect(await jellyfin.getAttribute("href")).toBe("http://jellyfin.lan:8096/");
      await card.getByRole("heading", { name: "Media" }).waitFor();
      await card.getByRole("heading", { name: "Documents" }).waitFor();
      // A label's javascript: link is not a link.
      expect(await card.locator('[data-container="backup"] a').count()).toBe(0);
      // The bundled icon replaces the initial once loaded.
      await card.locator('[data-container="jellyfin"] .docker-app-icon svg').waitFor();
      expect(await axeBlocking(page)).toEqual([]);
      await photograph(page, "apps", card);
      await page.goto(`${app.baseUrl}/d/${boardId}`);
    },
    STEP,
  );

  it(
    "shows a viewer of the shared dashboard the containers, without buttons",
    async () => {
      await shareWithViewer(admin, boardId, viewer);
      const { page } = viewer;
      await page.goto(`${app.baseUrl}/d/${boardId}`);
      const card = widget(page);
      await row(card, "jellyfin")
        .getByText(/^Running/)
        .waitFor();
      expect(await card.getByRole("button", { name: /^(Start|Stop|Restart) / }).count()).toBe(0);
      expect(await axeBlocking(page)).toEqual([]);
      await photograph(page, "viewer", card);
    },
    STEP,
  );
});
