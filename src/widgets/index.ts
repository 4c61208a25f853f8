import { accountProvider, type WidgetTypeDefinition } from "../contract/widget-kit/define.js";
import { adBlockingWidget } from "./ad-blocking/contract.js";
import { bookmarkWidget } from "./bookmark/contract.js";
import { calendarWidget } from "./calendar/contract.js";
import { clockWidget } from "./clock/contract.js";
import { codehostWidget } from "./codehost/contract.js";
import { heatmapWidget } from "./codehost-heatmap/contract.js";
import { countdownWidget } from "./countdown/contract.js";
import { cryptoWidget } from "./crypto/contract.js";
import { customApiWidget } from "./custom-api/contract.js";
import { dockerWidget } from "./docker/contract.js";
import { editorWidget } from "./editor/contract.js";
import { feedWidget } from "./feed/contract.js";
import { frameWidget } from "./frame/contract.js";
import { homeAssistantWidget } from "./home-assistant/contract.js";
import { inboxWidget } from "./inbox/contract.js";
import { jellyfinWidget } from "./jellyfin/contract.js";
import { kanbanWidget } from "./kanban/contract.js";
import { meetingsWidget } from "./meetings/contract.js";
import { proxmoxWidget } from "./proxmox/contract.js";
import { qbittorrentWidget } from "./qbittorrent/contract.js";
import { statusWidget } from "./status/contract.js";
import { todoWidget } from "./todo/contract.js";
import { upcomingMediaWidget } from "./upcoming-media/contract.js";
import { uptimeKumaWidget } from "./uptime-kuma/contract.js";
import { weatherWidget } from "./weather/contract.js";

/**
 * The list of widget types: the one place a type is named. Each lives in its folder,
 * src/widgets/<type>/ (`contract.ts`: config schema and parser, privacy, data source, alert hooks;
 * `web/index.tsx`: its view and settings; `server/index.ts` when its contract says `server: true`:
 * its routes and watchers). The server and the web app load each listed type from its folder.
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
  calendarWidget,
  customApiWidget,
  homeAssistantWidget,
  uptimeKumaWidget,
  adBlockingWidget,
  dockerWidget,
  proxmoxWidget,
  jellyfinWidget,
  qbittorrentWidget,
  upcomingMediaWidget,
] as const;

export type WidgetType = (typeof WIDGET_DEFINITIONS)[number]["type"];

/** Exact widget type values (the spec's, case as written), in the spec's order. */
export const WIDGET_TYPES: readonly WidgetType[] = WIDGET_DEFINITIONS.map((d) => d.type);

const byType = new Map<string, WidgetTypeDefinition>(
  WIDGET_DEFINITIONS.map((d) => [d.type, d as unknown as WidgetTypeDefinition]),
);

/** The folder of a widget type under src/widgets: its name in lower case, words joined by "-". */
export function widgetFolder(type: string): string {
  return type.toLowerCase().replaceAll(" ", "-");
}

/** Emoji the listed types draw on their own (the emoji font's small slices cover them). */
export const WIDGET_EMOJI: readonly string[] = WIDGET_DEFINITIONS.flatMap((d) => d.emoji);

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
