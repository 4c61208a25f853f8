import type { WidgetTypeDefinition } from "../../contract/widget-kit/define.js";
import { WIDGET_DEFINITIONS, widgetFolder } from "../../widgets/index.js";
import type { WidgetServer } from "./kit.js";

export interface ListedServer {
  definition: WidgetTypeDefinition;
  server: WidgetServer;
}

let loading: Promise<readonly ListedServer[]> | undefined;

/**
 * The server halves of the listed widget types that have one, loaded from their folders: the list
 * (src/widgets/index.ts) is the only place a type is named. The import names a pattern, not a
 * file, so esbuild bundles every `src/widgets/<type>/server/index.ts` and the test runners load
 * the same files from source.
 */
export function widgetServers(): Promise<readonly ListedServer[]> {
  loading ??= Promise.all(
    WIDGET_DEFINITIONS.filter((definition) => definition.server).map(async (definition) => {
      const folder = widgetFolder(definition.type);
      const module: { default: WidgetServer } = await import(`../../widgets/${folder}/server/index.ts`);
      return { definition: definition as unknown as WidgetTypeDefinition, server: module.default };
    }),
  );
  return loading;
}
