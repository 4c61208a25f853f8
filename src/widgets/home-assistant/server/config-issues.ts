import { isRecord } from "../../../contract/widget-kit/parse.js";
import { wholeNumberIssue } from "../../../server/widgets/config-checks.js";
import type { ConfigIssue } from "../../../server/widgets/kit.js";
import {
  HOME_ASSISTANT_ENTITIES_MAX,
  isEntityId,
  REFRESH_SECONDS_MAX,
  REFRESH_SECONDS_MIN,
} from "../contract.js";

/**
 * What the parser would repair away in silence, said to the writer instead (400 with the path
 * under `/config`): an entity id Home Assistant cannot have, more entities than a widget shows,
 * a refresh out of range.
 */
export function homeAssistantConfigIssues(raw: unknown): ConfigIssue[] {
  if (!isRecord(raw)) return [];
  const issues: ConfigIssue[] = [];
  if (Array.isArray(raw.entities)) {
    if (raw.entities.length > HOME_ASSISTANT_ENTITIES_MAX)
      issues.push({
        path: "/entities",
        message: `must hold at most ${HOME_ASSISTANT_ENTITIES_MAX} entities`,
      });
    raw.entities.forEach((entity, i) => {
      const id = isRecord(entity) ? entity.entityId : undefined;
      if (typeof id !== "string" || !isEntityId(id.trim().toLowerCase()))
        issues.push({
          path: `/entities/${i}/entityId`,
          message: "must be an entity id as Home Assistant writes it (light.kitchen)",
        });
    });
  } else if (raw.entities !== undefined) issues.push({ path: "/entities", message: "must be a list" });
  const refresh = wholeNumberIssue(
    raw.refreshSeconds,
    "/refreshSeconds",
    REFRESH_SECONDS_MIN,
    REFRESH_SECONDS_MAX,
  );
  if (refresh) issues.push(refresh);
  return issues;
}
