import { sql } from "drizzle-orm";
import { NOTIFICATION_CREATED, userChannel } from "../../src/contract/notifications.js";
import type { Notification } from "../../src/contract/resources.js";
import type { BuiltApp } from "../../src/server/app.js";

/** Every reminder event the user's channel carries on `built`, as it arrives, with its arrival time. */
export async function watchReminders(built: BuiltApp, userId: string) {
  const seen: { notification: Notification; at: number }[] = [];
  const waiters: (() => void)[] = [];
  const stop = await built.ctx.bus.subscribe(userChannel(userId), (message) => {
    if (message.event !== NOTIFICATION_CREATED) return;
    seen.push({ notification: message.data as Notification, at: Date.now() });
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    seen,
    stop,
    /** Resolves when `count` events have arrived; fails after `ms`. */
    async until(count: number, ms = 10_000) {
      const deadline = Date.now() + ms;
      while (seen.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`waited ${ms} ms for ${count} reminder(s), saw ${seen.length}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
  };
}

/**
 * Resolves once no reminder job is waiting, running or due for a retry on the shared queue, so a
 * test can assert that nothing more will fire (instead of sleeping and hoping).
 */
export async function alertQueueIdle(built: BuiltApp, ms = 15_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const result = (await built.ctx.database.db.execute(
      sql`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'alerts' AND state IN ('created', 'retry', 'active') AND start_after <= now()`,
    )) as unknown as { rows: { n: number }[] };
    if (result.rows[0]!.n === 0) return;
    if (Date.now() > deadline)
      throw new Error(`the alert queue still had ${result.rows[0]!.n} job(s) after ${ms} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The reminders in the user's notification list (the store, not the stream). */
export async function listedReminders(client: { get(path: string): Promise<{ body: unknown }> }) {
  return ((await client.get("/api/notifications")).body as Notification[])
    .filter((n) => n.type === "reminder")
    .map((n) => n.message);
}
