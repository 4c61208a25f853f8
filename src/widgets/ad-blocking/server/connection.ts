import { createHash } from "node:crypto";
import type { AppContext } from "../../../server/context.js";
import { notFoundBecause, ProblemError } from "../../../server/http/errors.js";
import type { UsableIntegration } from "../../../server/integrations/types.js";
import { AD_BLOCKING_KINDS, type AdBlockingKind } from "../contract.js";

export type BlockerIntegration = UsableIntegration & { kind: AdBlockingKind };

const isBlocker = (integration: UsableIntegration): integration is BlockerIntegration =>
  (AD_BLOCKING_KINDS as readonly string[]).includes(integration.kind);

/**
 * The Pi-hole or AdGuard Home integration the widget's owner may use; gone, not theirs or of
 * another kind is a 404 that says so.
 */
export async function usableBlocker(
  ctx: AppContext,
  ownerId: string,
  integrationId: string,
): Promise<BlockerIntegration> {
  const gone = () => notFoundBecause("This Pi-hole or AdGuard Home integration is gone or not yours");
  let integration: UsableIntegration;
  try {
    integration = await ctx.integrations.usable(ownerId, integrationId);
  } catch (error) {
    if (error instanceof ProblemError && error.status === 404) throw gone();
    throw error;
  }
  if (!isBlocker(integration)) throw gone();
  return integration;
}

/**
 * The integration as it is now (its address and secrets, hashed): a changed password or address
 * is a new key, tried at once and never served the old one's answers. Starts with the id, so
 * everything kept for an integration is forgotten by its prefix.
 */
export function connectionKey(integration: UsableIntegration): string {
  const hash = createHash("sha256")
    .update(JSON.stringify([integration.url, Object.entries(integration.secrets).sort()]))
    .digest("base64url")
    .slice(0, 16);
  return `${integration.id}|${hash}`;
}
