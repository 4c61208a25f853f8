import { isRecord } from "../../../contract/widget-kit/parse.js";
import { wholeNumberIssue } from "../../../server/widgets/config-checks.js";
import type { ConfigIssue } from "../../../server/widgets/kit.js";
import { JELLYFIN_ID_PATTERN, JELLYFIN_LATEST_MAX, JELLYFIN_LATEST_MIN, jellyfinIdOf } from "../contract.js";

const ID = new RegExp(JELLYFIN_ID_PATTERN);

/**
 * What the parser would drop in silence, said to the writer instead (400): a user id that is no
 * Jellyfin id (the widget would quietly show the administrator's additions), a count out of range.
 */
export function jellyfinConfigIssues(raw: unknown): ConfigIssue[] {
  if (!isRecord(raw)) return [];
  const issues: ConfigIssue[] = [];
  if (raw.userId !== undefined && (typeof raw.userId !== "string" || !ID.test(jellyfinIdOf(raw.userId))))
    issues.push({ path: "/userId", message: "must be a Jellyfin user id: 32 hexadecimal digits" });
  const count = wholeNumberIssue(
    raw.latestCount,
    "/latestCount",
    JELLYFIN_LATEST_MIN,
    JELLYFIN_LATEST_MAX,
    "items",
  );
  if (count) issues.push(count);
  return issues;
}
