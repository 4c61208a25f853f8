import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { AppContext } from "../context.js";
import type { Watcher } from "../jobs/watch/pass.js";
import type { ProviderServices } from "../providers/client.js";

/** What a widget's watchers may use: the app's services and a provider client of their own. */
export interface WatcherDeps {
  ctx: AppContext;
  providers: ProviderServices;
}

/**
 * A widget type's server half (src/widgets/<type>/server/index.ts), for types whose contract says
 * `server: true`: the routes that serve its data (to readers and, for keyless services, to
 * visitors of a public dashboard) and what the watch pass checks for it.
 */
export interface WidgetServer {
  routes?: FastifyPluginAsyncTypebox<AppContext>;
  watchers?(deps: WatcherDeps): Watcher[];
}

export function defineWidgetServer(half: WidgetServer): WidgetServer {
  return half;
}
