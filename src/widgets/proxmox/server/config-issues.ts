import { isRecord } from "../../../contract/widget-kit/parse.js";
import { wholeNumberIssue } from "../../../server/widgets/config-checks.js";
import type { ConfigIssue } from "../../../server/widgets/kit.js";
import {
  GUEST_KINDS,
  isNodeName,
  PROXMOX_NODE_FILTER_MAX,
  REFRESH_SECONDS_MAX,
  REFRESH_SECONDS_MIN,
} from "../contract.js";

/**
 * What the parser would repair away in silence, said to the writer instead (400 with the path
 * under `/config`): a node name Proxmox cannot have (the widget would quietly show every node),
 * an unknown kind of guest, a refresh out of range.
 */
export function proxmoxConfigIssues(raw: unknown): ConfigIssue[] {
  if (!isRecord(raw)) return [];
  const issues: ConfigIssue[] = [];
  if (Array.isArray(raw.nodes)) {
    if (raw.nodes.length > PROXMOX_NODE_FILTER_MAX)
      issues.push({ path: "/nodes", message: `must name at most ${PROXMOX_NODE_FILTER_MAX} nodes` });
    raw.nodes.forEach((node, i) => {
      if (typeof node !== "string" || !isNodeName(node.trim()))
        issues.push({
          path: `/nodes/${i}`,
          message: "must be a node's name as Proxmox shows it (letters, digits and hyphens, like pve1)",
        });
    });
  } else if (raw.nodes !== undefined)
    issues.push({ path: "/nodes", message: "must be a list of node names" });
  if (raw.guests !== undefined && !(GUEST_KINDS as readonly unknown[]).includes(raw.guests))
    issues.push({ path: "/guests", message: `must be one of ${GUEST_KINDS.join(", ")}` });
  for (const key of ["showNodes", "hideStopped"] as const)
    if (raw[key] !== undefined && typeof raw[key] !== "boolean")
      issues.push({ path: `/${key}`, message: "must be true or false" });
  const refresh = wholeNumberIssue(
    raw.refreshSeconds,
    "/refreshSeconds",
    REFRESH_SECONDS_MIN,
    REFRESH_SECONDS_MAX,
  );
  if (refresh) issues.push(refresh);
  return issues;
}
