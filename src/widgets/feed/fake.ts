import { type FakeRequest, FakeServer } from "../../../test/fakes/oauth-http.js";

export const RSS = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
  <channel>
    <title>Release notes</title>
    <link>https://releases.example/</link>
    <item>
      <title>Version 2.0 — ünïcode 🎉</title>
      <link>/posts/2.0</link>
      <guid>v2</guid>
      <pubDate>Sun, 22 Nov 2026 10:00:00 GMT</pubDate>
      <description>&lt;p&gt;Big &lt;b&gt;news&lt;/b&gt; &amp;amp; more&lt;/p&gt;&lt;script&gt;alert(1)&lt;/script&gt;</description>
    </item>
    <item>
      <title>Version 1.0</title>
      <link>javascript:alert(1)</link>
      <guid>v1</guid>
      <pubDate>Fri, 20 Nov 2026 10:00:00 GMT</pubDate>
      <description>First</description>
    </item>
  </channel>
</rss>`;

export const ATOM = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Weekly digest</title>
  <link href="https://digest.example/"/>
  <id>urn:digest</id>
  <updated>2026-11-21T09:00:00Z</updated>
  <entry>
    <title>Issue 42</title>
    <link href="https://digest.example/42"/>
    <id>urn:digest:42</id>
    <updated>2026-11-21T09:00:00Z</updated>
    <summary>The answer</summary>
  </entry>
</feed>`;

/**
 * A feed whose every field is as long as the 4 MiB body allows it to be: 80 KB links and ids, long
 * titles, and a description of 128 Ki `<` (which the old tag stripper backtracked over for seconds).
 */
export const OVERSIZED = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
  <channel>
    <title>${"Long title ".repeat(1000)}</title>
    <link>https://site.example/${"s".repeat(80_000)}</link>
    <item>
      <title>${"t".repeat(10_000)}</title>
      <link>https://site.example/${"a".repeat(80_000)}</link>
      <guid>${"g".repeat(80_000)}</guid>
      <pubDate>Sun, 22 Nov 2026 10:00:00 GMT</pubDate>
      <description>${"word ".repeat(40_000)}</description>
    </item>
    <item>
      <title>5 &lt; 6 &lt;b&gt;bold&lt;/b&gt;</title>
      <link>https://site.example/short</link>
      <pubDate>Fri, 20 Nov 2026 10:00:00 GMT</pubDate>
      <description>${"&lt;".repeat(128 * 1024)}</description>
    </item>
  </channel>
</rss>`;

/**
 * A site serving feeds the way blogs do: RSS and Atom as XML, a redirect, a page that is not a
 * feed, a missing one and an endless body. Records what it was asked, Accept header included.
 */
export async function startFakeFeeds(redirectTo = "http://169.254.169.254/latest/meta-data") {
  return FakeServer.start((req: FakeRequest) => {
    const xml = (text: string, type: string) => ({ status: 200, text, headers: { "content-type": type } });
    switch (req.path) {
      case "/rss.xml":
        return xml(RSS, "application/rss+xml");
      case "/atom.xml":
        return xml(ATOM, "application/atom+xml");
      case "/moved":
        return { status: 301, text: "", headers: { location: "/atom.xml" } };
      case "/inside":
        return { status: 302, text: "", headers: { location: redirectTo } };
      case "/page.html":
        return xml("<!doctype html><html><body>Not a feed</body></html>", "text/html");
      case "/huge.xml":
        return xml(
          `<rss><channel><title>${"x".repeat(5 * 1024 * 1024)}</title></channel></rss>`,
          "application/xml",
        );
      case "/oversized.xml":
        return xml(OVERSIZED, "application/rss+xml");
      case "/broken.xml":
        return { status: 500, text: "oops" };
      default:
        return { status: 404, text: "not found" };
    }
  });
}
