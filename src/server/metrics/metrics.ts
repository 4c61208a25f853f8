import type { Registry } from "prom-client";
import type { UpstreamCall } from "../upstream/upstream.js";

/**
 * What an instance tells Prometheus (DESIGN section 17), one registry per app so instances side by
 * side in a test each count their own. Exists only when METRICS_TOKEN is set: prom-client is then
 * loaded, and requests are timed; without it nothing is loaded or timed.
 */
export interface Metrics {
  readonly registry: Registry;
  /** One answered request: its method, route template (never the raw URL), status and seconds. */
  requestAnswered(method: string, route: string, status: number, seconds: number): void;
  /** One answer of a cached upstream source (upstream/upstream.ts). */
  upstreamAnswered(call: UpstreamCall): void;
  /** A gauge read at each scrape (open realtime streams, ...). */
  gauge(name: string, help: string, read: () => number): void;
  /** A gauge with labels, read at each scrape, possibly from the database (job queue depth). */
  labelledGauge(
    name: string,
    help: string,
    label: string,
    read: () => Promise<readonly { label: string; value: number }[]>,
  ): void;
  /** One event published on the bus, by its name (notification.created, dashboard.updated...). */
  eventPublished(event: string): void;
  /** One event written to a realtime stream, by its name. */
  eventDelivered(event: string): void;
}

/** Request durations: most answers take milliseconds; slow upstream calls reach seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export async function createMetrics(): Promise<Metrics> {
  const loaded = await import("prom-client");
  // Bundled (dist/), the CommonJS module arrives as the namespace's default; from source, as names.
  const client = "Registry" in loaded ? loaded : (loaded as unknown as { default: typeof loaded }).default;
  const registry = new client.Registry();
  // Process memory and CPU, event-loop lag, GC, handles: prom-client's own set.
  client.collectDefaultMetrics({ register: registry });
  const durations = new client.Histogram({
    name: "http_request_duration_seconds",
    help: "Time to answer a request, by method, route template and status",
    labelNames: ["method", "route", "status_code"] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const upstreamCalls = new client.Counter({
    name: "tessera_upstream_answers_total",
    help: "Answers of outside services as widgets got them, by source, outcome (ok, stale, error) and cache (hit, miss)",
    labelNames: ["source", "outcome", "cache"] as const,
    registers: [registry],
  });
  const published = new client.Counter({
    name: "tessera_events_published_total",
    help: "Events this instance published on the realtime bus, by event",
    labelNames: ["event"] as const,
    registers: [registry],
  });
  const delivered = new client.Counter({
    name: "tessera_events_delivered_total",
    help: "Events this instance wrote to open realtime streams, by event",
    labelNames: ["event"] as const,
    registers: [registry],
  });
  return {
    registry,
    upstreamAnswered: (call) => upstreamCalls.inc(call),
    eventPublished: (event) => published.inc({ event }),
    eventDelivered: (event) => delivered.inc({ event }),
    requestAnswered(method, route, status, seconds) {
      durations.observe({ method, route, status_code: String(status) }, seconds);
    },
    labelledGauge(name, help, label, read) {
      new client.Gauge({
        name,
        help,
        labelNames: [label],
        registers: [registry],
        async collect() {
          const values = await read();
          this.reset();
          for (const value of values) this.set({ [label]: value.label }, value.value);
        },
      });
    },
    gauge(name, help, read) {
      new client.Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read());
        },
      });
    },
  };
}
