import { isRecord } from "../../../contract/widget-kit/parse.js";
import { wholeNumberIssue } from "../../../server/widgets/config-checks.js";
import type { ConfigIssue } from "../../../server/widgets/kit.js";
import {
  UPCOMING_DAYS_MAX,
  UPCOMING_DAYS_MIN,
  UPCOMING_INTEGRATIONS_MAX,
  UPCOMING_SHOW,
} from "../contract.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What the parser would repair away in silence, said to the writer instead (400 with the path
 * under `/config`): an integration id that is not one, more integrations than the widget asks,
 * days out of range, a `show` it does not know.
 */
export function upcomingMediaConfigIssues(raw: unknown): ConfigIssue[] {
  if (!isRecord(raw)) return [];
  const issues: ConfigIssue[] = [];
  const ids = raw.integrationIds;
  if (Array.isArray(ids)) {
    if (ids.length > UPCOMING_INTEGRATIONS_MAX)
      issues.push({
        path: "/integrationIds",
        message: `must hold at most ${UPCOMING_INTEGRATIONS_MAX} integrations`,
      });
    ids.forEach((id, i) => {
      if (typeof id !== "string" || !UUID.test(id.trim()))
        issues.push({
          path: `/integrationIds/${i}`,
          message: "must be the id of a Sonarr or Radarr integration",
        });
    });
  } else if (ids !== undefined) issues.push({ path: "/integrationIds", message: "must be a list" });
  const days = wholeNumberIssue(raw.days, "/days", UPCOMING_DAYS_MIN, UPCOMING_DAYS_MAX, "days");
  if (days) issues.push(days);
  if (raw.show !== undefined && !(UPCOMING_SHOW as readonly unknown[]).includes(raw.show))
    issues.push({ path: "/show", message: `must be one of ${UPCOMING_SHOW.join(", ")}` });
  return issues;
}
