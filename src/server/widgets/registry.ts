import { WIDGET_DEFINITIONS, widgetFolder } from "../../widgets/index.js";
import type { WidgetServer } from "./kit.js";

let loading: Promise<readonly WidgetServer[]> | undefined;

/**
 * The server halves of the listed widget types that have one, loaded from their folders: the list
 * (src/widgets/index.ts) is the only place a type is named. The import names a pattern, not a
 * file, so esbuild bundles every `src/widgets/<type>/server/index.ts` and the test runners load
 * the same files from source.
 */
export function widgetServers(): Promise<readonly WidgetServer[]> {
  loading ??= Promise.all(
    WIDGET_DEFINITIONS.filter((definition) => definition.server).map(async (definition) => {
      const folder = widgetFolder(definition.type);
      const module: { default: WidgetServer } = await import(`../../widgets/${folder}/server/index.ts`);
      return module.default;
    }),
  );
  return loading;
}
