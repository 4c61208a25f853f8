import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { TEST_ORIGIN } from "../support/config.js";
import { startServerProcess } from "../support/server-process.js";
import { createPostgresDatabase } from "../support/services.js";

/** A JSON call to a server process, with the session cookie once there is one. */
function caller(base: string) {
  let cookie = "";
  return {
    async call(method: string, path: string, body?: unknown) {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          origin: TEST_ORIGIN,
          ...(cookie ? { cookie } : {}),
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const session = res.headers.getSetCookie().find((c) => c.startsWith("session="));
      if (session) cookie = session.split(";")[0]!;
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    moveTo(next: string) {
      base = next;
    },
  };
}

/** Polls `read` (each call a query) until `done` holds; fails after `ms`. No fixed sleeps. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number, what: string) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe("a reminder's holder killed with kill -9 (PostgreSQL, two server processes)", () => {
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it("fires once, from the other instance, after the lease runs out", { timeout: 120_000 }, async () => {
    const database = await createPostgresDatabase();
    cleanups.push(database.drop);
    const sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    cleanups.push(() => sql.end());
    const env = { DATABASE_URL: database.url };

    const a = await startServerProcess(env);
    cleanups.push(() => a.child.kill("SIGKILL"));
    const api = caller(a.url);
    const signUp = await api.call("POST", "/api/auth/sign-up/email", {
      name: "Kay",
      email: `kay-${Date.now()}@example.test`,
      password: "kay-password-123",
    });
    expect(signUp.status).toBe(200);
    const dashboard = await api.call("POST", "/api/dashboards", { name: "Kill" });
    const widget = await api.call("POST", "/api/widgets", {
      dashboardId: dashboard.body.id,
      widgetType: "Countdown",
      height: 100,
      width: 100,
      positionX: 0,
      positionY: 0,
      config: { title: "Deploy", target: new Date(Date.now() + 2_000).toISOString(), notify: true },
    });
    expect(widget.status).toBe(201);
    const [{ job_id: jobId }] = (await sql.query("SELECT job_id FROM alert_jobs")).rows;

    // The test holds the widget's row: A takes the job when due and waits on the lock, holding it.
    const blocker = new pg.Client({ connectionString: database.url });
    await blocker.connect();
    cleanups.push(() => blocker.end());
    await blocker.query("BEGIN");
    await blocker.query("SELECT 1 FROM widgets WHERE id = $1 FOR UPDATE", [widget.body.id]);
    const state = async () =>
      (await sql.query("SELECT state FROM pgboss.job WHERE id = $1", [jobId])).rows[0]?.state;
    await until(state, (s) => s === "active", 30_000, "instance A to take the job");
    await until(
      async () =>
        (
          await sql.query(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
          )
        ).rows[0].n,
      (n) => n >= 1,
      30_000,
      "instance A to wait on the widget's lock",
    );

    a.child.kill("SIGKILL");
    await a.exited;
    await blocker.query("ROLLBACK");

    // B starts on the same database; its supervisor finds the job's lease run out and retries it.
    const b = await startServerProcess(env);
    cleanups.push(() => b.child.kill("SIGKILL"));
    api.moveTo(b.url);
    const reminders = async () =>
      ((await api.call("GET", "/api/notifications")).body as { type: string; message: string }[]).filter(
        (n) => n.type === "reminder",
      );
    // The lease (15 s) and one supervision pass (5 s) after A took it, with the retry's delay: ~20 s.
    // 50 s still tells it from pg-boss's 60 s monitor interval, which made this ~70 s.
    const fired = await until(reminders, (list) => list.length > 0, 50_000, "the reminder from instance B");
    expect(fired.map((n) => n.message)).toEqual(["🎉 Deploy has ended"]);
    await until(state, (s) => s === "completed", 30_000, "the job to complete");
    expect(await reminders()).toHaveLength(1);
    expect((await sql.query("SELECT count(*)::int AS n FROM alert_firings")).rows[0].n).toBe(1);
  });
});
