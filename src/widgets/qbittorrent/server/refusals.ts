import { createHash } from "node:crypto";
import { isRefusedSignIn } from "../../../integrations/qbittorrent/sign-in.js";
import type { AppContext } from "../../../server/context.js";
import type { ProblemError } from "../../../server/http/errors.js";
import type { UsableIntegration } from "../../../server/integrations/types.js";

/**
 * Sign-ins qBittorrent refused, remembered so no widget signs in with those credentials again:
 * every wrong password counts towards its ban of this server's address (5 by default, then 403
 * for an hour, for every user of every integration on that address). After a refusal (or the
 * ban's 403) the integration is not called until its credentials or address change, or an hour
 * (qBittorrent's default ban) has passed. Per app instance: each remembers its own.
 */
const REMEMBERED_MS = 60 * 60 * 1000;
const REMEMBERED_MAX = 1000;

const memories = new WeakMap<AppContext, Map<string, { until: number; error: ProblemError }>>();

/** The integration as it is now: new credentials or a new address are a new key, tried at once. */
export function connectionKey(integration: UsableIntegration): string {
  const { username = "", password = "", apiKey = "" } = integration.secrets;
  const secret = createHash("sha256")
    .update(JSON.stringify([integration.url, username, password, apiKey]))
    .digest("base64url")
    .slice(0, 16);
  return `${integration.id}|${secret}`;
}

export function refusals(ctx: AppContext) {
  let memory = memories.get(ctx);
  if (!memory) {
    memory = new Map();
    memories.set(ctx, memory);
  }
  const known = memory;
  return {
    /** Throws the remembered refusal, without calling qBittorrent. */
    check(integration: UsableIntegration) {
      const key = connectionKey(integration);
      const refusal = known.get(key);
      if (!refusal) return;
      if (refusal.until > ctx.clock()) throw refusal.error;
      known.delete(key);
    },
    /** Runs `call`; a refused sign-in it ends in is remembered, then thrown as it came. */
    async guard<T>(integration: UsableIntegration, call: () => Promise<T>): Promise<T> {
      try {
        return await call();
      } catch (error) {
        if (isRefusedSignIn(error)) {
          if (known.size >= REMEMBERED_MAX) known.clear();
          known.set(connectionKey(integration), { until: ctx.clock() + REMEMBERED_MS, error });
        }
        throw error;
      }
    },
  };
}
