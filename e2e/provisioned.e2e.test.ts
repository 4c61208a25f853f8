import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { inFrench } from "./support/catalog.js";
import { inScheme, stylesSettled } from "./support/page-helpers.js";
import { type E2eApp, startApp } from "./support/web-app.js";

/**
 * A provisioned dashboard (DESIGN section 17) as its owner meets it, in French: the compiled
 * server started with PROVISIONING_DIR (as an operator starts it) applies the file once the owner
 * signs up; the page shows it without any edit control and says, in French, why.
 */

const SHOTS = "/tmp/shots/provisioned";
let app: E2eApp;
let dir: string;
const email = `owner-${Date.now()}@example.test`;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  dir = mkdtempSync(path.join(tmpdir(), "tessera-provisioned-e2e-"));
  mkdirSync(path.join(dir, "dashboards"));
  writeFileSync(
    path.join(dir, "dashboards/family.yaml"),
    stringify({
      key: "family",
      owner: email,
      format: "tessera.dashboard",
      version: 1,
      dashboard: { name: "Maison" },
      widgets: [
        { widgetType: "Clock", width: 360, height: 280, positionX: 0, positionY: 0, config: {} },
        {
          widgetType: "Countdown",
          width: 360,
          height: 280,
          positionX: 380,
          positionY: 0,
          config: { title: "Vacances", target: "2027-07-14T10:00:00.000Z" },
        },
      ],
    }),
  );
  app = await startApp({ env: { PROVISIONING_DIR: dir } });
}, 300_000);

afterAll(async () => {
  await app?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("a provisioned dashboard, in French", () => {
  it("appears for its owner read-only, saying why, in light and dark", async () => {
    const person = await app.person({
      email,
      context: { locale: "fr-FR", timezoneId: "Europe/Paris" },
      settings: { theme: "system" },
    });
    const { page, api } = person;
    const boards = (await api("GET", "/api/dashboards")).body as {
      id: string;
      name: string;
      provisionLocked: boolean;
    }[];
    const board = boards.find((b) => b.name === "Maison")!;
    expect(board.provisionLocked).toBe(true);
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${app.baseUrl}/d/${board.id}`);
      const note = page.getByText(inFrench("viewer.provisionedLocked"));
      await note.waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe("fr");
      // Nothing offers a change the server would refuse.
      expect(await page.getByRole("button", { name: inFrench("dashboard.addWidget") }).count()).toBe(0);
      expect(await page.getByRole("button", { name: inFrench("viewer.duplicate") }).count()).toBe(1);
      for (const scheme of ["light", "dark"] as const) {
        await inScheme(page, scheme);
        await stylesSettled(page);
        await page.screenshot({ path: `${SHOTS}/provisioned-fr-${width}-${scheme}.png` });
      }
    }
  });
});
