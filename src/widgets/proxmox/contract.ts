import type { Static, TSchema } from "@sinclair/typebox";
import { Type } from "../../contract/typebox.js";
import { defineWidgetType } from "../../contract/widget-kit/define.js";
import { Matching, OneOf } from "../../contract/widget-kit/fields.js";
import type { RepairKeywords } from "../../contract/widget-kit/parse.js";

/**
 * The Proxmox VE widget (DESIGN section 16): the nodes and guests (virtual machines and
 * containers) of a saved `proxmox` integration, read with its API token on the server. Read only.
 */

/** A widget lists at most this many guests; the rest are counted ("and 40 more"). */
export const PROXMOX_GUESTS_MAX = 100;
/** Clusters are small (Proxmox supports 32 nodes per cluster at most in practice). */
export const PROXMOX_NODES_MAX = 32;
/** Node names a widget may be narrowed to. */
export const PROXMOX_NODE_FILTER_MAX = 16;
export const REFRESH_SECONDS_MIN = 10;
export const REFRESH_SECONDS_MAX = 3600;
export const REFRESH_SECONDS_DEFAULT = 30;

/** Proxmox's node name (`pve-node`): a host name's first label. */
export const NODE_NAME_PATTERN = "^[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$";
const nodeNameExpression = new RegExp(NODE_NAME_PATTERN);
export const isNodeName = (value: string) => nodeNameExpression.test(value);

const UUID = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";
const nodeKeywords: RepairKeywords = { clean: (s) => s.trim() || undefined };

/** Which guests: all, only virtual machines (qemu), only containers (lxc), or none (nodes only). */
export const GUEST_KINDS = ["all", "qemu", "lxc", "none"] as const;
export type GuestKind = (typeof GUEST_KINDS)[number];

export const ProxmoxConfig = Type.Object({
  /** A saved integration of kind `proxmox` the widget's owner may use. */
  integrationId: Type.Optional(Matching(UUID, { clean: (s) => s.toLowerCase() })),
  /** Only these nodes and their guests; empty: every node. */
  nodes: Type.Array(Type.String({ pattern: NODE_NAME_PATTERN, maxLength: 63, ...nodeKeywords }), {
    default: [],
    maxItems: PROXMOX_NODE_FILTER_MAX,
    uniqueItems: true,
  }),
  guests: OneOf(GUEST_KINDS, { default: "all" }),
  showNodes: Type.Boolean({ default: true }),
  /** Stopped guests are left out (running, paused and unknown ones stay). */
  hideStopped: Type.Boolean({ default: false }),
  refreshSeconds: Type.Integer({
    minimum: REFRESH_SECONDS_MIN,
    maximum: REFRESH_SECONDS_MAX,
    default: REFRESH_SECONDS_DEFAULT,
  }),
});
export type ProxmoxConfig = Static<typeof ProxmoxConfig>;

/** What the server loads for a config: the integration, and which of its nodes and guests. */
export interface ProxmoxQuery {
  integrationId: string;
  nodes: string[];
  guests: GuestKind;
  showNodes: boolean;
  hideStopped: boolean;
}

export const NODE_STATUSES = ["online", "offline", "unknown"] as const;
export const GUEST_STATUSES = ["running", "stopped", "paused", "unknown"] as const;
export type GuestStatus = (typeof GUEST_STATUSES)[number];

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Fraction = Nullable(Type.Number({ minimum: 0, maximum: 1 }));
const Bytes = Nullable(Type.Number({ minimum: 0 }));

export const ProxmoxNodeSchema = Type.Object({
  name: Type.String(),
  status: Type.Union(NODE_STATUSES.map((s) => Type.Literal(s))),
  /** The share of its CPUs in use, 0 to 1; null when Proxmox gave no figures (offline, or no permission). */
  cpu: Fraction,
  cpus: Nullable(Type.Integer()),
  memoryUsed: Bytes,
  memoryTotal: Bytes,
  uptimeSeconds: Nullable(Type.Integer({ minimum: 0 })),
});
export type ProxmoxNode = Static<typeof ProxmoxNodeSchema>;

export const ProxmoxGuestSchema = Type.Object({
  /** `qemu/101`, unique in the cluster. */
  id: Type.String(),
  vmid: Type.Integer(),
  /** null when the cluster has no figures for it yet (its node is offline). */
  name: Nullable(Type.String()),
  type: Type.Union([Type.Literal("qemu"), Type.Literal("lxc")]),
  node: Type.String(),
  status: Type.Union(GUEST_STATUSES.map((s) => Type.Literal(s))),
  /** The share of its own CPUs in use, 0 to 1. */
  cpu: Fraction,
  cpus: Nullable(Type.Integer()),
  memoryUsed: Bytes,
  memoryTotal: Bytes,
  /** Containers only: Proxmox cannot see inside a virtual machine's disks, so null for VMs. */
  diskUsed: Bytes,
  diskTotal: Bytes,
  uptimeSeconds: Nullable(Type.Integer({ minimum: 0 })),
});
export type ProxmoxGuest = Static<typeof ProxmoxGuestSchema>;

export const ProxmoxDataSchema = Type.Object(
  {
    /** Proxmox VE's version ("9.1.3"). */
    version: Nullable(Type.String()),
    nodes: Type.Array(ProxmoxNodeSchema),
    guests: Type.Array(ProxmoxGuestSchema),
    /** How many guests the list holds before it was cut to PROXMOX_GUESTS_MAX. */
    guestsTotal: Type.Integer(),
    /** The guests of the chosen nodes and kinds by state, stopped ones counted even when hidden. */
    summary: Type.Object({ running: Type.Integer(), stopped: Type.Integer(), other: Type.Integer() }),
    /**
     * `no-permission`: the token sees no node's figures and no guest, which is what a token with
     * privilege separation and no permission of its own gets (200, empty), not an empty cluster.
     */
    hint: Nullable(Type.Literal("no-permission")),
  },
  { description: "The nodes and guests of a Proxmox VE widget, filtered as its config says" },
);
export type ProxmoxData = Static<typeof ProxmoxDataSchema>;

export const proxmoxWidget = defineWidgetType({
  type: "Proxmox",
  server: true,
  config: ProxmoxConfig,
  data: {
    kind: "service",
    publicRoute: "proxmox",
    visitorQuery: ({
      integrationId,
      nodes,
      guests,
      showNodes,
      hideStopped,
    }: ProxmoxConfig): ProxmoxQuery | null =>
      integrationId ? { integrationId, nodes, guests, showNodes, hideStopped } : null,
  },
});
