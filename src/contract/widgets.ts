import { bookmarkWidget } from "./widgets/bookmark.js";
import { clockWidget } from "./widgets/clock.js";
import { codehostWidget } from "./widgets/codehost.js";
import { heatmapWidget } from "./widgets/codehost-heatmap.js";
import { countdownWidget } from "./widgets/countdown.js";
import { cryptoWidget } from "./widgets/crypto.js";
import { accountProvider, type WidgetTypeDefinition } from "./widgets/define.js";
import { editorWidget } from "./widgets/editor.js";
import { feedWidget } from "./widgets/feed.js";
import { frameWidget } from "./widgets/frame.js";
import { inboxWidget } from "./widgets/inbox.js";
import { kanbanWidget } from "./widgets/kanban.js";
import { meetingsWidget } from "./widgets/meetings.js";
import { statusWidget } from "./widgets/status.js";
import { todoWidget } from "./widgets/todo.js";
import { weatherWidget } from "./widgets/weather.js";

/**
 * Every widget type, one definition each (src/contract/widgets/<type>.ts): config schema and
 * parser, privacy, data source, alert hooks. The server and the web app both read these.
 */
export const WIDGET_DEFINITIONS = [
  bookmarkWidget,
  clockWidget,
  countdownWidget,
  cryptoWidget,
  editorWidget,
  frameWidget,
  heatmapWidget,
  codehostWidget,
  inboxWidget,
  kanbanWidget,
  meetingsWidget,
  todoWidget,
  weatherWidget,
  feedWidget,
  statusWidget,
] as const;

export type WidgetType = (typeof WIDGET_DEFINITIONS)[number]["type"];

/** Exact widget type values (the spec's, case as written), in the spec's order. */
export const WIDGET_TYPES: readonly WidgetType[] = WIDGET_DEFINITIONS.map((d) => d.type);

const byType = new Map<string, WidgetTypeDefinition>(
  WIDGET_DEFINITIONS.map((d) => [d.type, d as unknown as WidgetTypeDefinition]),
);

export function widgetDefinition(type: string): WidgetTypeDefinition | undefined {
  return byType.get(type);
}

/** Widget types that read the owner's connected accounts: never shown on public dashboards. */
export const PRIVATE_WIDGET_TYPES: readonly WidgetType[] = WIDGET_DEFINITIONS.filter(
  (d) => accountProvider(d) !== undefined,
).map((d) => d.type);

export function isPrivateWidgetType(type: string): boolean {
  return (PRIVATE_WIDGET_TYPES as readonly string[]).includes(type);
}

/** Geometry bounds (pixels) decided in DESIGN section 2. */
export const GEOMETRY_MAX = 100_000;
/** Serialized size limit for widget config objects. */
export const CONFIG_MAX_BYTES = 256 * 1024;
