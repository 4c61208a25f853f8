import { sql } from "drizzle-orm";
import type { AppContext } from "../context.js";
import type { EventBus } from "../realtime/bus.js";
import type { Metrics } from "./metrics.js";

/**
 * What the app itself tells Prometheus beyond requests: database waits and the job queue, read at
 * each scrape (nothing is polled between scrapes).
 */
export function watchAppGauges(ctx: AppContext, metrics: Metrics) {
  const { database } = ctx;
  metrics.gauge(
    "tessera_database_waiting",
    "Queries waiting: for a pooled connection (PostgreSQL), or sent to the embedded engine's thread and not answered",
    () => database.pool?.waitingCount ?? database.embedded?.inFlight() ?? 0,
  );
  // The queue's own tables, read only once this instance runs the queue (embedded: when alerts exist).
  const queueRows = async () => {
    if (!ctx.jobs.current) return [];
    const result = (await database.db.execute(sql`
      SELECT name,
             count(*) FILTER (WHERE state IN ('created', 'retry'))::int AS queued,
             coalesce(extract(epoch FROM max(now() - start_after)
               FILTER (WHERE state IN ('created', 'retry') AND start_after <= now())), 0)::float8 AS late
      FROM pgboss.job GROUP BY name`)) as unknown as {
      rows: { name: string; queued: number; late: number }[];
    };
    return result.rows;
  };
  metrics.labelledGauge(
    "tessera_jobs_queued",
    "Jobs waiting in the shared queue, by queue",
    "queue",
    async () => (await queueRows()).map((row) => ({ label: row.name, value: row.queued })),
  );
  metrics.labelledGauge(
    "tessera_jobs_lateness_seconds",
    "How long the oldest job that is due has waited to start, by queue",
    "queue",
    async () => (await queueRows()).map((row) => ({ label: row.name, value: Number(row.late) })),
  );
}

/** The bus, counting what this instance publishes. */
export function countingBus(bus: EventBus, metrics: Metrics): EventBus {
  return {
    ...bus,
    publish(channel, message) {
      metrics.eventPublished(message.event);
      return bus.publish(channel, message);
    },
    subscribe: (channel, listener) => bus.subscribe(channel, listener),
    onResync: bus.onResync ? (callback) => bus.onResync!(callback) : undefined,
    close: () => bus.close(),
  };
}
