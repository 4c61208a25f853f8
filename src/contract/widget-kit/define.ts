import type { Static, TObject } from "@sinclair/typebox";
import { LAYOUT_KEY, parseLayouts, type WidgetLayouts } from "../layout.js";
import type { Provider } from "../providers.js";
import type { ServerText } from "../server-text.js";
import { isRecord, parseConfig } from "./parse.js";

/** What a widget shows, and so who may see it. */
export type WidgetDataSource<C> =
  /** Only its own config (links, notes, a clock): a visitor of a public dashboard sees it too. */
  | { kind: "config" }
  /**
   * The owner's connected account, through /api/providers/<provider>: private, so such widgets
   * never appear on a public dashboard.
   */
  | { kind: "account"; provider: Provider }
  | ServiceDataSource<C, unknown>;

/**
 * A keyless outside service through our server. A visitor of a public dashboard gets the data
 * the stored config asks for, at /api/public/dashboards/:id/widgets/:widgetId/<publicRoute>, and
 * never data of the visitor's choosing.
 */
export interface ServiceDataSource<C, Q> {
  kind: "service";
  publicRoute: string;
  /** The request a (public view of a) config makes; null while it asks for nothing yet. */
  visitorQuery(config: C): Q | null;
}

/** One reminder a saved config asks for: a stable key within the widget, when, and what it says. */
export interface AlertRule {
  /** Stable across edits that do not touch this rule (a todo's id, not its position). */
  key: string;
  /** ISO 8601 instant (UTC, milliseconds) the reminder is due. */
  at: string;
  /** What the reminder says, put in the recipient's language when it fires. */
  text: ServerText;
}

/** A problem with a config key an alert reads, as the API's validation errors name it. */
export interface AlertConfigIssue {
  /** JSON Pointer within the config, e.g. `/todos/2/dueAt`. */
  path: string;
  message: string;
}

/**
 * Alerting hooks, the slot the alerts issue fills in (DESIGN section 11: Countdown `notify`,
 * Crypto `alerts`, Meetings `remindMinutesBefore`, Inbox `notifyNewMail`, Todo `dueAt`), so the
 * server's scheduler reads each widget type's rules from its definition, not from a second table.
 */
export interface WidgetAlertHooks<C> {
  /** The time-based reminders a parsed config asks for, each under a stable key. Pure. */
  rules?(config: C): readonly AlertRule[];
  /**
   * Whether the config asks the server to watch something over time (prices, calendars, mail):
   * such widgets are checked on the shared queue's periodic pass, not scheduled at an instant.
   */
  watched?(config: C): boolean;
  /**
   * Strict checks of the raw keys the rules read: the parser repairs a bad value away, but a
   * client that sends `notify: "yes"` is told (400) rather than silently getting no reminder.
   */
  check(raw: unknown): readonly AlertConfigIssue[];
}

/** What a widget type's file declares. */
interface WidgetTypeSpec<T extends string, S extends TObject, D extends WidgetDataSource<Static<S>>> {
  /** The API's value, exactly as the spec spells it. */
  type: T;
  /** Every key with a default or optional: the parser makes any stored value complete. */
  config: S;
  data: D;
  /** Legacy keys renamed to today's, before parsing: the one place older configs are read. */
  migrate?(raw: Record<string, unknown>): Record<string, unknown>;
  /** Rules across fields that the schema cannot state, applied after parsing. */
  refine?(config: Static<S>): Static<S>;
  /** What a visitor of a public dashboard may see of a parsed config; all of it when absent. */
  publicConfig?(config: Static<S>): Static<S>;
  alerts?: WidgetAlertHooks<Static<S>>;
  /**
   * Whether the type's folder has a server half (`server/index.ts`: its data routes, watchers):
   * the server loads the halves of the types that say so.
   */
  server?: boolean;
  /** Emoji the widget draws on its own (not typed by people): they get a small font slice of their own. */
  emoji?: readonly string[];
}

/**
 * A parsed config: the type's own keys, plus the grid's reserved `layout` key when the stored
 * config has usable cells there (src/contract/layout.ts). The grid owns that key.
 */
export type ParsedConfig<S extends TObject> = Static<S> & { [LAYOUT_KEY]?: WidgetLayouts };

/** One widget type, as the server and the web app both read it. */
export interface WidgetTypeDefinition<
  T extends string = string,
  S extends TObject = TObject,
  D extends WidgetDataSource<Static<S>> = WidgetDataSource<Static<S>>,
> {
  readonly type: T;
  readonly config: S;
  readonly data: D;
  /** Total: any stored value (missing, malformed, legacy) gives a complete, usable config. */
  parse(raw: unknown): ParsedConfig<S>;
  /** The config a new widget starts with. */
  defaults(): ParsedConfig<S>;
  publicConfig(config: ParsedConfig<S>): ParsedConfig<S>;
  readonly alerts: WidgetAlertHooks<Static<S>> | null;
  readonly server: boolean;
  readonly emoji: readonly string[];
}

export type WidgetConfigOf<D extends WidgetTypeDefinition> = ReturnType<D["parse"]>;

export function defineWidgetType<
  const T extends string,
  S extends TObject,
  D extends WidgetDataSource<Static<S>>,
>(spec: WidgetTypeSpec<T, S, D>): WidgetTypeDefinition<T, S, D> {
  const parse = (raw: unknown): ParsedConfig<S> => {
    const record = isRecord(raw) ? raw : {};
    const parsed = parseConfig(spec.config, spec.migrate ? spec.migrate(record) : record);
    const config: ParsedConfig<S> = spec.refine ? spec.refine(parsed) : parsed;
    const layout = parseLayouts(record[LAYOUT_KEY]);
    return layout ? { ...config, [LAYOUT_KEY]: layout } : config;
  };
  // A visitor's grid follows the owner's arrangement too, so the public view keeps the cells.
  const publicConfig = (config: ParsedConfig<S>): ParsedConfig<S> => {
    const shown: ParsedConfig<S> = spec.publicConfig ? spec.publicConfig(config) : config;
    const layout = config[LAYOUT_KEY];
    return layout ? { ...shown, [LAYOUT_KEY]: layout } : shown;
  };
  return {
    type: spec.type,
    config: spec.config,
    data: spec.data,
    parse,
    defaults: () => parse({}),
    publicConfig,
    alerts: spec.alerts ?? null,
    server: spec.server ?? false,
    emoji: spec.emoji ?? [],
  };
}

/** The provider whose account the widget reads, if it reads one: then it is private. */
export function accountProvider(definition: Pick<WidgetTypeDefinition, "data">): Provider | undefined {
  return definition.data.kind === "account" ? definition.data.provider : undefined;
}

/** Maps each item of a stored list that is an object; used by migrations of legacy item keys. */
export function mapRecords(
  value: unknown,
  map: (item: Record<string, unknown>) => Record<string, unknown>,
): unknown {
  return Array.isArray(value) ? value.map((item) => (isRecord(item) ? map(item) : item)) : value;
}
