import type { TFunction } from "i18next";
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

/** A widget type's words in the reader's language (static keys, so the key checker sees them). */
const WORDS: Record<WidgetType, (t: TFunction) => { name: string; description: string }> = {
  Bookmark: (t) => ({ name: t("widgets.bookmark.name"), description: t("widgets.bookmark.description") }),
  Clock: (t) => ({ name: t("widgets.clock.name"), description: t("widgets.clock.description") }),
  Codehost: (t) => ({ name: t("widgets.codehost.name"), description: t("widgets.codehost.description") }),
  "Codehost Heatmap": (t) => ({
    name: t("widgets.codehostHeatmap.name"),
    description: t("widgets.codehostHeatmap.description"),
  }),
  Countdown: (t) => ({ name: t("widgets.countdown.name"), description: t("widgets.countdown.description") }),
  Crypto: (t) => ({ name: t("widgets.crypto.name"), description: t("widgets.crypto.description") }),
  Editor: (t) => ({ name: t("widgets.editor.name"), description: t("widgets.editor.description") }),
  Feed: (t) => ({ name: t("widgets.feed.name"), description: t("widgets.feed.description") }),
  Frame: (t) => ({ name: t("widgets.frame.name"), description: t("widgets.frame.description") }),
  Inbox: (t) => ({ name: t("widgets.inbox.name"), description: t("widgets.inbox.description") }),
  Kanban: (t) => ({ name: t("widgets.kanban.name"), description: t("widgets.kanban.description") }),
  Meetings: (t) => ({ name: t("widgets.meetings.name"), description: t("widgets.meetings.description") }),
  Status: (t) => ({ name: t("widgets.status.name"), description: t("widgets.status.description") }),
  Todo: (t) => ({ name: t("widgets.todo.name"), description: t("widgets.todo.description") }),
  Weather: (t) => ({ name: t("widgets.weather.name"), description: t("widgets.weather.description") }),
};

function words(type: WidgetType | string, t: TFunction) {
  return Object.hasOwn(WORDS, type) ? WORDS[type as WidgetType](t) : null;
}

/**
 * A widget type's name as the reader sees it (picker, card labels, toasts, settings title): `t`
 * from `useTranslation()` in components, so it follows a language switch. A type this build does
 * not know is named by its type, as its card is.
 */
export function widgetName(type: WidgetType | string, t: TFunction): string {
  return words(type, t)?.name ?? definitionFor(type).name;
}

/** A widget type's one-sentence description for the picker; empty for a type this build does not know. */
export function widgetDescription(type: WidgetType | string, t: TFunction): string {
  return words(type, t)?.description ?? definitionFor(type).description;
}
