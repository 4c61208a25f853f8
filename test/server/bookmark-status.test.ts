import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import type { Upstream } from "../../src/server/upstream/upstream.js";
import { publicAddress } from "../../src/widgets/bookmark/server/public-address.js";
import { type StatusSite, startStatusSite } from "../../src/widgets/status/fake.js";
import { statusCheckWatcher } from "../../src/widgets/status/server/checks.js";
import { TestClient } from "../support/client.js";
import { upstreamConfig } from "../support/config.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";
import { expectProblem } from "../support/problems.js";
import { watchPassOn } from "../support/watch-pass.js";

/**
 * App tiles: a Bookmark widget's links with a status dot, through the API as a browser reads them
 * (GET /api/bookmarks/status and its public twin). A dot checks the link's own address (HEAD, GET
 * when refused, through the address guard, kept 30 s) or shows the state the Status widget's
 * watch pass recorded for one of the owner's checks. The sites are local fakes that log every
 * request.
 */

interface Dot {
  id: string;
  state: "up" | "down" | "unknown";
  reason: string | null;
  httpStatus: number | null;
  latencyMs: number | null;
  checkedAt: string | null;
}

for (const modeName of MODES) {
  describe(`Bookmark status dots (${modeName})`, { timeout: 120_000 }, () => {
    let mode: ModeEnv;
    let built: BuiltApp;
    /** An app whose address guard allows no private address. */
    let guarded: BuiltApp;
    let ok: StatusSite;
    let failing: StatusSite;
    let noHead: StatusSite;
    let gone: StatusSite;
    let owner: TestClient;
    let viewer: TestClient;
    let other: TestClient;
    const time = { now: Date.parse("2026-11-28T10:00:00.000Z") };

    beforeAll(async () => {
      [ok, failing, noHead, gone] = await Promise.all([
        startStatusSite(200),
        startStatusSite(503),
        startStatusSite(200, { refuseHead: true }),
        startStatusSite(200),
      ]);
      await gone.stop();
      mode = await prepareMode(modeName);
      // The sites live on loopback, which only the operator's allow-list opens.
      built = await mode.start(
        { rateLimitEnabled: false, upstream: upstreamConfig({ allowPrivate: ["127.0.0.1"] }) },
        { clock: () => time.now },
      );
      guarded = await mode.start(
        { rateLimitEnabled: false, upstream: upstreamConfig({ allowPrivate: [] }) },
        { clock: () => time.now },
      );
      owner = new TestClient(built.app);
      await owner.signUp("Owner");
      viewer = new TestClient(built.app);
      await viewer.signUp("Viewer");
      other = new TestClient(built.app);
      await other.signUp("Other");
    });
    afterAll(async () => {
      await mode?.teardown();
      await Promise.all([ok, failing, noHead].map((site) => site?.stop()));
    });

    const dots = async (client: TestClient, widgetId: string) => {
      const res = await client.get(`/api/bookmarks/status?widgetId=${widgetId}`);
      expect(res.status, res.text).toBe(200);
      return res.body.links as Dot[];
    };
    const statusPass = () => watchPassOn(built, [statusCheckWatcher(built.ctx.upstream)]);

    it("reads bookmarks saved before dots existed unchanged, and asks nothing for them", async () => {
      const old = { bookmarks: [{ id: "a", title: "Docs", url: "https://example.com/docs" }] };
      const { dashboardId, widgetId } = await owner.addWidget("Bookmark", old);
      const stored = await owner.get(`/api/widgets?dashboardId=${dashboardId}`);
      expect(stored.body[0].config).toEqual(old);
      const none = await owner.get(`/api/bookmarks/status?widgetId=${widgetId}`);
      expectProblem(none, 404, "not_found");
      expect(none.body.detail).toBe("This Bookmark widget shows no status dots");
      // A Bookmark is a widget of its config: the data route of outside data is not its.
      expectProblem(await owner.get(`/api/widgets/data?id=${widgetId}`), 404, "not_found");
    });

    it("checks each link's own address: up, down by status, GET when HEAD is refused, unreachable", async () => {
      const { widgetId } = await owner.addWidget("Bookmark", {
        bookmarks: [
          { id: "ok", title: "Jellyfin", url: ok.url, status: "self" },
          { id: "bad", title: "Proxy", url: failing.url, status: "self" },
          { id: "plain", title: "No dot", url: "https://example.com/" },
          { id: "nohead", title: "Old app", url: noHead.url, status: "self" },
          { id: "gone", title: "NAS", url: gone.url, status: "self" },
        ],
      });
      const before = { ok: ok.requests.length, noHead: noHead.requests.length };
      const links = await dots(owner, widgetId);
      expect(links.map((l) => [l.id, l.state, l.reason, l.httpStatus])).toEqual([
        ["ok", "up", null, 200],
        ["bad", "down", "http", 503],
        ["nohead", "up", null, 200],
        ["gone", "down", "unreachable", null],
      ]);
      expect(links[0]!.latencyMs).toBeGreaterThanOrEqual(0);
      expect(links[0]!.checkedAt).toBe(new Date(time.now).toISOString());
      expect(ok.requests.slice(before.ok)).toEqual(["HEAD /"]);
      expect(noHead.requests.slice(before.noHead)).toEqual(["HEAD /", "GET /"]);
    });

    it("keeps a link's check 30 s, shared by every widget and reader naming the address", async () => {
      const config = { bookmarks: [{ id: "j", url: `${ok.url}shared`, status: "self" }] };
      const a = await owner.addWidget("Bookmark", config);
      const b = await other.addWidget("Bookmark", config);
      const asked = () => ok.requests.filter((r) => r.endsWith("/shared")).length;
      expect((await dots(owner, a.widgetId))[0]!.state).toBe("up");
      expect((await dots(other, b.widgetId))[0]!.state).toBe("up");
      expect(asked()).toBe(1);
      time.now += 29_000;
      await dots(owner, a.widgetId);
      expect(asked()).toBe(1);
      time.now += 2_000;
      await dots(owner, a.widgetId);
      expect(asked()).toBe(2);
    });

    it("says a private address the server may not check is unknown, and sends nothing there", async () => {
      // An app whose address guard may reach no private address (embedded mode: a database of its own).
      const person = new TestClient(guarded.app);
      await person.signUp("Guarded");
      const { widgetId } = await person.addWidget("Bookmark", {
        bookmarks: [{ id: "nas", url: `${ok.url}private`, status: "self" }],
      });
      expect(await dots(person, widgetId)).toEqual([
        {
          id: "nas",
          state: "unknown",
          reason: "not-allowed",
          httpStatus: null,
          latencyMs: null,
          checkedAt: expect.any(String),
        },
      ]);
      expect(ok.requests.filter((r) => r.endsWith("/private"))).toEqual([]);
    });

    it("shows what the watch pass recorded for one of the owner's Status checks", async () => {
      const status = await owner.addWidget(
        "Status",
        {
          checks: [
            { id: "web", name: "Website", url: ok.url },
            { id: "api", name: "API", url: failing.url },
          ],
        },
        "Checks",
      );
      const theirs = await other.addWidget("Status", { checks: [{ id: "web", url: ok.url }] }, "Theirs");
      const { dashboardId, widgetId } = await owner.addWidget("Bookmark", {
        bookmarks: [
          { id: "site", url: "https://example.com/", status: { widgetId: status.widgetId, checkId: "web" } },
          {
            id: "api",
            url: "https://api.example.com/",
            status: { widgetId: status.widgetId, checkId: "api" },
          },
          {
            id: "missing",
            url: "https://example.org/",
            status: { widgetId: status.widgetId, checkId: "nope" },
          },
          // Another person's check is never read, whatever its id.
          {
            id: "theirs",
            url: "https://example.net/",
            status: { widgetId: theirs.widgetId, checkId: "web" },
          },
        ],
      });
      const before = await dots(owner, widgetId);
      expect(before.map((l) => [l.id, l.state, l.reason])).toEqual([
        ["site", "unknown", "not-checked"],
        ["api", "unknown", "not-checked"],
        ["missing", "unknown", "no-check"],
        ["theirs", "unknown", "no-check"],
      ]);
      await statusPass();
      const after = await dots(owner, widgetId);
      expect(after.map((l) => [l.id, l.state, l.reason, l.httpStatus])).toEqual([
        ["site", "up", null, 200],
        ["api", "down", "http", 503],
        ["missing", "unknown", "no-check", null],
        ["theirs", "unknown", "no-check", null],
      ]);
      expect(after[0]!.checkedAt).toBe(new Date(time.now).toISOString());

      // A viewer of the owner's dashboard sees the owner's checks through the widget.
      const shared = await owner.put("/api/dashboards/members", {
        id: dashboardId,
        members: [{ type: "user", id: viewer.user!.id, role: "viewer" }],
      });
      expect(shared.status, shared.text).toBe(200);
      expect((await dots(viewer, widgetId)).map((l) => l.state)).toEqual([
        "up",
        "down",
        "unknown",
        "unknown",
      ]);
      expectProblem(await other.get(`/api/bookmarks/status?widgetId=${widgetId}`), 404, "not_found");
      // Only Bookmark widgets have dots; the id must be one; a session is needed.
      expectProblem(await owner.get(`/api/bookmarks/status?widgetId=${status.widgetId}`), 404, "not_found");
      expectProblem(await owner.get("/api/bookmarks/status?widgetId=nope"), 400, "validation_failed");
      expectProblem(
        await new TestClient(built.app).get(`/api/bookmarks/status?widgetId=${widgetId}`),
        401,
        "unauthenticated",
      );
    });

    it("lists the owner's own Status checks for the settings, and nobody else's", async () => {
      const mine = await owner.addWidget(
        "Status",
        { checks: [{ id: "dns", name: "DNS", url: ok.url }] },
        "Network",
      );
      await other.addWidget(
        "Status",
        { checks: [{ id: "secret", name: "Their secret", url: ok.url }] },
        "Hidden",
      );
      const res = await owner.get("/api/bookmarks/status-checks");
      expect(res.status, res.text).toBe(200);
      expect(res.body).toContainEqual({
        widgetId: mine.widgetId,
        checkId: "dns",
        name: "DNS",
        url: ok.url,
        dashboardId: mine.dashboardId,
        dashboardName: "Network",
      });
      expect(res.text).not.toContain("Their secret");
      expectProblem(
        await new TestClient(built.app).get("/api/bookmarks/status-checks"),
        401,
        "unauthenticated",
      );
    });

    it("shows visitors of a public page only the dots that reveal nothing private", async () => {
      const status = await owner.addWidget(
        "Status",
        { checks: [{ id: "web", name: "Web", url: ok.url }] },
        "Private checks",
      );
      await statusPass();
      const board = await owner.addWidget(
        "Bookmark",
        {
          bookmarks: [
            // A home address: whether it answers is the owner's to know.
            { id: "home", url: `${ok.url}home`, status: "self" },
            {
              id: "named",
              url: "https://example.com/",
              status: { widgetId: status.widgetId, checkId: "web" },
            },
            { id: "plain", url: "https://example.org/" },
          ],
        },
        "Public links",
      );
      const published = await owner.put("/api/dashboards", {
        id: board.dashboardId,
        name: "Public links",
        isPublic: true,
      });
      expect(published.status, published.text).toBe(200);
      const publicData = `/api/public/dashboards/${board.dashboardId}/widgets/${board.widgetId}/bookmark-status`;
      const homeAsked = () => ok.requests.filter((r) => r.endsWith("/home")).length;

      const visitor = new TestClient(built.app);
      const seen = await visitor.get(publicData);
      expect(seen.status, seen.text).toBe(200);
      expect(seen.body.links).toEqual([]);
      // The visitor's read checks nothing at home.
      expect(homeAsked()).toBe(0);
      // Signed in or not, the public page is a visitor's view.
      expect((await other.get(publicData)).body.links).toEqual([]);
      // The owner, reading their own widget, sees both.
      expect((await dots(owner, board.widgetId)).map((l) => l.id)).toEqual(["home", "named"]);

      // Once the Status widget is public itself, its state is no secret: the named dot shows.
      const statusBoard = await owner.put("/api/dashboards", {
        id: status.dashboardId,
        name: "Private checks",
        isPublic: true,
      });
      expect(statusBoard.status, statusBoard.text).toBe(200);
      const now = await visitor.get(publicData);
      expect(now.body.links).toEqual([
        {
          id: "named",
          state: "up",
          reason: null,
          httpStatus: 200,
          latencyMs: expect.any(Number),
          checkedAt: expect.any(String),
        },
      ]);
      // Publishing the page does not publish the owner's other widgets' ids beyond what it links.
      expect(now.text).not.toContain(ok.url);
    });

    it("refuses a status the parser would drop in silence, and more dots than a widget checks", async () => {
      const board = await owner.post("/api/dashboards", { name: "Bad dots" });
      const add = (config: object) =>
        owner.post("/api/widgets", {
          dashboardId: board.body.id,
          widgetType: "Bookmark",
          height: 200,
          width: 200,
          positionX: 0,
          positionY: 0,
          config,
        });
      const bad = await add({
        bookmarks: [
          { id: "a", url: "https://a.example/", status: "on" },
          { id: "b", url: "https://b.example/", status: { widgetId: "nope", checkId: "x" } },
          { id: "c", url: "https://c.example/", status: "off" },
        ],
      });
      expectProblem(bad, 400, "validation_failed");
      expect(bad.body.errors).toEqual([
        { path: "/config/bookmarks/0/status", message: expect.stringContaining('"self"') },
        { path: "/config/bookmarks/1/status", message: expect.stringContaining("widgetId") },
      ]);
      const many = await add({
        bookmarks: Array.from({ length: 21 }, (_, i) => ({
          id: `b${i}`,
          url: `https://s${i}.example/`,
          status: "self",
        })),
      });
      expectProblem(many, 400, "validation_failed");
      expect(many.body.errors).toEqual([
        { path: "/config/bookmarks", message: "at most 20 bookmarks may show a status" },
      ]);
      // "off" is no dot, as is no key at all.
      const off = await add({ bookmarks: [{ id: "c", url: "https://c.example/", status: "off" }] });
      expect(off.status, off.text).toBe(201);
      expectProblem(await owner.get(`/api/bookmarks/status?widgetId=${off.body.id}`), 404, "not_found");
    });
  });
}

describe("which addresses a visitor's dot may check", () => {
  const upstream = { cached: (_policy: unknown, _key: string, load: () => Promise<unknown>) => load() };
  const isPublic = (url: string) => publicAddress(upstream as unknown as Upstream, url);

  it("takes globally routable addresses only", async () => {
    expect(await isPublic("https://93.184.215.14/")).toBe(true);
    expect(await isPublic("http://[2606:4700:4700::1111]:8080/")).toBe(true);
    for (const url of [
      "http://127.0.0.1:8096/",
      "http://192.168.1.10:8989/",
      "http://10.0.0.2/",
      "http://169.254.169.254/",
      "http://[::1]/",
      "http://[fd00::1]/",
      "http://localhost:3000/",
      "http://jellyfin.localhost/",
    ])
      expect(await isPublic(url), url).toBe(false);
  });
});
