import { isRecord } from "../../../contract/widget-kit/parse.js";
import type { ConfigIssue } from "../../../server/widgets/kit.js";
import { BOOKMARK_STATUS_MAX } from "../contract.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** "self", "off", or `{widgetId, checkId}`: what a link's `status` may be. */
function statusIssue(status: unknown): string | null {
  if (status === undefined || status === "self" || status === "off") return null;
  if (
    isRecord(status) &&
    typeof status.widgetId === "string" &&
    UUID.test(status.widgetId) &&
    typeof status.checkId === "string" &&
    status.checkId.length >= 1 &&
    status.checkId.length <= 100
  )
    return null;
  return 'must be "self", "off", or a Status check as {widgetId, checkId}';
}

/**
 * A link's status the parser would drop in silence (the dot would just not be there) is said to
 * the writer instead, as are more dots than a widget checks.
 */
export function bookmarkConfigIssues(raw: unknown): ConfigIssue[] {
  if (!isRecord(raw) || !Array.isArray(raw.bookmarks)) return [];
  const issues: ConfigIssue[] = [];
  let dots = 0;
  raw.bookmarks.forEach((bookmark, i) => {
    if (!isRecord(bookmark)) return;
    const problem = statusIssue(bookmark.status);
    if (problem) issues.push({ path: `/bookmarks/${i}/status`, message: problem });
    else if (bookmark.status !== undefined && bookmark.status !== "off") dots++;
  });
  if (dots > BOOKMARK_STATUS_MAX)
    issues.push({
      path: "/bookmarks",
      message: `at most ${BOOKMARK_STATUS_MAX} bookmarks may show a status`,
    });
  return issues;
}
