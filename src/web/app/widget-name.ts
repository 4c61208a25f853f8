import type { WidgetDefinition } from "../widgets/types";

/**
 * A widget's name and description as the app shell shows them (picker, toasts, undo, share note,
 * import summary, palette). The one place to switch to the localized names from the widget
 * registry (`widgets.<type>.name`) once they land; until then the definitions' English.
 */
export function widgetName(definition: Pick<WidgetDefinition<object>, "name" | "type">): string {
  return definition.name;
}

export function widgetDescription(
  definition: Pick<WidgetDefinition<object>, "description" | "type">,
): string {
  return definition.description;
}
