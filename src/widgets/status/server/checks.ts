import { and, eq, like } from "drizzle-orm";
import type { Notification } from "../../../contract/resources.js";
import { type ServerText, serverText } from "../../../contract/server-text.js";
import type { Db } from "../../../server/db/client.js";
import { alertWatchStates, widgets as widgetRows } from "../../../server/db/schema.js";
import { recordAlert } from "../../../server/jobs/record.js";
import {
  DEFAULT_PASS_BUDGET_MS,
  type WatchDeps,
  type WatchedWidget,
  type Watcher,
} from "../../../server/jobs/watch/pass.js";
import { lockWatchStates } from "../../../server/jobs/watch/states.js";
import type { Upstream } from "../../../server/upstream/upstream.js";
import { type Probe, probe, STATUS_TIMEOUT_MS } from "../../../server/widgets/status-checks/probe.js";
import type { StoredStatus } from "../../../server/widgets/status-checks/stored.js";
import { type StatusConfig, type StatusTarget, statusStateKey } from "../contract.js";
import { runFairly } from "./fair-pool.js";

/**
 * The Status checks' own pass (one job per period across instances, like the shared one): they
 * call addresses users typed, so however long a pass of them takes, price alerts, meeting
 * reminders and new mail never wait for it.
 */
export const STATUS_QUEUE = "watch-status";

/** Checks in flight at once, every user's together: a pass must not open hundreds of sockets. */
const CONCURRENCY = 16;
/** One user's checks in flight at once: the rest of their addresses wait behind them, not others'. */
export const PER_USER = 4;
/** The time one user's checks may take together in one pass; what did not fit is first next pass. */
const USER_BUDGET_MS = 20_000;
/** Timeouts in a row after which a target is checked less often (it cannot eat every pass). */
const BACKOFF_AFTER = 2;
const BACKOFF_FIRST_MS = 60_000;
const BACKOFF_MAX_MS = 10 * 60_000;

export type { StoredStatus };

/**
 * When a target is due again: at once, unless it timed out BACKOFF_AFTER times in a row; then a
 * minute after its last check, doubling with each further timeout, up to ten minutes.
 */
export function nextCheckAt(state: StoredStatus): number {
  const timeouts = state.timeouts ?? 0;
  if (timeouts < BACKOFF_AFTER) return Number.NEGATIVE_INFINITY;
  const wait = Math.min(BACKOFF_FIRST_MS * 2 ** (timeouts - BACKOFF_AFTER), BACKOFF_MAX_MS);
  return Date.parse(state.checkedAt) + wait;
}

/** Whether a check says something about the target itself (a refusal by our guard does not). */
const known = (state: { error?: { code: string } }) => state.error?.code !== "address_not_allowed";

/**
 * What a pass decides for one target from its last state and a new check: the next state
 * (`changedAt` moves only when up/down flips) and whether that flip is worth a notification.
 * The first check, an edited address and our own refusals never notify: only a change the
 * target made.
 */
export function decideStatus(
  before: StoredStatus | undefined,
  url: string,
  check: Probe,
  at: string,
): { next: StoredStatus; changed: boolean } {
  const same = before !== undefined && before.url === url;
  const flipped = !same || before.up !== check.up || known(before) !== known(check);
  const timeouts = check.error?.code === "timeout" ? (same ? (before.timeouts ?? 0) : 0) + 1 : 0;
  const next: StoredStatus = {
    url,
    up: check.up,
    httpStatus: check.httpStatus,
    latencyMs: check.latencyMs,
    checkedAt: at,
    changedAt: flipped ? at : before.changedAt,
    ...(check.error ? { error: check.error } : {}),
    ...(timeouts > 0 ? { timeouts } : {}),
  };
  return { next, changed: same && flipped && known(before) && known(check) };
}

/** One address is probed once per pass; each check judges the answer by its own expectStatus. */
function judged(target: StatusTarget, found: Probe): Probe {
  if (target.expectStatus === undefined || found.httpStatus === null) return found;
  return { ...found, up: found.httpStatus === target.expectStatus };
}

function textOf(target: StatusTarget, state: StoredStatus): ServerText {
  const name = target.name;
  if (state.up) return serverText("alerts.status.up", { name });
  if (state.httpStatus !== null)
    return serverText("alerts.status.downHttp", { name, status: state.httpStatus });
  return state.error?.code === "timeout"
    ? serverText("alerts.status.downTimeout", { name })
    : serverText("alerts.status.downUnreachable", { name });
}

/**
 * The Status widgets' probes. Each distinct address is requested once per pass, however many
 * widgets list it, and no user's addresses hold up another user's (issue 29): the pass shares
 * its slots fairly between users (runFairly), each user at most PER_USER at once and
 * USER_BUDGET_MS in all; nothing starts that could not finish within the pass's budget; a user's
 * widgets are recorded, and their changes published, as soon as that user's checks are done; and
 * an address that keeps timing out is checked less often (nextCheckAt). What a pass leaves out
 * keeps its last state and goes first next pass (the longest unchecked first).
 */
export function statusCheckWatcher(upstream: Upstream): Watcher {
  return {
    type: "Status",
    queue: STATUS_QUEUE,
    async check(deps, watched, publish) {
      const widgets = watched as WatchedWidget<StatusConfig>[];
      const stored = await storedStates(deps);
      const now = deps.clock();
      // Per user: their widgets, and each address they list that is due, with when it was last
      // checked (never: -Infinity, first in line).
      const users = new Map<string, { widgets: WatchedWidget<StatusConfig>[]; due: Map<string, number> }>();
      for (const widget of widgets) {
        const user = users.get(widget.userId) ?? { widgets: [], due: new Map<string, number>() };
        users.set(widget.userId, user);
        user.widgets.push(widget);
        for (const target of widget.config.checks) {
          const state = stored.get(widget.id)?.get(statusStateKey(target.id));
          const current = state?.url === target.url ? state : undefined;
          if (current && nextCheckAt(current) > now) continue;
          const last = current ? Date.parse(current.checkedAt) : Number.NEGATIVE_INFINITY;
          user.due.set(target.url, Math.min(user.due.get(target.url) ?? last, last));
        }
      }
      const earlier = (a: number, b: number) => (a === b ? 0 : a - b);
      const queues = [...users]
        .filter(([, user]) => user.due.size > 0)
        .map(([userId, user]) => {
          const due = [...user.due].sort((a, b) => earlier(a[1], b[1]));
          return { userId, urls: due.map(([url]) => url), oldest: due[0]![1] };
        })
        // The user kept waiting longest goes first when the pass cannot serve everyone.
        .sort((a, b) => earlier(a.oldest, b.oldest));
      const groups = new Map(queues.map((q) => [q.userId, q.urls]));

      const budgetMs = deps.passBudgetMs ?? DEFAULT_PASS_BUDGET_MS;
      // Half the pass at most: checks can still start in its first half, each with its full wait.
      const timeoutMs = Math.min(STATUS_TIMEOUT_MS, Math.floor(budgetMs / 2));
      const clock = () => performance.now();
      const checks = new Map<string, Promise<Probe>>();
      const found = new Map<string, Probe>();
      const check = (url: string) => {
        let running = checks.get(url);
        if (!running) {
          running = probe(upstream, url, clock, timeoutMs).then((result) => {
            found.set(url, result);
            return result;
          });
          checks.set(url, running);
        }
        return running;
      };
      const recordUser = async (userId: string) => {
        const at = new Date(deps.clock()).toISOString();
        for (const widget of users.get(userId)!.widgets) {
          if (!widget.config.checks.some((t) => found.has(t.url))) continue;
          try {
            await publish(await recordWidget(deps, widget, found, at));
          } catch (error) {
            deps.log.warn({ err: error, widgetId: widget.id }, "status checks: could not record a widget");
          }
        }
      };
      // One user's recording at a time: a pass must not take every database connection at once.
      let recording = Promise.resolve();
      const record = (userId: string) => {
        recording = recording.then(() => recordUser(userId));
        return recording;
      };
      await runFairly(
        groups,
        {
          concurrency: CONCURRENCY,
          perOwner: PER_USER,
          ownerBudgetMs: Math.min(USER_BUDGET_MS, budgetMs),
          deadline: clock() + budgetMs,
          taskMs: timeoutMs,
          now: clock,
        },
        check,
        record,
      );
      return [];
    },
  };
}

/** Every Status target's stored state, by widget and key: which are due, and which waited longest. */
async function storedStates(deps: WatchDeps) {
  const rows = await deps.database.db
    .select({ widgetId: alertWatchStates.widgetId, key: alertWatchStates.key, state: alertWatchStates.state })
    .from(alertWatchStates)
    .innerJoin(widgetRows, eq(widgetRows.id, alertWatchStates.widgetId))
    .where(and(eq(widgetRows.widgetType, "Status"), like(alertWatchStates.key, "status:%")));
  const byWidget = new Map<string, Map<string, StoredStatus>>();
  for (const row of rows) {
    const states = byWidget.get(row.widgetId) ?? new Map<string, StoredStatus>();
    states.set(row.key, row.state as StoredStatus);
    byWidget.set(row.widgetId, states);
  }
  return byWidget;
}

/** One widget's checks in one transaction, their state rows locked: a concurrent pass waits. */
async function recordWidget(
  deps: WatchDeps,
  widget: WatchedWidget<StatusConfig>,
  probes: Map<string, Probe>,
  at: string,
): Promise<Notification[]> {
  return deps.database.db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const states = await lockWatchStates<StoredStatus>(tx, widget.id, "status:", deps.clock);
    const fired: Notification[] = [];
    for (const target of widget.config.checks) {
      const found = probes.get(target.url);
      // Not checked in this pass (backed off, or no room left): it keeps its last state.
      if (!found) continue;
      const key = statusStateKey(target.id);
      const { next, changed } = decideStatus(states.get(key), target.url, judged(target, found), at);
      await states.save(key, next);
      if (!changed || widget.config.notify !== true) continue;
      const notification = await recordAlert(tx, deps.queue, deps.notifications, {
        userId: widget.userId,
        widgetId: widget.id,
        key: `${widget.id}:${key}:${next.changedAt}:${next.up ? "up" : "down"}`,
        text: textOf(target, next),
      });
      if (notification) fired.push(notification);
    }
    await states.keepOnly(widget.config.checks.map((t) => statusStateKey(t.id)));
    return fired;
  });
}
