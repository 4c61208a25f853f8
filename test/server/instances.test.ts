import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { type BuiltApp, buildApp } from "../../src/server/app.js";
import { signedInClient, TestClient } from "../support/client.js";
import { testConfig } from "../support/config.js";
import { createPostgresDatabase } from "../support/services.js";

describe("several instances on one PostgreSQL", () => {
  const apps: BuiltApp[] = [];
  let drop: (() => Promise<void>) | null = null;
  afterAll(async () => {
    for (const app of apps) await app.close();
    await drop?.();
  });

  it("start at the same moment, apply migrations once, and both serve the same data", async () => {
    const database = await createPostgresDatabase();
    drop = database.drop;
    const config = testConfig({ databaseUrl: database.url });
    apps.push(...(await Promise.all([buildApp(config), buildApp(config), buildApp(config)])));

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query("SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations");
    const { rows: files } = await client.query(
      "SELECT count(DISTINCT hash)::int AS n FROM drizzle.__drizzle_migrations",
    );
    await client.end();
    expect(rows[0].n).toBeGreaterThan(0);
    expect(rows[0].n).toBe(files[0].n);

    const [one, two] = apps as [BuiltApp, BuiltApp];
    const onOne = await signedInClient(one.app, "Shared");
    const created = (await onOne.post("/api/dashboards", { name: "Seen everywhere" })).body;
    const onTwo = new TestClient(two.app);
    onTwo.cookie = onOne.cookie;
    const res = await onTwo.get(`/api/dashboards?id=${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body[0].name).toBe("Seen everywhere");
  });

  it("a sign-out on one instance ends the session on the others at once, despite their caches", async () => {
    const [one, two] = apps as [BuiltApp, BuiltApp];
    const user = await signedInClient(one.app, "Leaver");
    const elsewhere = new TestClient(two.app);
    elsewhere.cookie = user.cookie;
    expect((await elsewhere.get("/api/dashboards")).status).toBe(200); // cached on instance two
    expect((await user.post("/api/auth/sign-out", {})).status).toBe(200);
    // Revocation travels over the bus; allow it a moment to arrive.
    let status = 200;
    for (let i = 0; i < 20 && status === 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await elsewhere.get("/api/dashboards")).status;
    }
    expect(status).toBe(401);
  });
});
