import type { WidgetType } from "../../contract/widgets";
import { bookmarkWidget } from "./Bookmark";
import { clockWidget } from "./Clock";
import { countdownWidget } from "./Countdown";
import { editorWidget } from "./Editor";
import { frameWidget } from "./Frame";
import { kanbanWidget } from "./Kanban";
import { todoWidget } from "./Todo";
import type { WidgetDefinition } from "./types";
import { unsupportedWidget } from "./Unsupported";

/** The widgets this build offers; only these appear in the picker. */
export const WIDGETS: readonly WidgetDefinition<object>[] = [
  clockWidget,
  countdownWidget,
  bookmarkWidget,
  todoWidget,
  kanbanWidget,
  editorWidget,
  frameWidget,
] as unknown as WidgetDefinition<object>[];

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
