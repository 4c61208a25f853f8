import { type Static, Type } from "@sinclair/typebox";
import { upstreamFailed } from "../../server/http/errors.js";
import { answeredJson, type IntegrationCall } from "../../server/integrations/kit.js";
import type { IntegrationRequest } from "../../server/integrations/types.js";
import { defineSource } from "../../server/upstream/source.js";

/**
 * Proxmox VE's answers, as pve-manager 9.1 writes them: every answer is `{"data": …}`. Figures
 * are numbers (Perl's `+ 0`); a node without `Sys.Audit` for the caller, or one offline, comes
 * without them, and a guest the cluster has no figures for yet has only its id, node and
 * `status: "unknown"` (PVE::API2Tools::extract_node_stats / extract_vm_stats).
 */
const Figure = Type.Optional(Type.Number());
const Words = (max: number) => Type.Optional(Type.String({ maxLength: max }));

export const VersionAnswer = defineSource(
  Type.Object({
    data: Type.Object({ version: Type.String({ maxLength: 50 }), release: Words(50) }),
  }),
);

const NodeEntry = Type.Object({
  node: Type.String({ maxLength: 200 }),
  status: Words(40),
  cpu: Figure,
  maxcpu: Figure,
  mem: Figure,
  maxmem: Figure,
  uptime: Figure,
});
export type PveNode = Static<typeof NodeEntry>;
export const NodesAnswer = defineSource(Type.Object({ data: Type.Array(NodeEntry) }));

const GuestEntry = Type.Object({
  id: Type.String({ maxLength: 200 }),
  type: Type.String({ maxLength: 40 }),
  node: Type.String({ maxLength: 200 }),
  vmid: Type.Optional(Type.Integer()),
  name: Words(500),
  status: Words(40),
  cpu: Figure,
  maxcpu: Figure,
  mem: Figure,
  maxmem: Figure,
  disk: Figure,
  maxdisk: Figure,
  uptime: Figure,
  // 0 or 1 from pve-manager; a boolean from anything that re-encodes it.
  template: Type.Optional(Type.Union([Type.Number(), Type.Boolean()])),
});
export type PveGuest = Static<typeof GuestEntry>;
export const ResourcesAnswer = defineSource(Type.Object({ data: Type.Array(GuestEntry) }));

/** The API's paths: the integration's address is the host's (`https://pve.lan:8006`). */
export const PVE_PATHS = {
  version: "/api2/json/version",
  nodes: "/api2/json/nodes",
  guests: "/api2/json/cluster/resources?type=vm",
} as const;

/** The refusals pveJson made, so callers can tell a refused token from other failures. */
const refusals = new WeakSet<Error>();
export const isTokenRefusal = (error: unknown) => error instanceof Error && refusals.has(error);

/**
 * One call, its answer's JSON when it is a success. A refused token says why it usually is, as
 * pveproxy answers 401 with only a reason phrase ("No ticket", "invalid token value!").
 */
export async function pveJson(call: IntegrationCall, request: IntegrationRequest, name?: string) {
  const response = await call(request);
  if (response.status === 401) {
    const error = upstreamFailed(
      `Proxmox VE refused the API token${name ? ` of ${name}` : ""} (401): check the token ID (USER@REALM!TOKENID) and its secret, and that the token is enabled and not expired. Proxmox shows a secret only once: make a new token if it is lost`,
    );
    refusals.add(error);
    throw error;
  }
  return { json: answeredJson(response, name ?? "Proxmox VE"), response };
}

/** Whether Proxmox answered a node's figures (it leaves them out without `Sys.Audit` on it). */
export const hasFigures = (node: PveNode) => node.maxcpu !== undefined || node.maxmem !== undefined;

/**
 * What a token sees when it has no permission of its own: with privilege separation (the default)
 * its rights are the user's AND the token's, so a token without an ACL gets 200 with an empty
 * resource list and nodes without figures, never a 403.
 */
export const PERMISSION_HINT =
  "give the token the PVEAuditor role on / (Datacenter, Permissions, Add, API Token Permission): with privilege separation, a token needs a permission of its own";
