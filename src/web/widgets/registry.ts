import type { WidgetType } from "../../contract/widgets";
import { bookmarkWidget } from "./Bookmark";
import { clockWidget } from "./Clock";
import { codehostWidget } from "./Codehost";
import { heatmapWidget } from "./CodehostHeatmap";
import { countdownWidget } from "./Countdown";
import { cryptoWidget } from "./Crypto";
import { editorWidget } from "./Editor";
import { feedWidget } from "./Feed";
import { frameWidget } from "./Frame";
import { inboxWidget } from "./Inbox";
import { kanbanWidget } from "./Kanban";
import { meetingsWidget } from "./Meetings";
import { statusWidget } from "./Status";
import { todoWidget } from "./Todo";
import type { WidgetDefinition } from "./types";
import { unsupportedWidget } from "./Unsupported";
import { weatherWidget } from "./Weather";

/** The widgets this build offers; only these appear in the picker. */
export const WIDGETS: readonly WidgetDefinition<object>[] = [
  clockWidget,
  countdownWidget,
  bookmarkWidget,
  todoWidget,
  kanbanWidget,
  editorWidget,
  frameWidget,
  weatherWidget,
  cryptoWidget,
  inboxWidget,
  meetingsWidget,
  codehostWidget,
  heatmapWidget,
  feedWidget,
  statusWidget,
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
