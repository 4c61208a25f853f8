import type { AppContext } from "../../../server/context.js";
import type { UsableIntegration } from "../../../server/integrations/types.js";
import type { CachePolicy } from "../../../server/upstream/upstream.js";
import type { AdBlockingData, AdBlockingQuery } from "../contract.js";
import { adguardClient } from "./adguard.js";
import { type BlockerIntegration, connectionKey, usableBlocker } from "./connection.js";
import { piholeClient } from "./pihole.js";
import type { BlockerClient } from "./reading.js";
import { unlessRefused } from "./refusals.js";

/**
 * Kept 10 s per integration: every widget and viewer of one blocker shares a call (Pi-hole and
 * AdGuard Home often run on a Raspberry Pi), while a pause shows within a refresh.
 */
export const AD_BLOCKING_ANSWERS: CachePolicy = {
  kind: "ad-blocking",
  fresh: 10_000,
  failuresRemembered: true,
  // "Blocking on" shown while it is paused would be wrong, not stale.
  staleIfError: false,
};

export function clientOf(ctx: AppContext, integration: BlockerIntegration): BlockerClient {
  return integration.kind === "pihole" ? piholeClient(ctx, integration) : adguardClient(ctx, integration);
}

/** Forgets what is kept for the integration, so the next read shows a change at once. */
export function forgetAnswers(ctx: AppContext, integration: UsableIntegration) {
  ctx.upstream.invalidate(AD_BLOCKING_ANSWERS, `${integration.id}|`);
}

/** What an Ad Blocking widget shows, through its owner's integration. */
export function adBlockingSource(ctx: AppContext) {
  return async function load(query: AdBlockingQuery, ownerId: string): Promise<AdBlockingData> {
    const integration = await usableBlocker(ctx, ownerId, query.integrationId);
    const reading = await unlessRefused(ctx, integration, () =>
      ctx.upstream.cached(AD_BLOCKING_ANSWERS, connectionKey(integration), () =>
        clientOf(ctx, integration).read(),
      ),
    );
    return { kind: integration.kind, ...reading, actions: integration.allowActions };
  };
}
