import { randomUUID } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Notification } from "../../contract/resources.js";
import type { AlertRule } from "../../contract/widget-kit/define.js";
import { WIDGET_DEFINITIONS, widgetDefinition } from "../../widgets/index.js";
import { type ChangesListener, ServiceNeeded } from "../db/changes.js";
import type { Database, Db } from "../db/client.js";
import { alertJobs, widgets } from "../db/schema.js";
import { badRequest, unavailable } from "../http/errors.js";
import type { NotificationService } from "../notifications/service.js";
import type { Jobs } from "./jobs.js";
import { type JobQueue, QUEUE_DEFAULTS, SCHEMA } from "./queue.js";
import { recordAlert } from "./record.js";

/** The queue of time-based reminders (Countdown `notify`, Todo `dueAt`). */
export const ALERT_QUEUE = "alerts";

/** A job names the rule occurrence it was sent for; the handler re-reads everything else. */
export interface AlertJob {
  widgetId: string;
  key: string;
  at: string;
}

/** The once-only mark of one rule occurrence: the same rule at the same instant never fires twice. */
const firingKey = (job: AlertJob) => `${job.widgetId}:${job.key}:${job.at}`;

/**
 * How far in the past a reminder may be and still be scheduled (it then fires at once): a write
 * that waited for the queue to start, or a browser clock a little ahead, must not lose a reminder
 * set for "now". Older ones are not sent retroactively; one that already fired finds its mark.
 */
export const LATE_GRACE_MS = 60_000;

/** A widget's reminders still to send; null for types without alert rules. */
function futureRules(widgetType: string, config: unknown, now: number): AlertRule[] | null {
  const alerts = widgetDefinition(widgetType)?.alerts;
  if (!alerts) return null;
  return (alerts.rules?.(widgetDefinition(widgetType)!.parse(config)) ?? []).filter(
    (rule) => Date.parse(rule.at) > now - LATE_GRACE_MS,
  );
}

/**
 * The DashboardChanges listener that keeps each widget's pending jobs equal to what its config
 * asks for, inside the writing transaction: a job sent here exists only if the write commits, and
 * an edit or a delete cancels in the same commit. Rules unchanged by an edit keep their job.
 *
 * Reminders long past when the write happens (a countdown created with a past target, a to-do
 * saved after its due time) are not sent retroactively: only instants from LATE_GRACE_MS ago on.
 */
export function alertScheduler(jobs: Jobs, clock: () => number): ChangesListener {
  return async (tx, changes) => {
    const now = clock();
    let watched = false;
    // A restore puts back widgets as a version held them; they are not the client's input.
    const restoring = changes.some((c) => c.kind === "dashboard.updated" && c.restoredFrom !== undefined);
    const wanted = new Map<string, AlertRule[]>();
    for (const change of changes) {
      if (change.kind === "widget.created" || (change.kind === "widget.updated" && change.configChanged)) {
        const { widget } = change;
        const alerts = widgetDefinition(widget.widgetType)?.alerts;
        if (!alerts) continue;
        const issues = restoring ? [] : alerts.check(widget.config);
        if (issues.length > 0) {
          throw badRequest(
            "config has invalid alert settings",
            issues.map((issue) => ({ path: `/config${issue.path}`, message: issue.message })),
          );
        }
        wanted.set(widget.id, futureRules(widget.widgetType, widget.config, now)!);
        watched ||= alerts.watched?.(widgetDefinition(widget.widgetType)!.parse(widget.config)) === true;
      } else if (change.kind === "widget.deleted") {
        if (widgetDefinition(change.widget.widgetType)?.alerts) wanted.set(change.widget.id, []);
      } else if (change.kind === "dashboard.deleted") {
        for (const widget of change.widgets)
          if (widgetDefinition(widget.widgetType)?.alerts) wanted.set(widget.id, []);
      }
    }
    if (wanted.size === 0) return;
    // A watched widget needs the queue's periodic pass running; scheduled rules need the queue.
    if (watched) needQueue(jobs);
    await reconcile(tx, () => needQueue(jobs), wanted);
  };
}

/** The queue, or the write is retried once it has started (never started inside the transaction). */
function needQueue(jobs: Jobs): JobQueue {
  if (jobs.current) return jobs.current;
  throw new ServiceNeeded(
    jobs.ensure().catch(() => {
      throw unavailable("The job queue is not running, so reminders cannot be scheduled; try again", 5);
    }),
  );
}

async function reconcile(tx: Db, queueFor: () => JobQueue, wanted: Map<string, AlertRule[]>) {
  const pending = await tx
    .select()
    .from(alertJobs)
    .where(inArray(alertJobs.widgetId, [...wanted.keys()]));
  const cancel: string[] = [];
  const kept = new Set<string>();
  for (const job of pending) {
    const still = wanted
      .get(job.widgetId)
      ?.some((rule) => rule.key === job.ruleKey && Date.parse(rule.at) === job.dueAt.getTime());
    if (still) kept.add(`${job.widgetId}\u0000${job.ruleKey}\u0000${job.dueAt.getTime()}`);
    else cancel.push(job.jobId);
  }
  const send: { id: string; widgetId: string; rule: AlertRule }[] = [];
  for (const [widgetId, rules] of wanted) {
    for (const rule of rules) {
      if (!kept.has(`${widgetId}\u0000${rule.key}\u0000${Date.parse(rule.at)}`))
        send.push({ id: randomUUID(), widgetId, rule });
    }
  }
  if (cancel.length === 0 && send.length === 0) return;
  const queue = queueFor();
  const db = queue.in(tx);
  if (cancel.length > 0) {
    await queue.boss.cancel(ALERT_QUEUE, cancel, { db });
    await tx.delete(alertJobs).where(inArray(alertJobs.jobId, cancel));
  }
  if (send.length === 0) return;
  await queue.boss.insert(
    ALERT_QUEUE,
    send.map(({ id, widgetId, rule }) => ({
      id,
      data: { widgetId, key: rule.key, at: rule.at } satisfies AlertJob,
      startAfter: new Date(rule.at),
      priority: duePriority(rule.at),
    })),
    { db },
  );
  await tx.insert(alertJobs).values(
    send.map(({ id, widgetId, rule }) => ({
      jobId: id,
      widgetId,
      ruleKey: rule.key,
      dueAt: new Date(rule.at),
    })),
  );
}

const PRIORITY_EPOCH_MS = Date.UTC(2025, 0, 1);
const INT4_MAX = 2 ** 31 - 1;

/**
 * pg-boss fetches by priority, then by creation: without a priority, a backlog in a spike is
 * served in the order the reminders were *saved*, so whoever saved last waits longest. A priority
 * falling with the due second makes the backlog go earliest-due first (seconds since 2025 fit int4
 * until 2093).
 */
export function duePriority(at: string): number {
  const seconds = Math.floor((Date.parse(at) - PRIORITY_EPOCH_MS) / 1000);
  return Math.max(-INT4_MAX, Math.min(INT4_MAX, -seconds));
}

/**
 * The worker's settings: short polls, and whole batches back to back while a spike lasts. On
 * PostgreSQL several batches run at once (each firing is one short transaction on its own pooled
 * connection); the embedded database has one session, so more would only queue there.
 */
export const alertWork = (database: Database) =>
  ({
    batchSize: 10,
    pollingIntervalSeconds: 0.5,
    burstWhenBatchFull: true,
    localConcurrency: database.kind === "postgres" ? 4 : 1,
  }) as const;

/**
 * Fires one job: re-reads the widget (share-locked, so an edit in flight finishes first or waits), and
 * only if its config still asks for this rule at this instant, records the once-only mark and the
 * notification in one transaction, then publishes it to the user's streams on every instance.
 * A gone widget, a changed rule or a mark already there: nothing happens, and the job completes.
 */
export async function fireAlert(
  database: Database,
  queue: JobQueue,
  notifications: NotificationService,
  jobId: string,
  job: AlertJob,
  log: FastifyBaseLogger,
): Promise<Notification | null> {
  const delivered = await database.db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    await tx.delete(alertJobs).where(eq(alertJobs.jobId, jobId));
    // Shared: firings of one widget's rules run side by side; an edit (an UPDATE) waits for them.
    const [widget] = await tx.select().from(widgets).where(eq(widgets.id, job.widgetId)).for("share");
    if (!widget) return null;
    const rule = widgetDefinition(widget.widgetType)
      ?.alerts?.rules?.(widgetDefinition(widget.widgetType)!.parse(widget.config))
      ?.find((r) => r.key === job.key && r.at === job.at);
    if (!rule) return null;
    return recordAlert(tx, queue, notifications, {
      userId: widget.userId,
      widgetId: widget.id,
      key: firingKey(job),
      text: rule.text,
    });
  });
  if (delivered) await notifications.publish(delivered, log);
  return delivered;
}

// Fixed, like the queue's start lock: instances starting together resync one after the other.
const RESYNC_LOCK_KEY = 0x7e55a1e7;

/**
 * Makes the pending jobs match every widget's rules again, when the queue starts: a restored
 * backup brings `alert_jobs` rows whose jobs lived in another database's queue (the queue's own
 * schema is not in backups), and a job can end without firing (its retries used up). Rows without
 * a waiting job are dropped, then each widget's rules are reconciled as an edit would.
 */
export async function resyncAlerts(database: Database, queue: JobQueue, clock: () => number) {
  const types = WIDGET_DEFINITIONS.filter((d) => d.alerts?.rules).map((d) => d.type);
  await database.db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    if (database.kind === "postgres") await tx.execute(sql`SELECT pg_advisory_xact_lock(${RESYNC_LOCK_KEY})`);
    await tx.execute(sql`
      DELETE FROM alert_jobs a WHERE NOT EXISTS (
        SELECT 1 FROM ${sql.raw(SCHEMA)}.job j
        WHERE j.id = a.job_id AND j.name = ${ALERT_QUEUE} AND j.state IN ('created', 'retry', 'active'))`);
    const rows = await tx
      .select({ id: widgets.id, type: widgets.widgetType, config: widgets.config })
      .from(widgets)
      .where(inArray(widgets.widgetType, types));
    const now = clock();
    const wanted = new Map<string, AlertRule[]>();
    for (const row of rows) {
      const rules = futureRules(row.type, row.config, now);
      if (rules?.length) wanted.set(row.id, rules);
    }
    if (wanted.size > 0) await reconcile(tx, () => queue, wanted);
  });
}

/** Whether an embedded instance has alert work at boot: jobs pending, or a widget watched. */
export async function alertsPending(db: Db): Promise<boolean> {
  const [job] = await db.select({ id: alertJobs.jobId }).from(alertJobs).limit(1);
  if (job) return true;
  const types = WIDGET_DEFINITIONS.filter((d) => d.alerts?.watched).map((d) => d.type);
  const candidates = await db
    .select({ type: widgets.widgetType, config: widgets.config })
    .from(widgets)
    .where(inArray(widgets.widgetType, types));
  return candidates.some(({ type, config }) => {
    const definition = widgetDefinition(type)!;
    return definition.alerts!.watched!(definition.parse(config)) === true;
  });
}

/** Creates the queue (idempotent) and starts this instance's worker on it, when the queue starts. */
export const alertWorker =
  (database: Database, notifications: NotificationService, log: FastifyBaseLogger, clock: () => number) =>
  async (queue: JobQueue) => {
    if (!(await queue.boss.getQueue(ALERT_QUEUE))) await queue.boss.createQueue(ALERT_QUEUE, QUEUE_DEFAULTS);
    await resyncAlerts(database, queue, clock);
    await queue.boss.work<AlertJob>(ALERT_QUEUE, alertWork(database), async (jobs) => {
      // One at a time: each is one short transaction, and a failure retries only what is left
      // (those already fired find their mark and complete).
      for (const job of jobs) await fireAlert(database, queue, notifications, job.id, job.data, log);
    });
  };
