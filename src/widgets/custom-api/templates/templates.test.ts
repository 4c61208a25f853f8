import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "../../../../test/support/client.js";
import { type ModeEnv, prepareMode } from "../../../../test/support/modes.js";
import type { BuiltApp } from "../../../server/app.js";
import { customApiWidget } from "../contract.js";
import { type CustomApiFake, startCustomApiFake } from "../fake.js";
import { customApiConfigIssues } from "../server/config-issues.js";
import { customApiSource } from "../server/source.js";
import { CUSTOM_API_TEMPLATES } from "./index.js";

const sample = (id: string): unknown =>
  JSON.parse(readFileSync(new URL(`./samples/${id}.json`, import.meta.url), "utf8"));

/**
 * Every bundled recipe against an answer of its service's documented shape: the fake serves each
 * sample at the recipe's path below an integration's address, and the widget's own loader (the
 * integration call, the cache, the queries) reads it.
 */
describe("Custom API templates", () => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let fake: CustomApiFake;
  let admin: TestClient;

  beforeAll(async () => {
    // A header of its own, so each recipe's secret headers are sent beside it, as set.
    fake = await startCustomApiFake({ secretHeader: "X-Fake-Gate" });
    mode = await prepareMode("embedded");
    built = await mode.start({ rateLimitEnabled: false });
    admin = new TestClient(built.app);
    await admin.signUp("Admin");
  });
  afterAll(async () => {
    await mode?.teardown();
    await fake?.close();
  });

  it("are at least fifteen, with unique ids, docs and valid configs", () => {
    expect(CUSTOM_API_TEMPLATES.length).toBeGreaterThanOrEqual(15);
    expect(new Set(CUSTOM_API_TEMPLATES.map((t) => t.id)).size).toBe(CUSTOM_API_TEMPLATES.length);
    for (const template of CUSTOM_API_TEMPLATES) {
      expect(template.docs, template.id).toMatch(/^https:\/\//);
      expect(customApiConfigIssues({ ...template.config, path: template.path }), template.id).toEqual([]);
      // The config is as the parser keeps it: nothing repaired away.
      const { path: _path, ...parsed } = customApiWidget.parse({ ...template.config, path: template.path });
      expect(parsed, template.id).toEqual(template.config);
    }
  });

  it.each(CUSTOM_API_TEMPLATES.map((t) => [t.id, t] as const))(
    "%s: every field resolves on the documented answer",
    async (id, template) => {
      const base = `/api/t/${id}`;
      fake.serve(`${base}${template.path.split("?")[0]}`, sample(id));
      const saved = await admin.post("/api/integrations", {
        kind: template.integrationKind,
        name: template.service,
        url: `${fake.url}${base}`,
        allowPrivate: true,
        secrets: {
          [fake.secretHeader]: fake.secret,
          ...Object.fromEntries(template.secretNames.map((n) => [n, "x"])),
        },
      });
      expect(saved.status, saved.text).toBe(201);
      const config = customApiWidget.parse({
        ...template.config,
        integrationId: saved.body.id,
        path: template.path,
      });
      const query = customApiWidget.data.visitorQuery(config)!;
      const data = await customApiSource(built.ctx)(query, admin.user!.id);
      for (const field of data.fields) {
        expect(field.error, `${id} ${field.id}`).toBeUndefined();
        expect(field.value, `${id} ${field.id}`).not.toBeNull();
      }
      if (template.config.list) {
        expect(data.listError, id).toBeUndefined();
        expect(data.rows!.length, id).toBeGreaterThan(0);
        // A column may be empty in some rows (a queued download has no time left yet), never in all.
        for (const column of template.config.list.columns)
          expect(
            data.rows!.some((row) => row[column.id] !== null),
            `${id} ${column.id}`,
          ).toBe(true);
      }
      const sent = fake.requests.at(-1)!;
      expect(sent.path, id).toBe(`${base}${template.path}`);
      for (const name of template.secretNames) expect(sent.headers[name.toLowerCase()], id).toBe("x");
    },
  );
});
