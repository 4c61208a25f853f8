import { createHash } from "node:crypto";
import type { AppContext } from "../../../server/context.js";
import { type ProblemError, upstreamFailed } from "../../../server/http/errors.js";
import type { UsableIntegration } from "../../../server/integrations/types.js";
import type { UpstreamResponse } from "../../../server/upstream/fetch.js";

/**
 * Tokens Home Assistant refused, remembered so nothing asks again with them. Each refused call
 * logs a failed login and raises a notification in HA, and once its owner has set a
 * `login_attempts_threshold`, the server's address is banned (403 to everyone using it): a widget
 * polling every 30 s with a dead token would get there. So after a 401 (or the ban's 403) the
 * integration is not called again until its token or address changes, or an hour has passed
 * (a proxy in front may have answered for it). Per app instance: each remembers its own.
 */
const REMEMBERED_MS = 60 * 60 * 1000;

interface Refusal {
  until: number;
  error: ProblemError;
}

const memories = new WeakMap<AppContext, Map<string, Refusal>>();

/**
 * The integration as it is now (its address and token, hashed): a new token or address is a new
 * key, tried at once, and answers cached for the old one are not read for it.
 */
export function connectionKey(integration: UsableIntegration): string {
  const secret = createHash("sha256")
    .update(`${integration.url}\0${integration.secrets.token ?? ""}`)
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
    /** Throws the remembered refusal, without calling Home Assistant. */
    check(integration: UsableIntegration) {
      const key = connectionKey(integration);
      const refusal = known.get(key);
      if (!refusal) return;
      if (refusal.until > ctx.clock()) throw refusal.error;
      known.delete(key);
    },
    /** A 401 or 403 answer is remembered and thrown; anything else passes. */
    judge(integration: UsableIntegration, response: UpstreamResponse) {
      if (response.status !== 401 && response.status !== 403) return;
      const error =
        response.status === 401
          ? upstreamFailed(
              `Home Assistant refused the token of ${integration.name} (401): make a new long-lived access token and save it in the integration. Tessera stops asking with this one, so Home Assistant does not ban this server`,
            )
          : upstreamFailed(
              `Home Assistant answered 403 to ${integration.name}: it has banned this server's address after failed logins (remove it from ip_bans.yaml and restart Home Assistant). Tessera asks again in an hour, or at once when the integration's token or address changes`,
            );
      // Bounded like any cache: integrations are few, so this only guards against a flood.
      if (known.size >= 1000) known.clear();
      known.set(connectionKey(integration), { until: ctx.clock() + REMEMBERED_MS, error });
      throw error;
    },
  };
}
