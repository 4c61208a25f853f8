import type { IntegrationKind, IntegrationSecretField } from "../contract/integrations.js";

/**
 * What a kind's folder declares for everyone (src/integrations/<kind>/definition.ts): its name,
 * what it connects to and which secrets it takes. Its server half (`server.ts`) says how the
 * secrets travel and how a connection is tested.
 */
export interface IntegrationKindDefinition extends Omit<IntegrationKind, "secrets"> {
  readonly secrets: readonly IntegrationSecretField[];
}

export function defineIntegrationKind<const K extends string>(
  definition: IntegrationKindDefinition & { kind: K },
): IntegrationKindDefinition & { kind: K } {
  return definition;
}
