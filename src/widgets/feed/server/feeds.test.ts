import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeServer } from "../../../../test/fakes/oauth-http.js";
import { signedInClient, TestClient } from "../../../../test/support/client.js";
import { upstreamConfig } from "../../../../test/support/config.js";
import { MODES, type ModeEnv, prepareMode } from "../../../../test/support/modes.js";
import type { BuiltApp } from "../../../server/app.js";
import { startFakeFeeds } from "../fake.js";

const feedsUrl = (...urls: string[]) => `/api/feeds?urls=${encodeURIComponent(urls.join(" "))}`;

describe.each(MODES)("Feed widget data (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let guarded: BuiltApp;
  let site: FakeServer;
  let client: TestClient;

  beforeAll(async () => {
    site = await startFakeFeeds();
    mode = await prepareMode(modeName);
    // The fake site lives on loopback, which only an operator's allow-list opens.
    built = await mode.start({ upstream: upstreamConfig({ allowPrivate: ["127.0.0.1/32"] }) });
    guarded = await mode.start({ upstream: upstreamConfig({ allowPrivate: [] }) });
    client = await signedInClient(built.app, "Reader");
  });
  afterAll(async () => {
    await mode.teardown();
    await site.close();
  });

  it("needs a session", async () => {
    expect((await new TestClient(built.app).get(feedsUrl(`${site.url}/rss.xml`))).status).toBe(401);
  });

  it("reads RSS and Atom into one shape: plain text, absolute http(s) links only, newest first", async () => {
    const res = await client.get(feedsUrl(`${site.url}/rss.xml`, `${site.url}/atom.xml`));
    expect(res.status).toBe(200);
    const [rss, atom] = res.body;
    expect(rss).toMatchObject({
      url: `${site.url}/rss.xml`,
      title: "Release notes",
      siteUrl: "https://releases.example/",
    });
    expect(rss.items).toEqual([
      {
        id: "v2",
        title: "Version 2.0 — ünïcode 🎉",
        url: "https://releases.example/posts/2.0",
        publishedAt: "2026-11-22T10:00:00.000Z",
        summary: "Big news & more",
      },
      {
        id: "v1",
        title: "Version 1.0",
        url: null,
        publishedAt: "2026-11-20T10:00:00.000Z",
        summary: "First",
      },
    ]);
    expect(atom).toMatchObject({
      title: "Weekly digest",
      items: [{ title: "Issue 42", url: "https://digest.example/42" }],
    });
    expect(site.calls("/rss.xml")[0]!.headers.accept).toContain("application/rss+xml");
  });

  it("fetches a feed once per freshness window, however many ask", async () => {
    const before = site.calls("/atom.xml").length;
    const answers = await Promise.all([1, 2, 3].map(() => client.get(feedsUrl(`${site.url}/atom.xml`))));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(site.calls("/atom.xml").length - before).toBeLessThanOrEqual(1);
  });

  it("follows a redirect to a feed", async () => {
    const res = await client.get(feedsUrl(`${site.url}/moved`));
    expect(res.status).toBe(200);
    expect(res.body[0].title).toBe("Weekly digest");
  });

  it("reports a failing feed beside the good ones, and answers the failure when none could be read", async () => {
    const mixed = await client.get(
      feedsUrl(`${site.url}/rss.xml`, `${site.url}/broken.xml`, `${site.url}/page.html`),
    );
    expect(mixed.status).toBe(200);
    expect(mixed.body[1]).toMatchObject({
      url: `${site.url}/broken.xml`,
      error: { status: 502, code: "upstream_failed" },
    });
    expect(mixed.body[2].error.detail).toMatch(/not an RSS or Atom feed/);
    const none = await client.get(feedsUrl(`${site.url}/missing.xml`));
    expect(none.status).toBe(404);
    expect(none.headers["content-type"]).toContain("application/problem+json");
  });

  it("bounds every field of an entry, however long the feed makes it", async () => {
    const res = await client.get(feedsUrl(`${site.url}/oversized.xml`));
    expect(res.status).toBe(200);
    const [feed] = res.body;
    expect(feed.title.length).toBeLessThanOrEqual(300);
    // A link too long to be a real address is left out rather than cut into another address.
    expect(feed.siteUrl).toBeNull();
    const [long, short] = feed.items;
    expect(long.url).toBeNull();
    expect(long.id.length).toBeLessThanOrEqual(500);
    expect(long.title.length).toBeLessThanOrEqual(300);
    expect(long.summary.length).toBeLessThanOrEqual(300);
    expect(short).toMatchObject({ title: "5 < 6 bold", url: "https://site.example/short" });
    expect(short.summary).toMatch(/^<{299}…$/);
    // Two entries of a 1.1 MB feed: what is kept and served is a few KB.
    expect(res.text.length).toBeLessThan(4096);
  });

  it("refuses a body past 4 MiB without reading it all", async () => {
    const res = await client.get(feedsUrl(`${site.url}/huge.xml`));
    expect(res.status).toBe(502);
    expect(res.body.detail).toMatch(/oversized/);
  });

  it("refuses addresses that are not http(s) or too many of them", async () => {
    expect((await client.get(feedsUrl("javascript:alert(1)"))).body.code).toBe("validation_failed");
    const nine = Array.from({ length: 9 }, (_, i) => `${site.url}/rss.xml?${i}`);
    expect((await client.get(feedsUrl(...nine))).status).toBe(400);
    expect((await client.get("/api/feeds")).status).toBe(400);
  });

  describe("without an allow-list, the server's own network is out of reach", () => {
    let reader: TestClient;
    beforeAll(async () => {
      reader = await signedInClient(guarded.app, "Guarded");
    });

    it.each([
      ["loopback", () => `${site.url}/rss.xml`],
      ["a name that resolves to loopback", () => `${site.url.replace("127.0.0.1", "localhost")}/rss.xml`],
      ["IPv6 loopback", () => "http://[::1]:9/feed"],
      ["the cloud metadata address", () => "http://169.254.169.254/latest/meta-data"],
      ["a private network", () => "http://192.168.1.1/feed"],
      ["IPv4 written as IPv6", () => "http://[::ffff:127.0.0.1]:9/feed"],
    ])("refuses %s with 400 address_not_allowed and sends nothing", async (_, target) => {
      const before = site.requests.length;
      const res = await reader.get(feedsUrl(target()));
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("address_not_allowed");
      expect(site.requests.length).toBe(before);
    });
  });

  it("checks every redirect: an allowed site cannot send the server into the private network", async () => {
    const res = await client.get(feedsUrl(`${site.url}/inside`));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("address_not_allowed");
  });

  it("serves a public dashboard's Feed widget to visitors, only for its stored feeds", async () => {
    const dashboardId = (await client.post("/api/dashboards", { name: "News" })).body.id;
    const widget = (
      await client.post("/api/widgets", {
        dashboardId,
        widgetType: "Feed",
        height: 300,
        width: 300,
        positionX: 0,
        positionY: 0,
        config: { feeds: [{ id: "f1", url: `${site.url}/atom.xml` }], limit: 5 },
      })
    ).body;
    const path = `/api/public/dashboards/${dashboardId}/widgets/${widget.id}/feeds`;
    const visitor = new TestClient(built.app);
    expect((await visitor.get(path)).status).toBe(404);
    await client.put("/api/dashboards", { id: dashboardId, name: "News", isPublic: true });
    const res = await visitor.get(`${path}?urls=${encodeURIComponent("http://192.168.1.1/")}`);
    expect(res.status).toBe(200);
    expect(res.body.map((f: { url: string }) => f.url)).toEqual([`${site.url}/atom.xml`]);
  });
});
