import { inArray } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Notification } from "../../../contract/resources.js";
import { widgetDefinition } from "../../../contract/widgets.js";
import type { Database } from "../../db/client.js";
import { widgets } from "../../db/schema.js";
import type { NotificationService } from "../../notifications/service.js";
import { type JobQueue, QUEUE_DEFAULTS } from "../queue.js";

/**
 * The watch pass (DESIGN section 11): alerts that depend on the world, not on an instant (a
 * price crossing a line, a meeting coming up, new mail), are checked by one periodic job on the
 * shared queue. Every instance asks for a pass each period; pg-boss keeps one job per period
 * (throttled by a singleton key) and runs one pass at a time across all instances (policy
 * `singleton`), so N instances cost the exchange and the providers what one does.
 */
export const WATCH_QUEUE = "watch";

/** A watched widget as a watcher gets it: its row and its parsed config. */
export interface WatchedWidget<C = unknown> {
  id: string;
  userId: string;
  config: C;
}

export interface WatchDeps {
  database: Database;
  queue: JobQueue;
  notifications: NotificationService;
  log: FastifyBaseLogger;
  clock: () => number;
}

/** One widget type's checks: records what fired (once each) and answers it for publishing. */
export interface Watcher {
  type: string;
  check(deps: WatchDeps, watched: WatchedWidget[]): Promise<Notification[]>;
}

/** One pass over every watched widget; answers how many widgets were checked and what fired. */
export async function runWatchPass(deps: WatchDeps, watchers: readonly Watcher[]) {
  const rows = await deps.database.db
    .select({ id: widgets.id, userId: widgets.userId, type: widgets.widgetType, config: widgets.config })
    .from(widgets)
    .where(
      inArray(
        widgets.widgetType,
        watchers.map((w) => w.type),
      ),
    );
  let checked = 0;
  const fired: Notification[] = [];
  for (const watcher of watchers) {
    const definition = widgetDefinition(watcher.type)!;
    const watched = rows
      .filter((row) => row.type === watcher.type)
      .map((row) => ({ id: row.id, userId: row.userId, config: definition.parse(row.config) }))
      .filter((widget) => definition.alerts?.watched?.(widget.config) === true);
    if (watched.length === 0) continue;
    checked += watched.length;
    try {
      fired.push(...(await watcher.check(deps, watched)));
    } catch (error) {
      // One kind failing (its upstream down) does not keep the others from their turn.
      deps.log.warn({ err: error, type: watcher.type }, "watch pass: a watcher failed");
    }
  }
  for (const notification of fired) await deps.notifications.publish(notification, deps.log);
  return { checked, fired };
}

/** Asks for this period's pass; pg-boss drops the request when another instance made it already. */
export function requestWatchPass(queue: JobQueue, periodSeconds: number): Promise<string | null> {
  return queue.boss.sendThrottled(WATCH_QUEUE, {}, null, periodSeconds, "pass");
}

/** The pass's queue and worker on this instance, and the timer that asks for a pass each period. */
export const watchWorker =
  (deps: Omit<WatchDeps, "queue">, watchers: readonly Watcher[], periodSeconds: number) =>
  async (queue: JobQueue) => {
    if (!(await queue.boss.getQueue(WATCH_QUEUE))) {
      await queue.boss.createQueue(WATCH_QUEUE, {
        ...QUEUE_DEFAULTS,
        policy: "singleton",
        // A pass is not retried: the next period's pass does the same work with fresher data.
        retryLimit: 0,
        // Upstream calls are bounded by their own timeouts; a holder killed mid-pass frees it after this.
        expireInSeconds: 120,
        deleteAfterSeconds: 3600,
      });
    }
    await queue.boss.work(WATCH_QUEUE, { pollingIntervalSeconds: 2 }, async () => {
      await runWatchPass({ ...deps, queue }, watchers);
    });
    if (periodSeconds === 0) return;
    const ask = () =>
      requestWatchPass(queue, periodSeconds).catch((error) =>
        deps.log.warn({ err: error }, "watch pass request failed"),
      );
    void ask();
    const timer = setInterval(ask, periodSeconds * 1000);
    timer.unref();
    return () => clearInterval(timer);
  };
