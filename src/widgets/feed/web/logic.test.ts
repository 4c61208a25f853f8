import { describe, expect, it } from "vitest";
import type { FeedResult } from "../../../web/lib/data-api";
import { describeFailures, mergeFeeds } from "./logic";

const item = (id: string, publishedAt: string | null) => ({
  id,
  title: id,
  url: `https://example.com/${id}`,
  publishedAt,
  summary: "",
});

describe("mergeFeeds", () => {
  it("lists the newest entries across feeds, undated ones last, and names failed feeds", () => {
    const results: FeedResult[] = [
      {
        url: "https://a.example/feed",
        title: "A",
        siteUrl: null,
        items: [item("a1", "2026-11-20T10:00:00.000Z"), item("a2", null)],
      },
      { url: "https://b.example/feed", error: { status: 502, code: "upstream_failed", detail: "down" } },
      {
        url: "https://c.example/feed",
        title: "C",
        siteUrl: null,
        items: [item("c1", "2026-11-22T10:00:00.000Z"), item("c2", "2026-11-19T10:00:00.000Z")],
      },
    ];
    const merged = mergeFeeds(results, 3);
    expect(merged.entries.map((e) => `${e.source}:${e.id}`)).toEqual(["C:c1", "A:a1", "C:c2"]);
    expect(merged.failures).toEqual([
      { url: "https://b.example/feed", error: { status: 502, code: "upstream_failed", detail: "down" } },
    ]);
    expect(mergeFeeds(results, 10).entries.at(-1)!.id).toBe("a2");
  });
});

describe("describeFailures", () => {
  const failure = (url: string, code: string, status = 502) => ({
    url,
    error: { status, code, detail: "the server's own words" },
  });
  it("names the host of the one feed that failed, by its problem code", () => {
    expect(describeFailures([failure("https://news.example.org/rss", "upstream_failed")])).toBe(
      "One feed could not be read: Can't reach news.example.org. Try again in a moment.",
    );
    expect(describeFailures([failure("https://slow.example:8443/atom", "upstream_timeout", 504)])).toMatch(
      /slow\.example:8443 didn't answer in time/,
    );
  });
  it("lists the hosts when several failed", () => {
    expect(
      describeFailures([
        failure("https://a.example/feed", "upstream_failed"),
        failure("https://b.example/feed", "upstream_timeout", 504),
      ]),
    ).toBe("2 feeds could not be read: a.example, b.example.");
  });
});
