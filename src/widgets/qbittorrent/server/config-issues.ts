import { isRecord } from "../../../contract/widget-kit/parse.js";
import { wholeNumberIssue } from "../../../server/widgets/config-checks.js";
import type { ConfigIssue } from "../../../server/widgets/kit.js";
import { QBT_TORRENTS_SHOWN_MAX, QBT_TORRENTS_SHOWN_MIN } from "../contract.js";

/** A count the parser would quietly put back to its default is said to the writer instead (400). */
export function qbittorrentConfigIssues(raw: unknown): ConfigIssue[] {
  if (!isRecord(raw)) return [];
  const shown = wholeNumberIssue(
    raw.torrentsShown,
    "/torrentsShown",
    QBT_TORRENTS_SHOWN_MIN,
    QBT_TORRENTS_SHOWN_MAX,
    "torrents",
  );
  return shown ? [shown] : [];
}
