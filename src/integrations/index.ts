import { adguardKind } from "./adguard/definition.js";
import { customKind } from "./custom/definition.js";
import { dockerKind } from "./docker/definition.js";
import { homeAssistantKind } from "./homeassistant/definition.js";
import { icalKind } from "./ical/definition.js";
import { jellyfinKind } from "./jellyfin/definition.js";
import type { IntegrationKindDefinition } from "./kit.js";
import { piholeKind } from "./pihole/definition.js";
import { proxmoxKind } from "./proxmox/definition.js";
import { qbittorrentKind } from "./qbittorrent/definition.js";
import { radarrKind } from "./radarr/definition.js";
import { sonarrKind } from "./sonarr/definition.js";
import { uptimeKumaKind } from "./uptimekuma/definition.js";

/**
 * The list of integration kinds: the one place a kind is named. Each lives in its folder,
 * src/integrations/<kind>/ (`definition.ts`: what it takes; `server.ts`: how its secrets travel and
 * how a connection is tested; `fake.ts`: the honest fake its tests talk to).
 */
export const INTEGRATION_KINDS = [
  customKind,
  icalKind,
  uptimeKumaKind,
  homeAssistantKind,
  dockerKind,
  proxmoxKind,
  sonarrKind,
  radarrKind,
  jellyfinKind,
  qbittorrentKind,
  piholeKind,
  adguardKind,
] as const;

export type IntegrationKindName = (typeof INTEGRATION_KINDS)[number]["kind"];

const byKind = new Map<string, IntegrationKindDefinition>(INTEGRATION_KINDS.map((k) => [k.kind, k]));

export function integrationKind(kind: string): IntegrationKindDefinition | undefined {
  return byKind.get(kind);
}
