import {
  isTokenRefusal,
  NodesAnswer,
  PVE_PATHS,
  pveJson,
  ResourcesAnswer,
  VersionAnswer,
} from "../../../integrations/proxmox/api.js";
import type { AppContext } from "../../../server/context.js";
import { notFoundBecause, ProblemError, upstreamFailed } from "../../../server/http/errors.js";
import { describeFailure } from "../../../server/integrations/failures.js";
import type { UsableIntegration } from "../../../server/integrations/types.js";
import type { CachePolicy } from "../../../server/upstream/upstream.js";
import type { ProxmoxData, ProxmoxQuery } from "../contract.js";
import { connectionKey, refusals } from "./refusals.js";
import { type ProxmoxSnapshot, selected } from "./shape.js";

/**
 * One snapshot per integration, kept 15 s: every widget and viewer of one Proxmox shares it, each
 * narrowing it to its own nodes and guests, so a dashboard full of viewers costs Proxmox three
 * small calls per quarter minute. Figures that look current must be, so nothing stale stands in.
 */
export const PROXMOX_SNAPSHOTS: CachePolicy = {
  kind: "proxmox",
  fresh: 15_000,
  failuresRemembered: true,
  staleIfError: false,
};

async function usableProxmox(ctx: AppContext, ownerId: string, integrationId: string) {
  try {
    return await ctx.integrations.usable(ownerId, integrationId, "proxmox");
  } catch (error) {
    if (error instanceof ProblemError && error.status === 404)
      throw notFoundBecause("This Proxmox VE integration is gone or not yours");
    throw error;
  }
}

/**
 * The nodes first, alone: a refused token then costs one refused call (each one waits three
 * seconds at pveproxy), not three at once. Then the guests and the version together.
 */
async function snapshotOf(ctx: AppContext, integration: UsableIntegration): Promise<ProxmoxSnapshot> {
  const call = (request: Parameters<typeof ctx.integrations.call>[1]) =>
    ctx.integrations.call(integration, request);
  const name = integration.name;
  const nodes = await pveJson(call, { path: PVE_PATHS.nodes, what: "its nodes" }, name);
  const [guests, version] = await Promise.all([
    pveJson(call, { path: PVE_PATHS.guests, what: "its guests" }, name),
    pveJson(call, { path: PVE_PATHS.version, what: "its version" }, name).then(
      ({ json, response }) => VersionAnswer.parse(json, response).data.version,
      // The version is a label: without it the figures are still worth showing.
      () => null,
    ),
  ]);
  return {
    version,
    nodes: NodesAnswer.parse(nodes.json, nodes.response).data,
    guests: ResourcesAnswer.parse(guests.json, guests.response).data,
  };
}

/**
 * A failed connection said as the integration's Test button says it: Proxmox's self-signed
 * certificate is the usual one, and "SELF_SIGNED_CERT_IN_CHAIN" alone tells a reader nothing.
 */
function inWords(error: unknown): unknown {
  if (!(error instanceof ProblemError) || error.code !== "upstream_failed") return error;
  const described = describeFailure(error);
  return described === error.detail ? error : upstreamFailed(described);
}

/** The nodes and guests a Proxmox widget shows, through its owner's integration. */
export function proxmoxSource(ctx: AppContext) {
  return async function load(query: ProxmoxQuery, ownerId: string): Promise<ProxmoxData> {
    const integration = await usableProxmox(ctx, ownerId, query.integrationId);
    const memory = refusals(ctx);
    memory.check(integration);
    const snapshot = await ctx.upstream.cached(PROXMOX_SNAPSHOTS, connectionKey(integration), async () => {
      try {
        return await snapshotOf(ctx, integration);
      } catch (error) {
        if (isTokenRefusal(error)) memory.remember(integration, error as ProblemError);
        throw inWords(error);
      }
    });
    return selected(snapshot, query);
  };
}
