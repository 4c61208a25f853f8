import { isRecord } from "../../../contract/widget-kit/parse.js";
import { wholeNumberIssue } from "../../../server/widgets/config-checks.js";
import type { ConfigIssue } from "../../../server/widgets/kit.js";
import {
  containerNameOf,
  DOCKER_CONTAINERS_MAX,
  DOCKER_DISPLAYS,
  DOCKER_FILTERS,
  isContainerName,
  REFRESH_SECONDS_MAX,
  REFRESH_SECONDS_MIN,
} from "../contract.js";

/**
 * What the parser would repair away in silence, said to the writer instead (400 with the path
 * under `/config`): a name Docker cannot give a container, more names than a widget shows, an
 * unknown filter or display, a refresh out of range.
 */
export function dockerConfigIssues(raw: unknown): ConfigIssue[] {
  if (!isRecord(raw)) return [];
  const issues: ConfigIssue[] = [];
  const oneOf = (key: string, values: readonly string[]) => {
    if (raw[key] !== undefined && !values.includes(raw[key] as string))
      issues.push({ path: `/${key}`, message: `must be one of: ${values.join(", ")}` });
  };
  oneOf("containers", DOCKER_FILTERS);
  if (Array.isArray(raw.names)) {
    if (raw.names.length > DOCKER_CONTAINERS_MAX)
      issues.push({ path: "/names", message: `must hold at most ${DOCKER_CONTAINERS_MAX} names` });
    raw.names.forEach((name, i) => {
      if (typeof name !== "string" || !isContainerName(containerNameOf(name)))
        issues.push({
          path: `/names/${i}`,
          message: "must be a container name as Docker writes it (letters, digits, _ . -)",
        });
    });
  } else if (raw.names !== undefined) issues.push({ path: "/names", message: "must be a list" });
  if (raw.stats !== undefined && typeof raw.stats !== "boolean")
    issues.push({ path: "/stats", message: "must be true or false" });
  oneOf("display", DOCKER_DISPLAYS);
  const refresh = wholeNumberIssue(
    raw.refreshSeconds,
    "/refreshSeconds",
    REFRESH_SECONDS_MIN,
    REFRESH_SECONDS_MAX,
  );
  if (refresh) issues.push(refresh);
  return issues;
}
