import type { FeedResult } from "../../../contract/data.js";
import { notFoundBecause, ProblemError, upstreamFailed } from "../../../server/http/errors.js";
import type { CachePolicy, Upstream } from "../../../server/upstream/upstream.js";

const ACCEPT = "application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5";

/**
 * A failing feed is not asked again by every dashboard that shows it (the address is a user's,
 * not to be hammered), and a feed changes over days, so its last copy outlives a failure.
 */
export const FEEDS: CachePolicy = {
  kind: "feed",
  fresh: "feed",
  failuresRemembered: true,
  staleIfError: true,
};

/**
 * Reads RSS and Atom feeds at addresses users typed. Every fetch goes through the upstream layer,
 * whose address guard keeps it off the server's own network, and each feed is cached
 * by its address, so a dashboard seen by many loads a feed once per freshness window.
 */
export function createFeedReader(upstream: Upstream) {
  const read = (url: string) =>
    upstream.cached(FEEDS, url, async () => {
      const host = new URL(url).host;
      const response = await upstream.fetch({
        url,
        service: host,
        what: "the feed",
        headers: { accept: ACCEPT },
      });
      if (response.status === 404 || response.status === 410)
        throw notFoundBecause(`${host} has no feed at ${url}`);
      if (response.status < 200 || response.status > 299)
        throw upstreamFailed(`${host} answered ${response.status} for the feed`);
      // The XML parser loads with the first feed read, not with every start.
      const { normaliseFeed } = await import("./normalise.js");
      try {
        return normaliseFeed(url, response.text);
      } catch {
        throw upstreamFailed(`${url} is not an RSS or Atom feed`);
      }
    });

  return {
    /** One result per address, in order: a feed, or what went wrong with that one alone. */
    async readAll(urls: readonly string[]): Promise<FeedResult[]> {
      return Promise.all(
        urls.map((url) =>
          read(url).catch((error: unknown): FeedResult => {
            if (!(error instanceof ProblemError)) throw error;
            return { url, error: { status: error.status, code: error.code, detail: error.detail } };
          }),
        ),
      );
    },
  };
}
