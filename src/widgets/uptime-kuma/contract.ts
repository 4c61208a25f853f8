import type { Static, TSchema } from "@sinclair/typebox";
import { Type } from "../../contract/typebox.js";
import { defineWidgetType } from "../../contract/widget-kit/define.js";
import { Matching } from "../../contract/widget-kit/fields.js";
import type { RepairKeywords } from "../../contract/widget-kit/parse.js";

/**
 * The Uptime Kuma widget (DESIGN section 16): the monitors of a saved `uptimekuma` integration,
 * from one of its public status pages (a slug; no key needed) or from its metrics (every monitor;
 * the integration's API key). Uptime Kuma has no REST API for monitors, so these two are all.
 */

/** Uptime Kuma's own rule for a status page's slug (`checkSlug`); it reads slugs in lower case. */
export const KUMA_SLUG_PATTERN = "^[a-z0-9]+(?:-[a-z0-9]+)*$";
export const KUMA_SLUG_MAX = 100;
/** A widget lists at most this many monitors (a status page of hundreds is a page, not a widget). */
export const KUMA_MONITORS_MAX = 200;
/** How often the page asks; Uptime Kuma itself caches its status page for 1 to 5 minutes. */
export const KUMA_REFRESH_MS = 30_000;

const UUID = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";
const slugKeywords: RepairKeywords = { clean: (s) => s.trim().toLowerCase() || undefined };

/** "https://kuma.lan/status/home" or "Home " as typed: the slug it names. */
export function kumaSlug(input: string): string | undefined {
  const trimmed = input.trim();
  const fromAddress = /\/status\/([^/?#]+)/.exec(trimmed)?.[1];
  const slug = (fromAddress ?? trimmed).toLowerCase();
  return slug.length <= KUMA_SLUG_MAX && new RegExp(KUMA_SLUG_PATTERN).test(slug) ? slug : undefined;
}

export const UptimeKumaConfig = Type.Object({
  /** A saved integration of kind `uptimekuma` the widget's owner may use. */
  integrationId: Type.Optional(Matching(UUID, { clean: (s) => s.toLowerCase() })),
  /** A status page's slug: its monitors, by group. Absent: every monitor, from the metrics. */
  slug: Type.Optional(Type.String({ pattern: KUMA_SLUG_PATTERN, maxLength: KUMA_SLUG_MAX, ...slugKeywords })),
});
export type UptimeKumaConfig = Static<typeof UptimeKumaConfig>;

export interface UptimeKumaQuery {
  integrationId: string;
  slug?: string;
}

export const KUMA_STATUSES = ["up", "down", "pending", "maintenance", "unknown"] as const;
export type KumaStatus = (typeof KUMA_STATUSES)[number];

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Status = Type.Union(KUMA_STATUSES.map((s) => Type.Literal(s)));

export const KumaMonitorSchema = Type.Object({
  /** Uptime Kuma's monitor id (v1 metrics have none: the monitor's name then). */
  id: Type.String(),
  name: Type.String(),
  /** The status page's group it is shown in; null from the metrics. */
  group: Nullable(Type.String()),
  /** http, ping, port, push…; null when not said. */
  type: Nullable(Type.String()),
  /** From its latest heartbeat: up, down, pending, maintenance; unknown before the first. */
  status: Status,
  /** The latest heartbeat's response time in milliseconds. */
  responseTimeMs: Nullable(Type.Number()),
  /** The share of the last 24 hours it was up, 0 to 1 (metrics: Uptime Kuma 2.3 or later). */
  uptime24h: Nullable(Type.Number()),
  /** When its latest heartbeat was, ISO 8601 UTC (status pages only). */
  lastBeatAt: Nullable(Type.String()),
});
export type KumaMonitor = Static<typeof KumaMonitorSchema>;

export const UptimeKumaDataSchema = Type.Object(
  {
    source: Type.Union([Type.Literal("status-page"), Type.Literal("metrics")]),
    /** The status page's title; null for the metrics. */
    title: Nullable(Type.String()),
    summary: Type.Object({
      up: Type.Integer(),
      down: Type.Integer(),
      pending: Type.Integer(),
      maintenance: Type.Integer(),
      unknown: Type.Integer(),
    }),
    monitors: Type.Array(KumaMonitorSchema),
    /** How many monitors there were before the list was cut to KUMA_MONITORS_MAX. */
    monitorsTotal: Type.Integer(),
    /** The status page's pinned incidents (one in Uptime Kuma 1.x and 2.0, several from 2.1). */
    incidents: Type.Array(
      Type.Object({
        title: Type.String(),
        content: Type.String(),
        /** info, warning, danger, primary, light, dark: Uptime Kuma's styles. */
        style: Type.String(),
        updatedAt: Nullable(Type.String()),
      }),
    ),
    /** Maintenance windows the status page shows now. */
    maintenance: Type.Array(Type.Object({ title: Type.String() })),
  },
  { description: "The monitors of an Uptime Kuma widget: a status page's, or every one from the metrics" },
);
export type UptimeKumaData = Static<typeof UptimeKumaDataSchema>;

export const uptimeKumaWidget = defineWidgetType({
  type: "Uptime Kuma",
  server: true,
  config: UptimeKumaConfig,
  data: {
    kind: "service",
    publicRoute: "uptime-kuma",
    visitorQuery: ({ integrationId, slug }: UptimeKumaConfig): UptimeKumaQuery | null =>
      integrationId ? { integrationId, ...(slug ? { slug } : {}) } : null,
  },
});
