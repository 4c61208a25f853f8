import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { finished } from "node:stream/promises";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { BackupError, restoreBackup, verifyBackup, writeBackup } from "../../src/server/backup/backup.js";
import { account } from "../../src/server/db/schema.js";
import { seedAccount } from "../fakes/oauth-accounts.js";
import { TokenAuthority } from "../fakes/oauth-http.js";
import { signedInClient, TestClient } from "../support/client.js";
import { type ModeEnv, prepareMode } from "../support/modes.js";

const dir = mkdtempSync(path.join(tmpdir(), "tessera-backup-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The data revisions PostgreSQL caches check are bookkeeping: a restore sets them anew. */
const BOOKKEEPING = "data_revisions";

const revisions = async (built: BuiltApp) =>
  (
    (await built.ctx.database.db.execute(
      sql`SELECT user_id, revision::int AS revision FROM data_revisions ORDER BY user_id`,
    )) as unknown as { rows: { user_id: string; revision: number }[] }
  ).rows;

/** Every table but the bookkeeping, every row, in a stable order: what "the same data" means. */
async function snapshot(built: BuiltApp) {
  const db = built.ctx.database.db;
  const tables = (
    (await db.execute(
      sql`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
    )) as unknown as {
      rows: { tablename: string }[];
    }
  ).rows
    .map((r) => r.tablename)
    .filter((t) => t !== BOOKKEEPING);
  const out: Record<string, string[]> = {};
  for (const table of tables) {
    const rows = (
      (await db.execute(sql.raw(`SELECT row_to_json(t)::text AS j FROM "${table}" t`))) as unknown as {
        rows: { j: string }[];
      }
    ).rows.map((r) => r.j);
    out[table] = rows.sort();
  }
  return out;
}

async function backupTo(built: BuiltApp, name: string) {
  const file = path.join(dir, name);
  const out = createWriteStream(file);
  const result = await writeBackup(built.ctx.database, out);
  out.end();
  await finished(out);
  return { file, ...result };
}

describe.each([
  ["embedded", "postgres"],
  ["postgres", "embedded"],
] as const)("backup from %s, restore into %s", (from, to) => {
  let source: ModeEnv;
  let target: ModeEnv;
  let built: BuiltApp;
  let restoredApp: BuiltApp;
  let password = "";
  let email = "";
  let userId = "";
  let tokens: { accessToken: string };

  beforeAll(async () => {
    source = await prepareMode(from);
    target = await prepareMode(to);
    built = await source.start();
    const client = new TestClient(built.app);
    ({ password, email, id: userId } = await client.signUp("BackedUp"));
    const dashboardId = (await client.post("/api/dashboards", { name: "Zuhause — ✓ 🏠" })).body.id;
    for (let i = 0; i < 30; i++)
      await client.post("/api/widgets", {
        dashboardId,
        widgetType: i % 2 ? "Clock" : "Todo",
        height: 100.5,
        width: 200,
        positionX: i,
        positionY: 0,
        config: { note: `ünïcode ${i}`, nested: { list: [1, 2.5, null] } },
      });
    await client.post("/api/notifications", { type: "alert", message: "kept" });
    await signedInClient(built.app, "Second");
    tokens = await seedAccount(built, userId, "suite", new TokenAuthority("suite", "post"));
  });
  afterAll(async () => {
    await source.teardown();
    await target.teardown();
  });

  it("copies every table row for row, and the old password and OAuth token still work", async () => {
    const { file, rows } = await backupTo(built, `${from}.ndjson`);
    expect(rows).toBeGreaterThan(30);
    expect(await verifyBackup(file)).toMatchObject({
      rows,
      source: from === "embedded" ? "pglite" : "postgres",
    });

    restoredApp = await target.start();
    const restored = await restoreBackup(restoredApp.ctx.database, file);
    expect(restored.rows).toBe(rows);
    const before = await snapshot(built);
    const after = await snapshot(restoredApp);
    // The notification list lives in Redis only in the Redis mode; these modes keep it in SQL.
    expect(after).toEqual(before);

    const signIn = await new TestClient(restoredApp.app).post("/api/auth/sign-in/email", { email, password });
    expect(signIn.status).toBe(200);
    const [row] = await restoredApp.ctx.database.db
      .select()
      .from(account)
      .where(sql`user_id = ${userId} AND provider_id = 'suite'`);
    expect(restoredApp.ctx.cipher.decrypt(row!.accessToken!)).toBe(tokens.accessToken);
  });

  it("refuses a target that has users unless forced, and a damaged or newer file; nothing is written", async () => {
    const { file } = await backupTo(built, `${from}-again.ndjson`);
    await expect(restoreBackup(restoredApp.ctx.database, file)).rejects.toThrow(/already has .* user/);

    const text = readFileSync(file, "utf8");
    const damaged = path.join(dir, "damaged.ndjson");
    writeFileSync(damaged, text.replace("ünïcode 7", "ünïcode 8"));
    await expect(verifyBackup(damaged)).rejects.toThrow(/checksum/);
    const cut = path.join(dir, "cut.ndjson");
    writeFileSync(cut, text.split("\n").slice(0, 10).join("\n"));
    await expect(verifyBackup(cut)).rejects.toThrow(/cut short/);
    const newer = path.join(dir, "newer.ndjson");
    writeFileSync(newer, text.replace('"version":1', '"version":2'));
    await expect(verifyBackup(newer)).rejects.toBeInstanceOf(BackupError);
    const before = await snapshot(restoredApp);
    await expect(restoreBackup(restoredApp.ctx.database, damaged, { force: true })).rejects.toThrow(
      /checksum/,
    );
    expect(await snapshot(restoredApp)).toEqual(before);

    // Forced, it replaces everything with the backup's contents, and every user's data revision
    // goes past the largest before it: no list an instance cached outlives the data it came from.
    const newcomer = await signedInClient(restoredApp.app, "Newcomer");
    expect((await newcomer.post("/api/dashboards", { name: "Newcomer's" })).status).toBe(201);
    const largest = Math.max(...(await revisions(restoredApp)).map((r) => r.revision));
    await restoreBackup(restoredApp.ctx.database, file, { force: true });
    expect(await snapshot(restoredApp)).toEqual(await snapshot(built));
    const after = await revisions(restoredApp);
    expect(after.map((r) => r.user_id).sort()).toEqual(
      (await snapshot(built)).user!.map((u) => JSON.parse(u).id).sort(),
    );
    for (const { revision } of after) expect(revision).toBe(largest + 1);
  });
});

describe("a backup taken while the app writes (postgres)", () => {
  it("is one consistent moment: every widget's dashboard is in it, no dashboard half written", async () => {
    const mode = await prepareMode("postgres");
    try {
      const built = await mode.start({
        limits: { dashboards: 100_000, widgetsPerDashboard: 200, configBytes: 1 << 30, streams: 20 },
      });
      const client = await signedInClient(built.app, "Writer");
      const document = {
        format: "tessera.dashboard",
        version: 1,
        exportedAt: new Date().toISOString(),
        dashboard: { name: "Three" },
        widgets: [0, 1, 2].map((i) => ({
          widgetType: "Clock",
          height: 100,
          width: 100,
          positionX: i,
          positionY: 0,
          config: {},
        })),
      };
      let writing = true;
      let written = 0;
      // Each import writes a dashboard and its three widgets in one transaction.
      const writer = (async () => {
        while (writing) {
          expect((await client.post("/api/dashboards/import", document)).status).toBe(201);
          written++;
        }
      })();
      while (written < 5) await new Promise((resolve) => setImmediate(resolve));
      const { file } = await backupTo(built, "while-writing.ndjson");
      writing = false;
      await writer;

      const dashboards = new Set<string>();
      const widgetsOf = new Map<string, number>();
      let table = "";
      for (const line of readFileSync(file, "utf8").trim().split("\n")) {
        const value = JSON.parse(line);
        if (value.table) table = value.table;
        else if (value.r && table === "dashboards") dashboards.add(value.r.id);
        else if (value.r && table === "widgets")
          widgetsOf.set(value.r.dashboard_id, (widgetsOf.get(value.r.dashboard_id) ?? 0) + 1);
      }
      expect(dashboards.size).toBeGreaterThan(0);
      for (const [dashboardId, count] of widgetsOf) {
        expect(dashboards.has(dashboardId)).toBe(true);
        expect(count).toBe(3);
      }
      expect([...dashboards].every((id) => widgetsOf.get(id) === 3)).toBe(true);
    } finally {
      await mode.teardown();
    }
  });
});
