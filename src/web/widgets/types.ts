import type { ComponentType } from "react";
import type { Provider } from "../../contract/providers";
import type { Widget } from "../../contract/resources";
import type { WidgetType } from "../../contract/widgets";
import type { AppSettings } from "../lib/app-settings";
import type { IconName } from "../ui/icons";

export interface WidgetProps<C> {
  widget: Widget;
  /** The parsed config: always complete, defaults filled in. */
  config: C;
  /** Replaces the config; the UI updates at once and the change is saved in the background. */
  update(next: C | ((current: C) => C)): void;
  settings: AppSettings;
  openSettings(): void;
}

export interface WidgetSettingsProps<C> {
  /** A draft: changes apply when the panel's Save is pressed. */
  config: C;
  onChange(next: C): void;
  settings: AppSettings;
}

/**
 * Everything the app knows about one widget type, in one object (Homarr's model): how it looks,
 * its size, its config defaults and parser, its settings form, and what the picker says about it.
 */
export interface WidgetDefinition<C extends object = object> {
  type: WidgetType;
  name: string;
  description: string;
  keywords: string[];
  icon: IconName;
  /** The connected account the widget reads; such widgets never appear on public dashboards. */
  provider?: Provider;
  /** Pixels, multiples of the grid step. */
  defaultSize: { width: number; height: number };
  minSize: { width: number; height: number };
  defaultConfig(): C;
  /** Total: any stored value (missing, malformed, from an older version) gives a usable config. */
  parseConfig(raw: unknown): C;
  /** Title shown in the widget's header; the name when absent. */
  title?(config: C): string | undefined;
  Component: ComponentType<WidgetProps<C>>;
  Settings?: ComponentType<WidgetSettingsProps<C>>;
  /** A small static picture for the picker. */
  Preview: ComponentType;
}

export function defineWidget<C extends object>(definition: WidgetDefinition<C>): WidgetDefinition<C> {
  return definition;
}
