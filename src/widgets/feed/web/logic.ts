import type { FeedFailure } from "../../../contract/data";
import type { Problem } from "../../../contract/errors";
import { t } from "../../../web/i18n/i18n";
import { ApiError } from "../../../web/lib/api";
import type { FeedItem, FeedResult } from "../../../web/lib/data-api";
import { describeDataError } from "../../../web/widget-kit/data/errors";

export type FeedFailureError = FeedFailure["error"];

export interface Entry extends FeedItem {
  /** The feed it came from, by its title. */
  source: string;
}

export interface Merged {
  entries: Entry[];
  /** The feeds that failed, with their problem (its `code` names the reason). */
  failures: { url: string; error: FeedFailureError }[];
}

/**
 * The newest `limit` entries across the widget's feeds, newest first (undated entries after the
 * dated ones, in their feed's order), and the feeds that could not be read.
 */
export function mergeFeeds(results: readonly FeedResult[], limit: number): Merged {
  const entries: Entry[] = [];
  const failures: Merged["failures"] = [];
  for (const result of results) {
    if ("error" in result) failures.push({ url: result.url, error: result.error });
    else for (const item of result.items) entries.push({ ...item, source: result.title });
  }
  const dated = entries
    .filter((e) => e.publishedAt)
    .sort((a, b) => (a.publishedAt! < b.publishedAt! ? 1 : -1));
  const undated = entries.filter((e) => !e.publishedAt);
  return { entries: [...dated, ...undated].slice(0, limit), failures };
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/**
 * What the widget says of the feeds it could not read, by problem code (never the server's
 * words) and by host, so a widget of five feeds says which one is down.
 */
export function describeFailures(failures: Merged["failures"]): string {
  if (failures.length !== 1)
    return t("widgets.feed.failed", {
      count: failures.length,
      hosts: failures.map((f) => hostOf(f.url)).join(", "),
    });
  const { url, error } = failures[0]!;
  const problem = { type: "about:blank", title: "", ...error } as Problem;
  const reason = describeDataError(new ApiError(error.status, problem, ""), { service: hostOf(url) });
  return t("widgets.feed.oneFailed", { reason: reason.trim() });
}
