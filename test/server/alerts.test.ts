import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { signedInClient, TestClient } from "../support/client.js";
import { MODES, type ModeEnv, type ModeName, prepareMode } from "../support/modes.js";
import { alertQueueIdle, listedReminders, watchReminders as watch } from "../support/reminders.js";

const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

async function dashboardOf(client: TestClient) {
  const res = await client.post("/api/dashboards", { name: "Alerts" });
  if (res.status !== 201) throw new Error(`dashboard: ${res.status} ${res.text}`);
  return res.body.id as string;
}

function countdown(dashboardId: string, config: Record<string, unknown>) {
  return {
    dashboardId,
    widgetType: "Countdown",
    height: 100,
    width: 100,
    positionX: 0,
    positionY: 0,
    config,
  };
}

/** How long the queue may take past a due time: its poll (0.5 s) plus a loaded CI machine. */
const SLACK_MS = 4000;

for (const mode of MODES as ModeName[]) {
  describe(`server-side reminders (${mode})`, () => {
    let env: ModeEnv;
    let built: BuiltApp;
    beforeAll(async () => {
      env = await prepareMode(mode);
      built = await env.start();
    });
    afterAll(async () => env.teardown());

    it("a countdown with notify fires once, at its target, on the realtime stream and in the list", async () => {
      const client = await signedInClient(built.app);
      const events = await watch(built, client.user!.id);
      const dashboardId = await dashboardOf(client);
      const target = inMs(1500);
      const res = await client.post(
        "/api/widgets",
        countdown(dashboardId, { title: "Tea", emoji: "🍵", target, notify: true }),
      );
      expect(res.status).toBe(201);
      await events.until(1);
      const late = events.seen[0]!.at - Date.parse(target);
      expect(late).toBeGreaterThanOrEqual(0);
      expect(late).toBeLessThan(SLACK_MS);
      console.log(`[${mode}] countdown reminder lateness: ${late} ms`);
      expect(events.seen[0]!.notification).toMatchObject({ type: "reminder", message: "🍵 Tea has ended" });
      // Nothing more can arrive once the queue has nothing left to run.
      await alertQueueIdle(built);
      expect(await listedReminders(client)).toEqual(["🍵 Tea has ended"]);
      await events.stop();
    });

    it("editing the target moves the reminder; turning notify off or deleting cancels it", async () => {
      const client = await signedInClient(built.app);
      const events = await watch(built, client.user!.id);
      const dashboardId = await dashboardOf(client);
      const moved = (
        await client.post(
          "/api/widgets",
          countdown(dashboardId, { title: "Moved", target: inMs(1200), notify: true }),
        )
      ).body;
      const off = (
        await client.post(
          "/api/widgets",
          countdown(dashboardId, { title: "Off", target: inMs(1200), notify: true }),
        )
      ).body;
      const gone = (
        await client.post(
          "/api/widgets",
          countdown(dashboardId, { title: "Gone", target: inMs(1200), notify: true }),
        )
      ).body;
      const newTarget = inMs(2500);
      expect(
        (
          await client.put("/api/widgets", {
            id: moved.id,
            config: { title: "Moved", target: newTarget, notify: true },
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await client.put("/api/widgets", {
            id: off.id,
            config: { title: "Off", target: off.config.target },
          })
        ).status,
      ).toBe(200);
      expect((await client.delete(`/api/widgets?id=${gone.id}`)).status).toBe(200);
      await events.until(1);
      expect(events.seen[0]!.notification.message).toBe("🎉 Moved has ended");
      expect(events.seen[0]!.at).toBeGreaterThanOrEqual(Date.parse(newTarget));
      await alertQueueIdle(built);
      expect(await listedReminders(client)).toEqual(["🎉 Moved has ended"]);
      await events.stop();
    });

    it("deleting the dashboard cancels its widgets' reminders; a past target is not fired", async () => {
      const client = await signedInClient(built.app);
      const events = await watch(built, client.user!.id);
      const doomed = await dashboardOf(client);
      await client.post(
        "/api/widgets",
        countdown(doomed, { title: "Doomed", target: inMs(1000), notify: true }),
      );
      expect((await client.delete(`/api/dashboards?id=${doomed}`)).status).toBe(200);
      const kept = await dashboardOf(client);
      await client.post(
        "/api/widgets",
        countdown(kept, { title: "Past", target: inMs(-5 * 60_000), notify: true }),
      );
      await client.post(
        "/api/widgets",
        countdown(kept, { title: "Marker", target: inMs(1800), notify: true }),
      );
      await events.until(1);
      await alertQueueIdle(built);
      expect(await listedReminders(client)).toEqual(["🎉 Marker has ended"]);
      await events.stop();
    });

    it("a reminder set for a moment ago (within a minute) fires at once; an older one never", async () => {
      const client = await signedInClient(built.app);
      const events = await watch(built, client.user!.id);
      const dashboardId = await dashboardOf(client);
      await client.post(
        "/api/widgets",
        countdown(dashboardId, { title: "Old", target: inMs(-5 * 60_000), notify: true }),
      );
      await client.post(
        "/api/widgets",
        countdown(dashboardId, { title: "Just now", target: inMs(-10_000), notify: true }),
      );
      await events.until(1);
      await alertQueueIdle(built);
      expect(await listedReminders(client)).toEqual(["🎉 Just now has ended"]);
      await events.stop();
    });

    if (mode !== "embedded") {
      it("three instances fire each of 15 reminders exactly once", async () => {
        const others = [await env.start(), await env.start()];
        await Promise.all(others.map((b) => b.ctx.jobs.ensure()));
        const client = await signedInClient(built.app);
        const events = await watch(built, client.user!.id);
        const dashboardId = await dashboardOf(client);
        const titles = Array.from({ length: 15 }, (_, i) => `Three${i}`);
        for (const [i, title] of titles.entries()) {
          const res = await client.post(
            "/api/widgets",
            countdown(dashboardId, { title, target: inMs(1500 + i * 10), notify: true }),
          );
          expect(res.status).toBe(201);
        }
        await events.until(titles.length);
        await Promise.all([built, ...others].map((b) => alertQueueIdle(b)));
        expect((await listedReminders(client)).sort()).toEqual(titles.map((t) => `🎉 ${t} has ended`).sort());
        await events.stop();
      });

      it("a restart reschedules reminders whose jobs were lost (a restored backup has no queue)", async () => {
        const client = await signedInClient(built.app);
        const dashboardId = await dashboardOf(client);
        const widget = (
          await client.post(
            "/api/widgets",
            countdown(dashboardId, { title: "Far", target: inMs(3_600_000), notify: true }),
          )
        ).body;
        const db = built.ctx.database.db;
        const pending = async () =>
          (
            (await db.execute(
              sql`SELECT a.job_id, j.state FROM alert_jobs a LEFT JOIN pgboss.job j ON j.id = a.job_id WHERE a.widget_id = ${widget.id}`,
            )) as unknown as { rows: { job_id: string; state: string | null }[] }
          ).rows;
        const [before] = await pending();
        expect(before!.state).toBe("created");
        // As after restoring a backup into an empty database: the row is there, its job is not.
        await db.execute(sql`DELETE FROM pgboss.job WHERE id = ${before!.job_id}`);
        const restarted = await env.start();
        await restarted.ctx.jobs.ensure();
        const after = await pending();
        expect(after).toHaveLength(1);
        expect(after[0]!.job_id).not.toBe(before!.job_id);
        expect(after[0]!.state).toBe("created");
      });
    }

    it("a to-do's dueAt fires once unless it is done", async () => {
      const client = await signedInClient(built.app);
      const events = await watch(built, client.user!.id);
      const dashboardId = await dashboardOf(client);
      const due = inMs(1500);
      const res = await client.post("/api/widgets", {
        dashboardId,
        widgetType: "Todo",
        height: 100,
        width: 100,
        positionX: 0,
        positionY: 0,
        config: {
          todos: [
            { id: "a", text: "Call the plumber", done: false, dueAt: due },
            { id: "b", text: "Already done", done: true, dueAt: due },
          ],
        },
      });
      expect(res.status).toBe(201);
      await events.until(1);
      expect(events.seen[0]!.notification).toMatchObject({
        type: "reminder",
        message: "Due: Call the plumber",
      });
      expect(events.seen[0]!.at).toBeGreaterThanOrEqual(Date.parse(due));
      await alertQueueIdle(built);
      expect(await listedReminders(client)).toEqual(["Due: Call the plumber"]);
      await events.stop();
    });

    it("writes each reminder in its person's language: the one chosen in settings, else their browser's", async () => {
      const client = new TestClient(built.app);
      await client.trySignUp("Grete", undefined, { acceptLanguage: "de-AT,de;q=0.9,en;q=0.5" });
      const events = await watch(built, client.user!.id);
      const dashboardId = await dashboardOf(client);
      const first = await client.post(
        "/api/widgets",
        countdown(dashboardId, { title: "Tee", emoji: "🍵", target: inMs(1000), notify: true }),
      );
      expect(first.status).toBe(201);
      await events.until(1);
      expect(events.seen[0]!.notification.message).toBe("🍵 Tee ist abgelaufen");

      // A language chosen in settings wins over the browser's; untitled parts are translated too.
      const [settings] = (await client.get("/api/settings")).body;
      expect((await client.put("/api/settings", { id: settings.id, config: { locale: "fr" } })).status).toBe(
        200,
      );
      const second = await client.post(
        "/api/widgets",
        countdown(dashboardId, { emoji: "🍵", target: inMs(1000), notify: true }),
      );
      expect(second.status).toBe(201);
      await events.until(2);
      expect(events.seen[1]!.notification.message).toBe("🍵 Compte à rebours : c'est terminé");
      await alertQueueIdle(built);
      expect(await listedReminders(client)).toEqual([
        "🍵 Compte à rebours : c'est terminé",
        "🍵 Tee ist abgelaufen",
      ]);
      await events.stop();
    });

    it("bad alert keys are refused with 400 validation_failed and nothing is written", async () => {
      const client = await signedInClient(built.app);
      const dashboardId = await dashboardOf(client);
      const bad = await client.post(
        "/api/widgets",
        countdown(dashboardId, { target: inMs(60_000), notify: "yes" }),
      );
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ code: "validation_failed", errors: [{ path: "/config/notify" }] });
      const todo = await client.post("/api/widgets", {
        dashboardId,
        widgetType: "Todo",
        height: 1,
        width: 1,
        positionX: 0,
        positionY: 0,
        config: { todos: [{ id: "a", text: "x", dueAt: 12 }] },
      });
      expect(todo.status).toBe(400);
      expect(todo.body.errors).toEqual([{ path: "/config/todos/0/dueAt", message: expect.any(String) }]);
      const ok = (await client.post("/api/widgets", countdown(dashboardId, { title: "ok" }))).body;
      const put = await client.put("/api/widgets", { id: ok.id, config: { notify: 1 } });
      expect(put.status).toBe(400);
      expect((await client.get(`/api/widgets?dashboardId=${dashboardId}`)).body).toHaveLength(1);
    });
  });
}
