import { isRecord } from "../../../contract/widget-kit/parse.js";
import { wholeNumberIssue } from "../../../server/widgets/config-checks.js";
import type { ConfigIssue } from "../../../server/widgets/kit.js";
import { REFRESH_SECONDS_MAX, REFRESH_SECONDS_MIN } from "../contract.js";
import { queryProblem } from "../query.js";

/**
 * What the schema cannot say about a config as written: each JMESPath query must parse and call
 * only known functions, so a widget never saves a query that could only fail. The parser would
 * drop such an item silently; the writer is told instead (400 `/config/fields/0/query`).
 */
export function customApiConfigIssues(raw: unknown): ConfigIssue[] {
  if (!isRecord(raw)) return [];
  const issues: ConfigIssue[] = [];
  const checkQuery = (value: unknown, path: string) => {
    const problem = typeof value === "string" ? queryProblem(value) : "must be a JMESPath expression";
    if (problem) issues.push({ path, message: problem });
  };
  if (Array.isArray(raw.fields))
    raw.fields.forEach((field, i) => {
      if (isRecord(field)) checkQuery(field.query, `/fields/${i}/query`);
    });
  if (isRecord(raw.list)) {
    checkQuery(raw.list.query, "/list/query");
    if (Array.isArray(raw.list.columns))
      raw.list.columns.forEach((column, i) => {
        if (isRecord(column)) checkQuery(column.query, `/list/columns/${i}/query`);
      });
  }
  const refresh = wholeNumberIssue(
    raw.refreshSeconds,
    "/refreshSeconds",
    REFRESH_SECONDS_MIN,
    REFRESH_SECONDS_MAX,
  );
  if (refresh) issues.push(refresh);
  return issues;
}
