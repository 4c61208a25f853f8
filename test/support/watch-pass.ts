import type { BuiltApp } from "../../src/server/app.js";
import { runWatchPass, type Watcher } from "../../src/server/jobs/watch/pass.js";

/**
 * One watch pass on `built`, as the queue's job runs it (tests set ALERTS_WATCH_SECONDS to 0);
 * `passBudgetMs` as a period's pass gets it (passBudgetFor), else the default.
 */
export async function watchPassOn(
  built: BuiltApp,
  watchers: readonly Watcher[],
  options: { passBudgetMs?: number } = {},
) {
  const { ctx } = built;
  const queue = await ctx.jobs.ensure();
  return runWatchPass(
    {
      database: ctx.database,
      queue,
      notifications: ctx.notifications,
      log: built.app.log,
      clock: ctx.clock,
      ...options,
    },
    watchers,
  );
}
