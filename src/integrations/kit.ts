import type { IntegrationKind, IntegrationSecretField } from "../contract/integrations.js";

/**
 * What a kind's folder declares for everyone (src/integrations/<kind>/definition.ts): its name,
 * what it connects to and which secrets it takes. Its server half (`server.ts`) says how the
 * secrets travel and how a connection is tested.
 */
export interface IntegrationKindDefinition
  extends Omit<IntegrationKind, "secrets" | "unixSocket" | "clientCertificate"> {
  readonly secrets: readonly IntegrationSecretField[];
  /** The address may be a Unix socket (Docker's): admins only, instance integrations only. */
  readonly unixSocket?: boolean;
  /** The secrets `tlsCertificate` and `tlsKey` (PEM) are the TLS client certificate (Docker's TLS mode). */
  readonly clientCertificate?: boolean;
}

/** The secrets a `clientCertificate` kind reads as its TLS client certificate and key. */
export const CLIENT_CERTIFICATE_SECRETS = { cert: "tlsCertificate", key: "tlsKey" } as const;

export function defineIntegrationKind<const K extends string>(
  definition: IntegrationKindDefinition & { kind: K },
): IntegrationKindDefinition & { kind: K } {
  return definition;
}
