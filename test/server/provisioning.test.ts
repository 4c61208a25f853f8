import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { userChannel } from "../../src/contract/notifications.js";
import { ACCESS_CHANGED } from "../../src/contract/sharing.js";
import type { BuiltApp } from "../../src/server/app.js";
import { Provisioner, type ProvisioningRun } from "../../src/server/provisioning/provisioner.js";
import { TestClient } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";
import { expectProblem } from "../support/problems.js";
import { registerSecret } from "../support/secrets.js";

/**
 * PROVISIONING_DIR (DESIGN section 17) through the running app: files on disk, the API as the
 * web app reads it. A dashboard waits for its owner's account, integrations take their secrets
 * from the environment, what the files keep is read-only in the app (409 `provisioned`), a bad
 * file is reported with file and path while the rest applies, and a removed file removes.
 */

const TOKEN = "provisioned-nas-token-7f3a";
/** A provisioning file's placeholder for the environment variable `name`: `${name}`. */
const variable = (name: string) => `\${${name}}`;

for (const modeName of MODES) {
  describe(`provisioning (${modeName})`, { timeout: 120_000 }, () => {
    let mode: ModeEnv;
    let built: BuiltApp;
    let dir: string;
    let ada: TestClient;
    let bob: TestClient;
    const suffix = Math.random().toString(36).slice(2, 8);
    const emails = { ada: `ada-${suffix}@example.test`, bob: `bob-${suffix}@example.test` };
    const key = `home-${suffix}`;

    const write = (file: string, value: unknown) => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), file.endsWith(".json") ? JSON.stringify(value) : stringify(value));
    };
    const dashboardFile = (more: Record<string, unknown> = {}) => ({
      key,
      owner: emails.ada,
      members: [
        { email: emails.bob, role: "viewer" },
        { email: `nobody-${suffix}@example.test`, role: "viewer" },
      ],
      format: "tessera.dashboard",
      version: 1,
      dashboard: { name: "Home lab" },
      widgets: [
        { widgetType: "Clock", width: 2, height: 2, positionX: 0, positionY: 0, config: {} },
        {
          widgetType: "Custom API",
          width: 4,
          height: 3,
          positionX: 2,
          positionY: 0,
          config: {
            integrationId: `integration:nas-${suffix}`,
            path: "/status",
            fields: [{ id: "up", label: "Up", query: "up", format: "text" }],
          },
        },
      ],
      ...more,
    });
    const apply = () => built.provisioner!.apply();
    const provisioned = async (client: TestClient) => {
      const list = (await client.get("/api/dashboards?include=shared")).body as {
        id: string;
        name: string;
        provisionKey: string | null;
        provisionLocked: boolean;
      }[];
      return list.find((d) => d.provisionKey === key);
    };

    beforeAll(async () => {
      registerSecret(TOKEN);
      dir = mkdtempSync(path.join(tmpdir(), "tessera-provisioning-"));
      write("integrations/home.yaml", {
        integrations: [
          {
            key: `nas-${suffix}`,
            kind: "custom",
            name: "NAS",
            url: "http://127.0.0.1:9/",
            allowPrivate: true,
            secrets: { "X-Api-Key": variable("NAS_TOKEN") },
          },
        ],
      });
      write(`dashboards/${key}.yaml`, dashboardFile());
      mode = await prepareMode(modeName);
      built = await mode.start(
        { rateLimitEnabled: false, provisioning: { dir, watch: modeName === "embedded", pollMs: 0 } },
        { env: { NAS_TOKEN: TOKEN } },
      );
    });
    afterAll(async () => {
      await mode?.teardown();
      rmSync(dir, { recursive: true, force: true });
    });

    it("waits for the owner's account, then shows the dashboard to them read-only", async () => {
      expect(built.provisioner!.last!.dashboards.pending, JSON.stringify(built.provisioner!.last)).toBe(1);
      expect(built.provisioner!.last!.problems).toContainEqual(
        expect.objectContaining({ file: `dashboards/${key}.yaml`, path: "/owner" }),
      );
      ada = new TestClient(built.app);
      await ada.signUp("Ada", emails.ada);
      bob = new TestClient(built.app);
      await bob.signUp("Bob", emails.bob);
      const mine = await provisioned(ada);
      expect(mine).toMatchObject({ name: "Home lab", provisionLocked: true });
      const widgets = (await ada.get(`/api/widgets?dashboardId=${mine!.id}`)).body as {
        widgetType: string;
        config: { integrationId?: string };
      }[];
      expect(widgets.map((w) => w.widgetType).sort()).toEqual(["Clock", "Custom API"]);
      const integrations = (await ada.get("/api/integrations")).body as {
        id: string;
        name: string;
        secrets: string[];
        editable: boolean;
        provisionKey: string;
      }[];
      const nas = integrations.find((i) => i.provisionKey === `nas-${suffix}`)!;
      expect(nas).toMatchObject({ name: "NAS", secrets: ["X-Api-Key"], editable: false });
      // `integration:<key>` became the integration's id; the secret came from the environment.
      expect(widgets.find((w) => w.widgetType === "Custom API")!.config.integrationId).toBe(nas.id);
      expect(JSON.stringify(integrations)).not.toContain(TOKEN);
    });

    it("shares it with the members who have accounts, and says which do not", async () => {
      // Bob signed up after the first apply: the run his account started shared it with him.
      expect(await provisioned(bob)).toMatchObject({ name: "Home lab", provisionLocked: true });
      expect(built.provisioner!.last!.problems).toContainEqual(
        expect.objectContaining({ path: "/members/1", message: expect.stringContaining("nobody-") }),
      );
    });

    it("tells members live when a file gives or takes their access, as sharing in the app does", async () => {
      const board = (await provisioned(ada))!;
      const heard: unknown[] = [];
      let onHeard = () => {};
      const stop = await built.ctx.bus.subscribe(userChannel(bob.user!.id), (message) => {
        if (message.event === ACCESS_CHANGED) heard.push(message.data);
        onHeard();
      });
      const hear = (count: number) =>
        new Promise<void>((resolve) => {
          onHeard = () => heard.length >= count && resolve();
          onHeard();
        });
      try {
        write(`dashboards/${key}.yaml`, dashboardFile({ members: [{ email: emails.bob, role: "editor" }] }));
        await apply();
        await hear(1);
        expect(heard).toEqual([{ dashboardId: board.id, access: "editor" }]);
        write(`dashboards/${key}.yaml`, dashboardFile({ members: [] }));
        await apply();
        await hear(2);
        expect(heard[1]).toEqual({ dashboardId: board.id, access: null });
        expect(await provisioned(bob)).toBeUndefined();
      } finally {
        // Back to the file the other tests expect, applied (its hash is the one they start from).
        write(`dashboards/${key}.yaml`, dashboardFile());
        await apply();
        stop();
      }
      await hear(3);
      expect(heard[2]).toEqual({ dashboardId: board.id, access: "viewer" });
    });

    it("refuses every write through the app with 409 provisioned, and changes nothing", async () => {
      const board = (await provisioned(ada))!;
      const [widget] = (await ada.get(`/api/widgets?dashboardId=${board.id}`)).body as {
        id: string;
        width: number;
      }[];
      const refusals = [
        await ada.put("/api/dashboards", { id: board.id, name: "Mine now" }),
        await ada.delete(`/api/dashboards?id=${board.id}`),
        await ada.post("/api/widgets", {
          dashboardId: board.id,
          widgetType: "Clock",
          width: 2,
          height: 2,
          positionX: 0,
          positionY: 6,
          config: {},
        }),
        await ada.put("/api/widgets", { id: widget!.id, width: 3 }),
        await ada.delete(`/api/widgets?id=${widget!.id}`),
        await ada.put("/api/dashboards/members", { id: board.id, members: [] }),
      ];
      for (const res of refusals) expectProblem(res, 409, "provisioned");
      const integrations = (await ada.get("/api/integrations")).body as {
        id: string;
        provisionKey: string;
      }[];
      const nas = integrations.find((i) => i.provisionKey === `nas-${suffix}`)!;
      // Ada signed up first, so she is the admin: the file still wins.
      expectProblem(await ada.put(`/api/integrations/${nas.id}`, { name: "x" }), 409, "provisioned");
      expectProblem(await ada.delete(`/api/integrations/${nas.id}`), 409, "provisioned");
      expect(await provisioned(ada)).toMatchObject({ name: "Home lab" });
      expect((await ada.get(`/api/widgets?dashboardId=${board.id}`)).body).toHaveLength(2);
    });

    it("folds the applies asked for during a run into one run after it", async () => {
      // A provisioner of its own, so the app's watcher cannot start runs in the middle of this.
      const own = new Provisioner({
        dir,
        db: built.ctx.database.db,
        changes: built.ctx.changes,
        bus: built.ctx.bus,
        integrations: built.ctx.integrations,
        env: { NAS_TOKEN: TOKEN },
        log: built.app.log,
        watch: false,
      });
      let runs = 0;
      own.onApplied(() => runs++);
      try {
        // The watcher and a sign-up can ask while a run is under way: each call gets a run that
        // read the files after it asked, and no two calls keep starting runs for each other.
        const [first, second, third] = await Promise.all([own.apply(), own.apply(), own.apply()]);
        expect(second).toBe(third);
        expect(first).not.toBe(second);
        expect(runs).toBe(2);
      } finally {
        await own.close();
      }
    });

    it("applies an unchanged folder as no change at all", async () => {
      const run = await apply();
      expect(run.dashboards).toMatchObject({ created: 0, updated: 0, removed: 0 });
      expect(run.integrations).toMatchObject({ created: 0, updated: 0, unchanged: 1, removed: 0 });
    });

    it("names the file and path of each bad file, applies the rest, and removes nothing meanwhile", async () => {
      writeFileSync(path.join(dir, "dashboards/broken.yaml"), "key: [unclosed\n");
      write("dashboards/unknown.json", {
        ...dashboardFile(),
        key: `unknown-${suffix}`,
        widgets: [{ widgetType: "Toaster", width: 1, height: 1, positionX: 0, positionY: 0, config: {} }],
      });
      write("integrations/missing.yaml", {
        integrations: [
          {
            key: `ha-${suffix}`,
            kind: "homeassistant",
            name: "HA",
            url: "http://127.0.0.1:9/",
            secrets: { token: variable("HA_TOKEN") },
          },
        ],
      });
      write(`dashboards/${key}.yaml`, dashboardFile({ editable: true, dashboard: { name: "Home lab 2" } }));
      const run = await apply();
      const where = run.problems.map((p) => `${p.file} ${p.path}`);
      expect(where).toContain("dashboards/broken.yaml /");
      expect(where).toContain("dashboards/unknown.json /widgets/0/widgetType");
      expect(where).toContain("integrations/missing.yaml /integrations/0/secrets/token");
      expect(run.problems.find((p) => p.path.endsWith("/secrets/token"))!.message).toContain("HA_TOKEN");
      // The good file applied: renamed, and editable now.
      const board = (await provisioned(ada))!;
      expect(board).toMatchObject({ name: "Home lab 2", provisionLocked: false });
      expect((await ada.put("/api/dashboards", { id: board.id, name: "Edited here" })).status).toBe(200);
      // While a file is unreadable nothing is removed: the NAS integration is still there.
      expect(run.integrations.removed).toBe(0);
      expect(run.dashboards.removed).toBe(0);
    });

    it("removes the dashboard and integration whose files are gone", async () => {
      for (const file of [
        "dashboards/broken.yaml",
        "dashboards/unknown.json",
        "integrations/missing.yaml",
        "integrations/home.yaml",
      ])
        unlinkSync(path.join(dir, file));
      const waited = new Promise<ProvisioningRun>((resolve) => {
        const stop = built.provisioner!.onApplied((run) => {
          if (run.dashboards.removed > 0) {
            stop();
            resolve(run);
          }
        });
      });
      unlinkSync(path.join(dir, `dashboards/${key}.yaml`));
      // The watcher (embedded) sees the change itself; elsewhere the run is asked for.
      const run = modeName === "embedded" ? await waited : await apply();
      expect(run.dashboards.removed).toBe(1);
      expect(run.integrations.removed).toBe(1);
      expect(await provisioned(ada)).toBeUndefined();
      expect(await provisioned(bob)).toBeUndefined();
    });
  });
}
