import type { AppContext } from "../../../server/context.js";
import type { ProblemError } from "../../../server/http/errors.js";
import { isCredentialsRefused } from "../../../server/integrations/refused.js";
import type { UsableIntegration } from "../../../server/integrations/types.js";
import { connectionKey } from "./connection.js";

/**
 * Credentials the service refused, remembered so nothing asks again with them. AdGuard Home
 * blocks the server's address for 15 minutes after 5 wrong passwords (every integration on it,
 * whoever saved them), and Pi-hole slows down sign-ins after failed ones: a widget polling every
 * 30 s with a dead password would get there. So after a refusal the integration is not called
 * until its password or address changes, or an hour has passed. Per app instance.
 */
const REMEMBERED_MS = 60 * 60 * 1000;

const memories = new WeakMap<AppContext, Map<string, { until: number; error: ProblemError }>>();

function memoryOf(ctx: AppContext) {
  let memory = memories.get(ctx);
  if (!memory) {
    memory = new Map();
    memories.set(ctx, memory);
  }
  return memory;
}

/**
 * Runs `ask` unless the integration's credentials were refused within the hour (then that
 * refusal is thrown again without a call); a refusal it meets is remembered.
 */
export async function unlessRefused<T>(
  ctx: AppContext,
  integration: UsableIntegration,
  ask: () => Promise<T>,
): Promise<T> {
  const memory = memoryOf(ctx);
  const key = connectionKey(integration);
  const known = memory.get(key);
  if (known && known.until > ctx.clock()) throw known.error;
  if (known) memory.delete(key);
  try {
    return await ask();
  } catch (error) {
    if (isCredentialsRefused(error)) {
      // Bounded like any cache: integrations are few, so this only guards against a flood.
      if (memory.size >= 1000) memory.clear();
      memory.set(key, { until: ctx.clock() + REMEMBERED_MS, error: error as ProblemError });
    }
    throw error;
  }
}
