import { t } from "../i18n/i18n";
import { widgetDescription as describe, widgetName as nameOf } from "../widget-kit/registry";
import type { WidgetDefinition } from "../widget-kit/types";

/**
 * A widget's name and description in the reader's language, as the app shell shows them (picker,
 * toasts, undo, share note, import summary, palette, grid announcements).
 */
export function widgetName(definition: Pick<WidgetDefinition<object>, "type">): string {
  return nameOf(definition.type, t);
}

export function widgetDescription(definition: Pick<WidgetDefinition<object>, "type">): string {
  return describe(definition.type, t);
}
