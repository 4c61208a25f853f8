import type { ChangesListener } from "../db/changes.js";
import { badRequest } from "../http/errors.js";
import type { ListedServer } from "./registry.js";

/**
 * The DashboardChanges listener that refuses a write bringing a config its type's server half
 * finds wrong (`configIssues`), inside the writing transaction, so nothing of it is kept. A
 * restore puts back what a version held: not the client's input, so not judged again.
 */
export function widgetConfigChecks(servers: readonly ListedServer[]): ChangesListener {
  const checks = new Map(
    servers.flatMap(({ definition, server }) =>
      server.configIssues ? [[definition.type, server.configIssues] as const] : [],
    ),
  );
  return async (_tx, changes) => {
    if (checks.size === 0) return;
    if (changes.some((c) => c.kind === "dashboard.updated" && c.restoredFrom !== undefined)) return;
    for (const change of changes) {
      if (change.kind !== "widget.created" && !(change.kind === "widget.updated" && change.configChanged))
        continue;
      const issues = checks.get(change.widget.widgetType)?.(change.widget.config) ?? [];
      if (issues.length > 0)
        throw badRequest(
          "config is not valid",
          issues.map((issue) => ({ path: `/config${issue.path}`, message: issue.message })),
        );
    }
  };
}

/**
 * The issue of a whole number outside its range (a refresh in seconds), or null when it is absent
 * or fits: the parser would quietly put back its default, a write is told instead.
 */
export function wholeNumberIssue(value: unknown, path: string, min: number, max: number, unit = "seconds") {
  if (
    value === undefined ||
    (Number.isInteger(value) && (value as number) >= min && (value as number) <= max)
  )
    return null;
  return { path, message: `must be a whole number of ${unit} from ${min} to ${max}` };
}
