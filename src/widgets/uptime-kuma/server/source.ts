import { createHash } from "node:crypto";
import { monitorsFromMetrics } from "../../../integrations/uptimekuma/metrics.js";
import type { AppContext } from "../../../server/context.js";
import { notFoundBecause, ProblemError, upstreamFailed } from "../../../server/http/errors.js";
import { answered, answeredJson } from "../../../server/integrations/kit.js";
import type { UsableIntegration } from "../../../server/integrations/types.js";
import type { CachePolicy } from "../../../server/upstream/upstream.js";
import { KUMA_MONITORS_MAX, type UptimeKumaData, type UptimeKumaQuery } from "../contract.js";
import { fromStatusPage, HeartbeatAnswer, StatusPageAnswer, statusOf, summaryOf } from "./status-page.js";

/**
 * Kept 30 s per integration and page: Uptime Kuma caches its status page for 5 minutes and the
 * heartbeats for 1 anyway, and its API keys allow 60 requests a minute in all (a request past
 * that is refused with the same 401 as a wrong key), so every widget and viewer of one Kuma share
 * one call per half minute.
 */
export const KUMA_ANSWERS: CachePolicy = {
  kind: "uptimekuma",
  fresh: 30_000,
  failuresRemembered: true,
  staleIfError: false,
};

async function usableKuma(ctx: AppContext, ownerId: string, integrationId: string) {
  try {
    return await ctx.integrations.usable(ownerId, integrationId, "uptimekuma");
  } catch (error) {
    if (error instanceof ProblemError && error.status === 404)
      throw notFoundBecause("This Uptime Kuma integration is gone or not yours");
    throw error;
  }
}

async function statusPage(ctx: AppContext, integration: UsableIntegration, slug: string) {
  const ask = (path: string, what: string) =>
    ctx.integrations.call(integration, { path, what, headers: { accept: "application/json" } });
  const [page, beats] = await Promise.all([
    ask(`/api/status-page/${slug}`, `the status page ${slug}`),
    ask(`/api/status-page/heartbeat/${slug}`, `the heartbeats of ${slug}`),
  ]);
  if (page.status === 404)
    throw notFoundBecause(
      `${integration.name} has no status page "${slug}" (the slug is the last part of its address, /status/${slug})`,
    );
  const pageJson = answeredJson(page, integration.name);
  const beatsJson = answeredJson(beats, integration.name);
  return fromStatusPage(
    StatusPageAnswer.parse(pageJson, page),
    HeartbeatAnswer.parse(beatsJson, beats),
    KUMA_MONITORS_MAX,
  );
}

async function metrics(ctx: AppContext, integration: UsableIntegration): Promise<UptimeKumaData> {
  const response = await ctx.integrations.call(integration, {
    path: "/metrics",
    what: "its metrics",
    headers: { accept: "text/plain" },
  });
  if (response.status === 401)
    throw upstreamFailed(
      integration.secrets.apiKey
        ? `${integration.name} refused the API key (401): make a new one in Uptime Kuma (Settings, API Keys) and save it in the integration`
        : `${integration.name} wants an API key for its monitors (401): add one to the integration (Uptime Kuma: Settings, API Keys), or name a status page in the widget`,
    );
  const { text } = answered(response, integration.name);
  if (!text.includes("monitor_status"))
    throw upstreamFailed(`${integration.name} answered, but not with Uptime Kuma's metrics`);
  const all = monitorsFromMetrics(text).map((m) => ({
    id: m.id ?? m.name,
    name: m.name.slice(0, 200),
    group: null,
    type: m.type?.slice(0, 40) ?? null,
    status: statusOf(m.status),
    responseTimeMs: m.responseTimeMs,
    uptime24h: m.uptime24h,
    lastBeatAt: null,
  }));
  return {
    source: "metrics",
    title: null,
    summary: summaryOf(all),
    monitors: all.slice(0, KUMA_MONITORS_MAX),
    monitorsTotal: all.length,
    incidents: [],
    maintenance: [],
  };
}

/** The integration as saved now: a changed address or key is a new key, never served the old answers. */
function connectionKey(integration: UsableIntegration): string {
  const hash = createHash("sha256")
    .update(`${integration.url}\0${integration.secrets.apiKey ?? ""}`)
    .digest("base64url");
  return `${integration.id}|${hash.slice(0, 16)}`;
}

/** The monitors an Uptime Kuma widget shows, through its owner's integration. */
export function uptimeKumaSource(ctx: AppContext) {
  return async function load(query: UptimeKumaQuery, ownerId: string): Promise<UptimeKumaData> {
    const integration = await usableKuma(ctx, ownerId, query.integrationId);
    const { slug } = query;
    const key = connectionKey(integration);
    return slug
      ? ctx.upstream.cached(KUMA_ANSWERS, `${key}|page|${slug}`, () => statusPage(ctx, integration, slug))
      : ctx.upstream.cached(KUMA_ANSWERS, `${key}|metrics`, () => metrics(ctx, integration));
  };
}
