import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { type BuiltApp, buildApp } from "../../src/server/app.js";
import { signedInClient, TestClient } from "../support/client.js";
import { testConfig } from "../support/config.js";
import { alertQueueIdle, watchReminders } from "../support/reminders.js";
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

  // Here, on these three instances: two files each starting three instances at once on the shared
  // PostgreSQL time out connecting (seen without the job queue too), so they share this one.
  it("a reminder due on the shared queue fires exactly once across the instances", async () => {
    const [one] = apps as [BuiltApp];
    const client = await signedInClient(one.app, "Reminded");
    const watchers = await Promise.all(apps.map((a) => watchReminders(a, client.user!.id)));
    const dashboardId = (await client.post("/api/dashboards", { name: "Alerts" })).body.id;
    const count = 20;
    for (let i = 0; i < count; i++) {
      const target = new Date(Date.now() + 1500 + i * 20).toISOString();
      const res = await client.post("/api/widgets", {
        dashboardId,
        widgetType: "Countdown",
        height: 100,
        width: 100,
        positionX: 0,
        positionY: 0,
        config: { title: `R${i}`, target, notify: true },
      });
      expect(res.status, res.text).toBe(201);
    }
    // Every instance's bus sees every notification once (the fan-out), whichever instance fired it.
    await Promise.all(watchers.map((w) => w.until(count)));
    // Nothing left to run anywhere: a duplicate could no longer arrive.
    await alertQueueIdle(one);
    for (const w of watchers) {
      const messages = w.seen.map((e) => e.notification.message);
      expect(messages).toHaveLength(count);
      expect(new Set(messages).size).toBe(count);
    }
    const stored = (await client.get("/api/notifications")).body as { type: string }[];
    expect(stored.filter((n) => n.type === "reminder")).toHaveLength(count);
    for (const w of watchers) await w.stop();
  });
});
