import { type Static, Type } from "@sinclair/typebox";
import { defineSource } from "../../../server/upstream/source.js";
import type { KumaMonitor, KumaStatus, UptimeKumaData } from "../contract.js";

/**
 * A status page's two answers (`/api/status-page/<slug>` and `/api/status-page/heartbeat/<slug>`)
 * made into the widget's monitors. The shapes differ between Uptime Kuma's versions:
 * - the pinned incident is `incident` (an object or null) up to 2.0, `incidents` (a list) from 2.1;
 * - uptime is keyed `"<id>_24"` up to 2.5, `"<id>"` on its main branch;
 * - a beat's `time` is UTC without a zone ("2026-11-27 20:00:00.123"), or ISO with `Z` where the
 *   main branch sums beats into buckets, and such a list may hold `0` for an empty bucket.
 */

const Text = Type.String({ maxLength: 100_000 });
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

const Incident = Type.Object({
  title: Type.Optional(Type.Union([Text, Type.Null()])),
  content: Type.Optional(Type.Union([Text, Type.Null()])),
  style: Type.Optional(Type.Union([Text, Type.Null()])),
  lastUpdatedDate: Type.Optional(Type.Union([Text, Type.Null()])),
  createdDate: Type.Optional(Type.Union([Text, Type.Null()])),
});

export const StatusPageAnswer = defineSource(
  Type.Object({
    config: Type.Object({ title: Type.Optional(Nullable(Text)) }),
    incident: Type.Optional(Type.Union([Incident, Type.Null()])),
    incidents: Type.Optional(Type.Array(Incident)),
    publicGroupList: Type.Array(
      Type.Object({
        name: Type.Optional(Nullable(Text)),
        monitorList: Type.Array(
          Type.Object({
            id: Type.Integer(),
            name: Text,
            type: Type.Optional(Nullable(Text)),
          }),
        ),
      }),
    ),
    maintenanceList: Type.Optional(Type.Array(Type.Object({ title: Type.Optional(Nullable(Text)) }))),
  }),
);

const Beat = Type.Union([
  Type.Literal(0),
  Type.Object({
    status: Type.Integer(),
    time: Type.Optional(Nullable(Text)),
    ping: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  }),
]);

export const HeartbeatAnswer = defineSource(
  Type.Object({
    heartbeatList: Type.Record(Type.String(), Type.Array(Beat)),
    uptimeList: Type.Record(Type.String(), Type.Union([Type.Number(), Type.Null()])),
  }),
);

const STATUSES: Record<number, KumaStatus> = { 0: "down", 1: "up", 2: "pending", 3: "maintenance" };

export const statusOf = (code: number | null | undefined): KumaStatus =>
  (code !== null && code !== undefined && STATUSES[code]) || "unknown";

/** Kuma's UTC time without a zone, or an ISO time with one, as ISO 8601 UTC; null when unreadable. */
export function kumaInstant(value: string | null | undefined): string | null {
  if (!value) return null;
  const plain = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value);
  const ms = Date.parse(plain ? `${value.replace(" ", "T")}Z` : value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

const short = (value: string | null | undefined, max: number) => (value ?? "").slice(0, max);

export function summaryOf(monitors: readonly KumaMonitor[]): UptimeKumaData["summary"] {
  const summary = { up: 0, down: 0, pending: 0, maintenance: 0, unknown: 0 };
  for (const m of monitors) summary[m.status]++;
  return summary;
}

/** The widget's answer from a status page's two answers, its groups in their order. */
export function fromStatusPage(
  page: Static<typeof StatusPageAnswer.schema>,
  beats: Static<typeof HeartbeatAnswer.schema>,
  limit: number,
): UptimeKumaData {
  const all: KumaMonitor[] = [];
  for (const group of page.publicGroupList)
    for (const monitor of group.monitorList) {
      const id = String(monitor.id);
      const list = beats.heartbeatList[id] ?? [];
      const last = list.findLast((beat) => beat !== 0);
      const uptime = beats.uptimeList[`${id}_24`] ?? beats.uptimeList[id] ?? null;
      all.push({
        id,
        name: short(monitor.name, 200),
        group: group.name ? short(group.name, 200) : null,
        type: monitor.type ? short(monitor.type, 40) : null,
        status: statusOf(last ? last.status : null),
        responseTimeMs: last && typeof last.ping === "number" && last.ping >= 0 ? last.ping : null,
        uptime24h:
          typeof uptime === "number" && Number.isFinite(uptime) ? Math.min(1, Math.max(0, uptime)) : null,
        lastBeatAt: last ? kumaInstant(last.time) : null,
      });
    }
  const pinned = page.incidents ?? (page.incident ? [page.incident] : []);
  return {
    source: "status-page",
    title: page.config.title ? short(page.config.title, 200) : null,
    summary: summaryOf(all),
    monitors: all.slice(0, limit),
    monitorsTotal: all.length,
    incidents: pinned.slice(0, 5).map((incident) => ({
      title: short(incident.title, 200),
      content: short(incident.content, 1000),
      style: short(incident.style, 20) || "info",
      updatedAt: kumaInstant(incident.lastUpdatedDate ?? incident.createdDate),
    })),
    maintenance: (page.maintenanceList ?? []).slice(0, 5).map((m) => ({ title: short(m.title, 200) })),
  };
}
