import { isRecord } from "../../../contract/widget-kit/parse.js";
import { wholeNumberIssue } from "../../../server/widgets/config-checks.js";
import type { ConfigIssue } from "../../../server/widgets/kit.js";
import { REFRESH_SECONDS_MAX, REFRESH_SECONDS_MIN } from "../contract.js";

/** A refresh out of range, said to the writer (400 under `/config`) instead of repaired in silence. */
export function adBlockingConfigIssues(raw: unknown): ConfigIssue[] {
  if (!isRecord(raw)) return [];
  const refresh = wholeNumberIssue(
    raw.refreshSeconds,
    "/refreshSeconds",
    REFRESH_SECONDS_MIN,
    REFRESH_SECONDS_MAX,
  );
  return refresh ? [refresh] : [];
}
