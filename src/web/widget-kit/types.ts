import type { TFunction } from "i18next";
import { type ComponentType, createElement } from "react";
import type { Provider } from "../../contract/providers";
import type { Widget } from "../../contract/resources";
import {
  accountProvider,
  type WidgetConfigOf,
  type WidgetTypeDefinition,
} from "../../contract/widget-kit/define";
import type { PatchOperation } from "../../contract/widget-patch";
import type { WidgetType } from "../../widgets/index";
import type { AppSettings } from "../lib/app-settings";
import type { IconName } from "../ui/icons";
import { type SettingsLayout, type SettingsPart, settingsLayout } from "./settings/SettingsForm";

export type { WidgetSettingsProps } from "./settings/SettingsForm";
export type { PatchOperation };

/** A change of one part of a config, as `patch` takes it. */
export interface ConfigChange<C> {
  /** The change as this tab draws it at once (as a function given to `update`). */
  apply(current: C): C;
  /**
   * The same change as JSON Patch operations (RFC 6902) on `current`, paths inside the config
   * ("/todos/3/done"); a `test` of the item's id first guards against the list having moved
   * under it. [] when there is nothing to do.
   */
  ops(current: C): PatchOperation[];
}

export interface WidgetProps<C> {
  widget: Widget;
  /** The parsed config: always complete, defaults filled in. */
  config: C;
  /** Replaces the config; the UI updates at once and the change is saved in the background. */
  update(next: C | ((current: C) => C)): void;
  /**
   * Changes one part of the config: the server applies `change.ops` to the config as stored at
   * that moment, so someone else's change of another part survives (two people ticking different
   * to-dos both land). Drawn at once, as `update` is; saved whole where operations cannot say it.
   */
  patch(change: ConfigChange<C>): void;
  settings: AppSettings;
  openSettings(): void;
  /**
   * A visitor's view of a public dashboard: nothing to add, edit, reorder or remove, no inputs;
   * lists are plain lists and notes are rendered. `update` does nothing there.
   */
  readOnly: boolean;
}

/** A size on the dashboard grid: columns (60 px at the widest breakpoint) and 20 px rows. */
export interface GridSize {
  columns: number;
  rows: number;
}

/**
 * Everything the app knows about one widget type, in one object (Homarr's model). The config,
 * its parser and defaults and whether the widget is private come from the type's contract
 * definition (src/widgets/<type>/contract.ts); the rest is how it looks.
 */
/** Where the picker shows a type: what it is about, in this order. */
export const WIDGET_GROUPS = ["time", "content", "data", "account"] as const;
export type WidgetGroup = (typeof WIDGET_GROUPS)[number];

/** One thing inside a widget that the command palette can find (a bookmark, a note). */
export interface FindableItem {
  kind: "bookmark" | "note";
  itemId: string;
  label: string;
  detail: string;
  /** A bookmark's address; the note's text for a note. */
  text: string;
}

export interface WidgetDefinition<C extends object = object> {
  type: WidgetType;
  /**
   * Its name and description in the reader's language, from the catalogs (static keys, so the key
   * checker sees them); `widgetName()` and `widgetDescription()` in registry.ts read them.
   */
  words(t: TFunction): { name: string; description: string };
  group: WidgetGroup;
  /** What the command palette finds inside it. */
  findables?(config: C): FindableItem[];
  keywords: string[];
  icon: IconName;
  /** The connected account the widget reads; such widgets never appear on public dashboards. */
  provider?: Provider;
  /** Its size when added, in grid columns and rows. */
  defaultSize: GridSize;
  /** Its size when added while its account is not usable yet: room for the prompt, no more. */
  setupSize?: GridSize;
  minSize: GridSize;
  defaultConfig(): C;
  /** Total: any stored value (missing, malformed, from an older version) gives a usable config. */
  parseConfig(raw: unknown): C;
  /** Title shown in the widget's header (in the current language); the name when absent. */
  title?(config: C): string | undefined;
  Component: ComponentType<WidgetProps<C>>;
  /** The settings panel; no settings button when absent. */
  settings?: SettingsLayout<C>;
  /**
   * The settings panel lists the account's own data (labels, calendars): until the account is
   * usable it says what the widget says, and there is nothing to save. The widget's words for
   * why to connect ("to see your mail here").
   */
  settingsNeedAccount?: { purpose: string };
  /** A small static picture for the picker. */
  Preview: ComponentType;
  /**
   * Ready-made configs the picker offers beside the widget (Custom API recipes for popular
   * services), loaded when the picker opens: none of it is in the first bundle.
   */
  templates?(): Promise<readonly WidgetRecipe[]>;
}

/** One ready-made config of a widget type, as the picker lists it. */
export interface WidgetRecipe {
  id: string;
  /** The service it is for, as its makers spell it ("Speedtest Tracker"). */
  name: string;
  description: string;
  config: object;
  /** What the service needs set up in an integration (`X-Api-Key`), by name. */
  secretNames: readonly string[];
}

/** What a widget's folder adds to its contract definition. */
export interface WidgetView<C extends object>
  extends Pick<
    WidgetDefinition<C>,
    | "words"
    | "group"
    | "findables"
    | "keywords"
    | "icon"
    | "defaultSize"
    | "setupSize"
    | "minSize"
    | "settingsNeedAccount"
    | "title"
    | "Component"
    | "Preview"
    | "templates"
  > {
  /**
   * The settings panel, top to bottom: simple fields generated from the config schema (by key),
   * custom components where a field needs more. No settings button when absent.
   */
  settings?: SettingsPart<C>[];
}

export function defineWidget<D extends WidgetTypeDefinition>(
  contract: D,
  view: WidgetView<WidgetConfigOf<D>>,
): WidgetDefinition<WidgetConfigOf<D>> {
  const { settings, ...looks } = view;
  return {
    ...looks,
    type: contract.type as WidgetType,
    provider: accountProvider(contract),
    defaultConfig: contract.defaults as () => WidgetConfigOf<D>,
    parseConfig: contract.parse as (raw: unknown) => WidgetConfigOf<D>,
    settings: settings && settingsLayout(contract.config, settings),
  };
}

/**
 * The component of a widget that a visitor of a public page sees as `View` (a plain list, rendered
 * notes: nothing to add, drag or change) and its owner as `Editor`.
 */
export function withReadOnlyView<C>(
  Editor: ComponentType<WidgetProps<C>>,
  View: ComponentType<WidgetProps<C>>,
): ComponentType<WidgetProps<C>> {
  return function EditableWidget(props: WidgetProps<C>) {
    return createElement(props.readOnly ? View : Editor, props);
  };
}
