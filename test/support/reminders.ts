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
