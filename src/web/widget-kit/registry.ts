import type { TFunction } from "i18next";
import { WIDGET_TYPES, type WidgetType } from "../../widgets";
import { WIDGET_GROUPS, type WidgetDefinition } from "./types";
import { unsupportedWidget } from "./unsupported";

/**
 * Each listed type's view, from its folder (src/widgets/<type>/web/index.tsx): the list
 * (src/widgets/index.ts) names the types, and Vite bundles every folder's view.
 */
const views = import.meta.glob<WidgetDefinition<object>>("../../widgets/*/web/index.tsx", {
  eager: true,
  import: "default",
});

/** The widgets this build offers, in the picker's order (by group, then as listed); only these appear there. */
export const WIDGETS: readonly WidgetDefinition<object>[] = Object.values(views)
  .filter((view) => (WIDGET_TYPES as readonly string[]).includes(view.type))
  .sort(
    (a, b) =>
      WIDGET_GROUPS.indexOf(a.group) - WIDGET_GROUPS.indexOf(b.group) ||
      WIDGET_TYPES.indexOf(a.type) - WIDGET_TYPES.indexOf(b.type),
  );

const byType = new Map<string, WidgetDefinition<object>>(WIDGETS.map((d) => [d.type, d]));
const fallbacks = new Map<string, WidgetDefinition<object>>();

/** A stored widget of a type this build cannot show still gets a card (with Remove), never a crash. */
export function definitionFor(type: WidgetType | string): WidgetDefinition<object> {
  const known = byType.get(type);
  if (known) return known;
  let fallback = fallbacks.get(type);
  if (!fallback) {
    fallback = unsupportedWidget(type);
    fallbacks.set(type, fallback);
  }
  return fallback;
}

/**
 * A widget type's name as the reader sees it (picker, card labels, toasts, settings title): `t`
 * from `useTranslation()` in components, so it follows a language switch. A type this build does
 * not know is named by its type, as its card is.
 */
export function widgetName(type: WidgetType | string, t: TFunction): string {
  return definitionFor(type).words(t).name;
}

/** A widget type's one-sentence description for the picker; empty for a type this build does not know. */
export function widgetDescription(type: WidgetType | string, t: TFunction): string {
  return definitionFor(type).words(t).description;
}
