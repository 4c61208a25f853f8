import type { AppContext } from "../../../server/context.js";
import type { WidgetData } from "../../../server/widgets/data.js";
import { defineWidgetServer } from "../../../server/widgets/kit.js";
import { ProxmoxDataSchema, type ProxmoxQuery } from "../contract.js";
import { proxmoxConfigIssues } from "./config-issues.js";
import { proxmoxSource } from "./source.js";

function proxmoxData(ctx: AppContext): WidgetData<ProxmoxQuery> {
  const load = proxmoxSource(ctx);
  return {
    response: ProxmoxDataSchema,
    summary: "The nodes and guests of a Proxmox VE widget on a public dashboard, without a session",
    description:
      "Through the owner's Proxmox VE integration (its API token stays on the server): each node's status, CPU, memory and uptime, and each virtual machine and container's id, name, state, CPU, memory and disk, narrowed to the nodes and kinds the widget names, at most 100 guests. 404 unless the dashboard is public and the widget is a Proxmox widget on it with an integration.",
    load: (query, _widgetId, _request, ownerId) => load(query, ownerId),
  };
}

export default defineWidgetServer({ data: proxmoxData, configIssues: proxmoxConfigIssues });
