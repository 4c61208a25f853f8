import { inArray } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Notification } from "../../../contract/resources.js";
import { widgetDefinition } from "../../../widgets/index.js";
import type { Database } from "../../db/client.js";
import { widgets } from "../../db/schema.js";
import type { NotificationService } from "../../notifications/service.js";
import { type JobQueue, QUEUE_DEFAULTS } from "../queue.js";

/**
 * The watch pass (DESIGN section 11): alerts that depend on the world, not on an instant (a
 * price crossing a line, a meeting coming up, new mail), are checked by one periodic job on the
 * shared queue. Every instance asks for a pass each period; pg-boss keeps one job per period
 * (throttled by a singleton key) and runs one pass at a time across all instances (policy
 * `singleton`), so N instances cost the exchange and the providers what one does. A watcher may
 * name a queue of its own (the Status checks do): its passes then run beside the shared ones,
 * each queue one at a time across instances, and never wait for each other.
 */
export const WATCH_QUEUE = "watch";

/** A pass's time when the caller sets none: the default period's (30 s) less a margin. */
export const DEFAULT_PASS_BUDGET_MS = 24_000;
/** The longest pass, whatever the period: well within the job's lease (expireInSeconds, 120 s). */
const MAX_PASS_BUDGET_MS = 100_000;

/** How long a pass may take: most of its period, so the next period's pass starts on time. */
export const passBudgetFor = (periodSeconds: number) =>
  periodSeconds > 0 ? Math.min(periodSeconds * 800, MAX_PASS_BUDGET_MS) : DEFAULT_PASS_BUDGET_MS;

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
  /** How long the pass may take (passBudgetFor); a watcher calling addresses users typed keeps to it. */
  passBudgetMs?: number;
}

/** Sends notifications that committed to their users' streams. */
export type Publish = (fired: Notification[]) => Promise<void>;

/** One widget type's checks: records what fired (once each) and answers it for publishing. */
export interface Watcher {
  type: string;
  /** Its own queue (see WATCH_QUEUE); absent: the shared one. */
  queue?: string;
  /**
   * What it answers is published when it is done; what it hands `publish` earlier (one user's
   * changes, once recorded) goes out at once, without waiting for the rest of its work.
   */
  check(deps: WatchDeps, watched: WatchedWidget[], publish: Publish): Promise<Notification[]>;
}

/**
 * One pass over every widget the watchers watch; answers how many widgets were checked and what
 * fired. The watchers run side by side: one kind's slow upstream delays no other kind's alerts.
 */
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
  const publish: Publish = async (notifications) => {
    fired.push(...notifications);
    for (const notification of notifications) await deps.notifications.publish(notification, deps.log);
  };
  await Promise.all(
    watchers.map(async (watcher) => {
      const definition = widgetDefinition(watcher.type)!;
      const watched = rows
        .filter((row) => row.type === watcher.type)
        .map((row) => ({ id: row.id, userId: row.userId, config: definition.parse(row.config) }))
        .filter((widget) => definition.alerts?.watched?.(widget.config) === true);
      if (watched.length === 0) return;
      checked += watched.length;
      try {
        await publish(await watcher.check(deps, watched, publish));
      } catch (error) {
        // One kind failing (its upstream down) does not keep the others from their turn.
        deps.log.warn({ err: error, type: watcher.type }, "watch pass: a watcher failed");
      }
    }),
  );
  return { checked, fired };
}

/**
 * Asks for this period's pass on one watch queue; pg-boss drops the request when another instance
 * made it already.
 */
export function requestWatchPass(
  queue: JobQueue,
  periodSeconds: number,
  name = WATCH_QUEUE,
): Promise<string | null> {
  return queue.boss.sendThrottled(name, {}, null, periodSeconds, "pass");
}

/** The watchers by the queue whose pass runs them. */
function byQueue(watchers: readonly Watcher[]) {
  const queues = new Map<string, Watcher[]>();
  for (const watcher of watchers) {
    const name = watcher.queue ?? WATCH_QUEUE;
    queues.set(name, [...(queues.get(name) ?? []), watcher]);
  }
  return queues;
}

/** The passes' queues and workers on this instance, and the timer that asks for each pass each period. */
export const watchWorker =
  (deps: Omit<WatchDeps, "queue">, watchers: readonly Watcher[], periodSeconds: number) =>
  async (queue: JobQueue) => {
    const queues = byQueue(watchers);
    for (const [name, theirs] of queues) {
      if (!(await queue.boss.getQueue(name))) {
        await queue.boss.createQueue(name, {
          ...QUEUE_DEFAULTS,
          policy: "singleton",
          // A pass is not retried: the next period's pass does the same work with fresher data.
          retryLimit: 0,
          // Passes keep to their budget (passBudgetFor); a holder killed mid-pass frees it after this.
          expireInSeconds: 120,
          deleteAfterSeconds: 3600,
        });
      }
      await queue.boss.work(name, { pollingIntervalSeconds: 2 }, async () => {
        await runWatchPass({ ...deps, queue, passBudgetMs: passBudgetFor(periodSeconds) }, theirs);
      });
    }
    if (periodSeconds === 0) return;
    const ask = () => {
      for (const name of queues.keys())
        requestWatchPass(queue, periodSeconds, name).catch((error) =>
          deps.log.warn({ err: error, queue: name }, "watch pass request failed"),
        );
    };
    ask();
    const timer = setInterval(ask, periodSeconds * 1000);
    timer.unref();
    return () => clearInterval(timer);
  };
