import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { exportProvisioning } from "../../src/server/provisioning/export.js";
import { TestClient } from "../support/client.js";
import { type ModeEnv, prepareMode } from "../support/modes.js";
import { registerSecret } from "../support/secrets.js";

/**
 * `npm run export-provisioning` writes what an instance holds as provisioning files; applied to a
 * fresh instance they give the same dashboards, shared the same way, with integrations whose
 * secrets come from the environment (never from the files).
 */
describe("exporting provisioning files", { timeout: 120_000 }, () => {
  const modes: ModeEnv[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    for (const mode of modes) await mode.teardown();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("round-trips dashboards, members and integrations, and writes no secret", async () => {
    const secret = "export-secret-value-91c2";
    registerSecret(secret);
    const from = await prepareMode("embedded");
    modes.push(from);
    const source = await from.start({ rateLimitEnabled: false });
    const ada = new TestClient(source.app);
    const adaAccount = await ada.signUp("Ada");
    const bob = new TestClient(source.app);
    const bobAccount = await bob.signUp("Bob");
    const nas = await ada.post("/api/integrations", {
      kind: "custom",
      name: "NAS box",
      url: "http://127.0.0.1:9/",
      owner: "instance",
      allowPrivate: true,
      secrets: { "X-Api-Key": secret },
    });
    expect(nas.status, nas.text).toBe(201);
    const { dashboardId } = await ada.addWidget(
      "Custom API",
      {
        integrationId: nas.body.id,
        path: "/x",
        fields: [{ id: "a", label: "A", query: "a", format: "text" }],
      },
      "Lab",
    );
    expect(
      (
        await ada.put("/api/dashboards/members", {
          id: dashboardId,
          members: [{ type: "user", id: bobAccount.id, role: "editor" }],
        })
      ).status,
    ).toBe(200);

    const dir = mkdtempSync(path.join(tmpdir(), "tessera-export-"));
    dirs.push(dir);
    const summary = await exportProvisioning(source.ctx.database.db, dir);
    expect(summary.files).toContain("integrations/exported.yaml");
    const written = summary.files.map((f) => readFileSync(path.join(dir, f), "utf8")).join("\n");
    expect(written).not.toContain(secret);
    const integrationsFile = parse(readFileSync(path.join(dir, "integrations/exported.yaml"), "utf8"));
    const [entry] = integrationsFile.integrations;
    expect(entry).toMatchObject({ kind: "custom", name: "NAS box", allowPrivate: true });
    const variable = /^\$\{(.+)\}$/.exec(entry.secrets["X-Api-Key"])![1]!;

    // A fresh instance, the same people, the files and the secret's variable.
    const to = await prepareMode("postgres");
    modes.push(to);
    const target = await to.start(
      { rateLimitEnabled: false, provisioning: { dir, watch: false, pollMs: 0 } },
      { env: { [variable]: secret } },
    );
    const ada2 = new TestClient(target.app);
    await ada2.signUp("Ada", adaAccount.email);
    const bob2 = new TestClient(target.app);
    await bob2.signUp("Bob", bobAccount.email);
    const boards = (await bob2.get("/api/dashboards?include=shared")).body as {
      id: string;
      name: string;
      access: string;
      provisionLocked: boolean;
    }[];
    const lab = boards.find((b) => b.name === "Lab")!;
    expect(lab).toMatchObject({ access: "editor", provisionLocked: true });
    const [widget] = (await bob2.get(`/api/widgets?dashboardId=${lab.id}`)).body as {
      widgetType: string;
      config: { integrationId: string };
    }[];
    const integrations = (await ada2.get("/api/integrations")).body as { id: string; name: string }[];
    expect(widget!.config.integrationId).toBe(integrations.find((i) => i.name === "NAS box")!.id);
  });
});
