import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { TSchema } from "@sinclair/typebox";
import type { AppContext } from "../context.js";
import type { Watcher } from "../jobs/watch/pass.js";
import type { UserActor } from "../policies/actor.js";
import type { ProviderServices } from "../providers/client.js";
import type { WidgetData } from "./data.js";

/** A problem with a config key: a JSON Pointer within the config, and what is wrong. */
export interface ConfigIssue {
  path: string;
  message: string;
}

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
  /**
   * The outside data its config asks for (types whose contract's data is a `service`): served at
   * `GET /api/widgets/data?id=` and to visitors of public dashboards (data.ts).
   */
  // biome-ignore lint/suspicious/noExplicitAny: each type's query is its own; data.ts hands it the contract's.
  data?(ctx: AppContext): WidgetData<any>;
  /** Routes of its own beyond its data (a place search, a site's icon). */
  routes?: FastifyPluginAsyncTypebox<AppContext>;
  watchers?(deps: WatcherDeps): Watcher[];
  /**
   * Checks of a config its contract's schema cannot state and the browser need not carry (a
   * JMESPath query's syntax): a write that brings one is 400 with the issues' paths under `/config`.
   */
  configIssues?(config: unknown): readonly ConfigIssue[];
  /**
   * What editors may do through the widget (toggle a light, restart a container), by name:
   * `POST /api/widgets/action` (actions.ts) checks who asks and the input, and records each one.
   */
  actions?: Record<string, WidgetAction>;
}

/** One action of a widget type. */
export interface WidgetAction {
  /** The schema `input` must match; none when the action takes no input. */
  input?: TSchema;
  run(args: {
    ctx: AppContext;
    /** The widget's config, parsed. */
    // biome-ignore lint/suspicious/noExplicitAny: each type's config is its own.
    config: any;
    widgetId: string;
    /** The widget's owner, whose integrations it may use. */
    ownerId: string;
    actor: UserActor;
    // biome-ignore lint/suspicious/noExplicitAny: checked against `input` before the call.
    input: any;
  }): Promise<{ detail: string; result?: unknown }>;
}

export function defineWidgetServer(half: WidgetServer): WidgetServer {
  return half;
}
