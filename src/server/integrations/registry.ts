import { INTEGRATION_KINDS } from "../../integrations/index.js";
import type { IntegrationKindServer } from "./kit.js";

let loading: Promise<ReadonlyMap<string, IntegrationKindServer>> | undefined;

/**
 * The server halves of the listed kinds, loaded from their folders on first use (a start that
 * never calls a service loads none). The import names a pattern, so esbuild bundles every
 * `src/integrations/<kind>/server.ts` and the test runners load the same files from source.
 */
export function integrationServers(): Promise<ReadonlyMap<string, IntegrationKindServer>> {
  loading ??= Promise.all(
    INTEGRATION_KINDS.map(async ({ kind }) => {
      const module: { default: IntegrationKindServer } = await import(`../../integrations/${kind}/server.ts`);
      return [kind, module.default] as const;
    }),
  ).then((entries) => new Map(entries));
  return loading;
}
