import { createHash } from "node:crypto";
import type { AppContext } from "../../../server/context.js";
import type { ProblemError } from "../../../server/http/errors.js";
import type { UsableIntegration } from "../../../server/integrations/types.js";

/**
 * Tokens Proxmox refused, remembered so widgets stop asking with them: pveproxy holds every
 * refused request for three seconds before it answers (its guard against guessing), so a dead
 * token polled by every open dashboard ties up requests on both sides for nothing. After a 401
 * the integration is not called again until its token, address or TLS settings change, or ten
 * minutes have passed. Per app instance: each remembers its own.
 */
const REMEMBERED_MS = 10 * 60 * 1000;

interface Refusal {
  until: number;
  error: ProblemError;
}

const memories = new WeakMap<AppContext, Map<string, Refusal>>();

/**
 * The integration as it is now (address, token and trust, hashed): a change is a new key, asked
 * at once, and answers cached for the old one are never read for it.
 */
export function connectionKey(integration: UsableIntegration): string {
  const hash = createHash("sha256")
    .update(
      JSON.stringify([
        integration.url,
        integration.secrets.tokenId ?? "",
        integration.secrets.secret ?? "",
        integration.caCertificate,
        integration.skipTlsVerify,
      ]),
    )
    .digest("base64url")
    .slice(0, 16);
  return `${integration.id}|${hash}`;
}

export function refusals(ctx: AppContext) {
  let memory = memories.get(ctx);
  if (!memory) {
    memory = new Map();
    memories.set(ctx, memory);
  }
  const known = memory;
  return {
    /** Throws the remembered refusal without calling Proxmox. */
    check(integration: UsableIntegration) {
      const key = connectionKey(integration);
      const refusal = known.get(key);
      if (!refusal) return;
      if (refusal.until > ctx.clock()) throw refusal.error;
      known.delete(key);
    },
    remember(integration: UsableIntegration, error: ProblemError) {
      // Bounded like any cache: integrations are few, so this only guards against a flood.
      if (known.size >= 1000) known.clear();
      known.set(connectionKey(integration), { until: ctx.clock() + REMEMBERED_MS, error });
    },
  };
}
