import { defineIntegrationKind } from "../kit.js";

/** Proxmox VE's API (pveproxy, https on port 8006) with an API token. */
export const proxmoxKind = defineIntegrationKind({
  kind: "proxmox",
  label: "Proxmox VE",
  description:
    "Nodes, virtual machines and containers of a Proxmox VE host or cluster, read with an API token (the PVEAuditor role is enough).",
  urlPlaceholder: "https://pve.lan:8006",
  secrets: [
    {
      name: "tokenId",
      label: "API token ID",
      required: true,
      help: "USER@REALM!TOKENID, e.g. monitor@pve!tessera. Make it under Datacenter, Permissions, API Tokens, Add, then give the token the PVEAuditor role on / under Permissions, Add, API Token Permission (with privilege separation the token needs a permission of its own).",
    },
    {
      name: "secret",
      label: "Secret",
      required: true,
      help: "The token's secret (a UUID), shown once when the token is made.",
    },
  ],
  headerSecrets: false,
});
