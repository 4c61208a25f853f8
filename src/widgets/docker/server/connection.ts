import { createHash } from "node:crypto";
import { type EnginePing, pingEngine } from "../../../integrations/docker/engine.js";
import type { AppContext } from "../../../server/context.js";
import { notFoundBecause, ProblemError } from "../../../server/http/errors.js";
import type { IntegrationRequest, UsableIntegration } from "../../../server/integrations/types.js";

/** The integration the widget's owner may use, of this kind; gone or not theirs is a 404 that says so. */
export async function usableDocker(ctx: AppContext, ownerId: string, integrationId: string) {
  try {
    return await ctx.integrations.usable(ownerId, integrationId, "docker");
  } catch (error) {
    if (error instanceof ProblemError && error.status === 404)
      throw notFoundBecause("This Docker integration is gone or not yours");
    throw error;
  }
}

/**
 * The integration as it is now (its address and client certificate, hashed): a changed address
 * is another engine, so nothing kept for the old one is read for it.
 */
export function connectionKey(integration: UsableIntegration): string {
  const hash = createHash("sha256")
    .update(`${integration.url}\0${integration.secrets.tlsCertificate ?? ""}`)
    .digest("base64url")
    .slice(0, 16);
  return `${integration.id}|${hash}`;
}

export const callerOf = (ctx: AppContext, integration: UsableIntegration) => (request: IntegrationRequest) =>
  ctx.integrations.call(integration, request);

/**
 * The engine's API version changes only with an upgrade: asked once per ten minutes per
 * connection, and kept here rather than in the upstream cache, whose age would otherwise make
 * every widget's data look ten minutes old. Per app instance; bounded against a flood.
 */
const PING_KEPT_MS = 10 * 60_000;
const pings = new WeakMap<AppContext, Map<string, { until: number; ping: Promise<EnginePing> }>>();

export function engineOf(ctx: AppContext, integration: UsableIntegration): Promise<EnginePing> {
  let known = pings.get(ctx);
  if (!known) {
    known = new Map();
    pings.set(ctx, known);
  }
  const key = connectionKey(integration);
  const kept = known.get(key);
  const now = Date.now();
  if (kept && kept.until > now) return kept.ping;
  if (known.size >= 1000) known.clear();
  const ping = pingEngine(callerOf(ctx, integration), integration.name);
  const memory = known;
  memory.set(key, { until: now + PING_KEPT_MS, ping });
  // A failed ping is not kept: the next load asks again.
  ping.catch(() => memory.delete(key));
  return ping;
}
