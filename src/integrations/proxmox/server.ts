import { upstreamFailed } from "../../server/http/errors.js";
import { defineIntegrationServer } from "../../server/integrations/kit.js";
import {
  hasFigures,
  NodesAnswer,
  PERMISSION_HINT,
  PVE_PATHS,
  pveJson,
  ResourcesAnswer,
  VersionAnswer,
} from "./api.js";
import { tokenHeader } from "./token.js";

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * An API token in Proxmox VE's own header on every call. The test reads the version (any valid
 * token may), then what the token may see: one that sees neither a node's figures nor a guest
 * connects but shows nothing, which is a missing permission, not a working connection.
 */
export default defineIntegrationServer({
  headers: (secrets): Record<string, string> => ({ authorization: tokenHeader(secrets) }),
  async test(call) {
    const version = await pveJson(call, { path: PVE_PATHS.version, what: "its version" });
    const { version: number } = VersionAnswer.parse(version.json, version.response).data;
    const nodes = await pveJson(call, { path: PVE_PATHS.nodes, what: "its nodes" });
    const nodeList = NodesAnswer.parse(nodes.json, nodes.response).data;
    const guests = await pveJson(call, { path: PVE_PATHS.guests, what: "its guests" });
    // Templates are guests Proxmox lists, but nothing a dashboard shows.
    const guestList = ResourcesAnswer.parse(guests.json, guests.response).data.filter((g) => !g.template);
    if (!nodeList.some(hasFigures) && guestList.length === 0)
      throw upstreamFailed(
        `Proxmox VE ${number} accepted the token, but it may see nothing: ${PERMISSION_HINT}`,
      );
    return `Proxmox VE ${number}: ${counted(nodeList.length, "node", "nodes")}, ${counted(guestList.length, "guest", "guests")}`;
  },
});
