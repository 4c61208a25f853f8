import type { PveGuest, PveNode } from "../../../integrations/proxmox/api.js";
import { hasFigures } from "../../../integrations/proxmox/api.js";
import {
  type GuestStatus,
  PROXMOX_GUESTS_MAX,
  PROXMOX_NODES_MAX,
  type ProxmoxData,
  type ProxmoxGuest,
  type ProxmoxNode,
  type ProxmoxQuery,
} from "../contract.js";

/** What one integration's Proxmox answered, kept briefly and shared by every widget using it. */
export interface ProxmoxSnapshot {
  version: string | null;
  nodes: PveNode[];
  guests: PveGuest[];
}

const fraction = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? null : Math.min(1, Math.max(0, value));
const bytes = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) || value < 0 ? null : value;
const whole = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) || value < 0 ? null : Math.floor(value);
const short = (text: string, max: number) => text.slice(0, max);

export function nodeOf(node: PveNode): ProxmoxNode {
  const status = node.status === "online" || node.status === "offline" ? node.status : "unknown";
  return {
    name: short(node.node, 63),
    status,
    cpu: status === "online" ? fraction(node.cpu) : null,
    cpus: whole(node.maxcpu),
    memoryUsed: status === "online" ? bytes(node.mem) : null,
    memoryTotal: bytes(node.maxmem),
    uptimeSeconds: status === "online" ? whole(node.uptime) : null,
  };
}

const GUEST_STATUS: Record<string, GuestStatus> = {
  running: "running",
  stopped: "stopped",
  paused: "paused",
};

/** A guest as the widget shows it; null for what is no guest to show (a template, another type). */
export function guestOf(guest: PveGuest): ProxmoxGuest | null {
  if (guest.type !== "qemu" && guest.type !== "lxc") return null;
  if (guest.template === 1 || guest.template === true) return null;
  const vmid = guest.vmid ?? Number(guest.id.split("/")[1]);
  if (!Number.isInteger(vmid)) return null;
  const status = GUEST_STATUS[guest.status ?? ""] ?? "unknown";
  const running = status === "running" || status === "paused";
  return {
    id: short(guest.id, 100),
    vmid,
    name: guest.name ? short(guest.name, 200) : null,
    type: guest.type,
    node: short(guest.node, 63),
    status,
    cpu: running ? fraction(guest.cpu) : null,
    cpus: whole(guest.maxcpu),
    memoryUsed: running ? bytes(guest.mem) : null,
    memoryTotal: bytes(guest.maxmem),
    // QEMU cannot see into a VM's file systems: Proxmox answers 0, which is not "empty".
    diskUsed: guest.type === "lxc" && running ? bytes(guest.disk) : null,
    diskTotal: bytes(guest.maxdisk),
    uptimeSeconds: running ? whole(guest.uptime) : null,
  };
}

/** The nodes and guests one widget shows of a snapshot, as its config narrows them. */
export function selected(snapshot: ProxmoxSnapshot, query: ProxmoxQuery): ProxmoxData {
  const onNode = (name: string) => query.nodes.length === 0 || query.nodes.includes(name);
  const nodes = query.showNodes
    ? snapshot.nodes
        .filter((n) => onNode(n.node))
        .map(nodeOf)
        .sort((a, b) => a.name.localeCompare(b.name, "en", { numeric: true }))
        .slice(0, PROXMOX_NODES_MAX)
    : [];
  // The counts are of the chosen nodes and kinds; hiding stopped guests shortens the list only.
  const chosen =
    query.guests === "none"
      ? []
      : snapshot.guests
          .map(guestOf)
          .filter((g): g is ProxmoxGuest => g !== null)
          .filter((g) => onNode(g.node) && (query.guests === "all" || g.type === query.guests))
          .sort((a, b) => a.vmid - b.vmid);
  const summary = { running: 0, stopped: 0, other: 0 };
  for (const guest of chosen)
    if (guest.status === "running") summary.running++;
    else if (guest.status === "stopped") summary.stopped++;
    else summary.other++;
  const all = query.hideStopped ? chosen.filter((g) => g.status !== "stopped") : chosen;
  const blind = !snapshot.nodes.some(hasFigures) && snapshot.guests.length === 0;
  return {
    version: snapshot.version,
    nodes,
    guests: all.slice(0, PROXMOX_GUESTS_MAX),
    guestsTotal: all.length,
    summary,
    hint: blind ? "no-permission" : null,
  };
}
