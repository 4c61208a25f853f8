import type { StatusState } from "../../../contract/data.js";
import type { Notification } from "../../../contract/resources.js";
import { type StatusConfig, type StatusTarget, statusStateKey } from "../../../contract/widgets/status.js";
import type { Db } from "../../db/client.js";
import { mapBounded, type Probe, probe } from "../../status/probe.js";
import type { Upstream } from "../../upstream/upstream.js";
import { recordAlert } from "../record.js";
import type { WatchDeps, WatchedWidget, Watcher } from "./pass.js";
import { lockWatchStates } from "./states.js";

/** Checks in flight at once: a pass over many checks must not open hundreds of sockets. */
const CONCURRENCY = 8;

/** A target's memory between passes: its last check, and for which address (an edit starts over). */
export type StoredStatus = StatusState & { url: string };

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
  const next: StoredStatus = {
    url,
    up: check.up,
    httpStatus: check.httpStatus,
    latencyMs: check.latencyMs,
    checkedAt: at,
    changedAt: flipped ? at : before.changedAt,
    ...(check.error ? { error: check.error } : {}),
  };
  return { next, changed: same && flipped && known(before) && known(check) };
}

/** One address is probed once per pass; each check judges the answer by its own expectStatus. */
function judged(target: StatusTarget, found: Probe): Probe {
  if (target.expectStatus === undefined || found.httpStatus === null) return found;
  return { ...found, up: found.httpStatus === target.expectStatus };
}

function messageOf(target: StatusTarget, state: StoredStatus): string {
  if (state.up) return `${target.name} is back up`;
  if (state.httpStatus !== null) return `${target.name} is down (HTTP ${state.httpStatus})`;
  return `${target.name} is down (${state.error?.code === "timeout" ? "no answer" : "unreachable"})`;
}

/** The Status widgets' probes: each distinct address once per pass, however many widgets list it. */
export function statusCheckWatcher(upstream: Upstream): Watcher {
  return {
    type: "Status",
    async check(deps, watched) {
      const widgets = watched as WatchedWidget<StatusConfig>[];
      const urls = [...new Set(widgets.flatMap((w) => w.config.checks.map((t) => t.url)))];
      const probes = await mapBounded(urls, CONCURRENCY, (url) =>
        probe(upstream, url, () => performance.now()),
      );
      const byUrl = new Map(urls.map((url, i) => [url, probes[i]!]));
      const at = new Date(deps.clock()).toISOString();
      const fired: Notification[] = [];
      for (const widget of widgets) fired.push(...(await recordWidget(deps, widget, byUrl, at)));
      return fired;
    },
  };
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
      const key = statusStateKey(target.id);
      const { next, changed } = decideStatus(
        states.get(key),
        target.url,
        judged(target, probes.get(target.url)!),
        at,
      );
      await states.save(key, next);
      if (!changed || widget.config.notify !== true) continue;
      const notification = await recordAlert(tx, deps.queue, deps.notifications, {
        userId: widget.userId,
        widgetId: widget.id,
        key: `${widget.id}:${key}:${next.changedAt}:${next.up ? "up" : "down"}`,
        message: messageOf(target, next),
      });
      if (notification) fired.push(notification);
    }
    await states.keepOnly(widget.config.checks.map((t) => statusStateKey(t.id)));
    return fired;
  });
}
