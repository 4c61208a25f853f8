import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeAnswer, FakeServer } from "../../../../test/fakes/oauth-http.js";
import { signedInClient, TestClient } from "../../../../test/support/client.js";
import { upstreamConfig } from "../../../../test/support/config.js";
import { type ModeEnv, prepareMode } from "../../../../test/support/modes.js";
import type { BuiltApp } from "../../../server/app.js";

/**
 * A Frame widget's framing check through GET /api/widgets/framing and its public twin: the server
 * asks the stored page for its headers, never a page a request names.
 */
describe("Frame widget: whether its page may be framed", () => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let guarded: BuiltApp;
  let site: FakeServer;
  let owner: TestClient;
  const asked: string[] = [];

  beforeAll(async () => {
    site = await FakeServer.start((req): FakeAnswer => {
      asked.push(req.path);
      if (req.path === "/deny")
        return { status: 200, text: "<p>no</p>", headers: { "x-frame-options": "DENY" } };
      if (req.path === "/ancestors")
        return {
          status: 200,
          text: "<p>no</p>",
          headers: { "content-security-policy": "default-src 'self'; frame-ancestors 'none'" },
        };
      return { status: 200, text: "<p>yes</p>", headers: { "content-type": "text/html" } };
    });
    mode = await prepareMode("embedded");
    // The site lives on loopback, which only the operator's allow-list opens.
    built = await mode.start({ upstream: upstreamConfig({ allowPrivate: ["127.0.0.1/32"] }) });
    guarded = await mode.start({ upstream: upstreamConfig({ allowPrivate: [] }) });
    owner = await signedInClient(built.app, "Framer");
  });
  afterAll(async () => {
    await mode.teardown();
    await site.close();
  });

  const frame = async (client: TestClient, path: string) => {
    const { dashboardId, widgetId } = await client.addWidget("Frame", { url: `${site.url}${path}` });
    return { dashboardId, widgetId, data: () => client.get(`/api/widgets/framing?id=${widgetId}`) };
  };

  it("says which rule refuses a page, and allows one that sets none", async () => {
    const deny = await frame(owner, "/deny");
    expect((await deny.data()).body).toEqual({
      url: `${site.url}/deny`,
      framing: "refused",
      reason: "x-frame-options",
    });
    expect((await (await frame(owner, "/ancestors")).data()).body).toMatchObject({
      framing: "refused",
      reason: "frame-ancestors",
    });
    expect((await (await frame(owner, "/fine")).data()).body).toEqual({
      url: `${site.url}/fine`,
      framing: "allowed",
    });
  });

  it("asks a page once for everyone within its freshness, and visitors only of a public board", async () => {
    const deny = await frame(owner, "/deny");
    const before = asked.filter((p) => p === "/deny").length;
    await deny.data();
    expect(asked.filter((p) => p === "/deny").length).toBe(before);

    const visitor = new TestClient(built.app);
    const publicData = () =>
      visitor.get(`/api/public/dashboards/${deny.dashboardId}/widgets/${deny.widgetId}/framing`);
    expect((await publicData()).status).toBe(404);
    await owner.put("/api/dashboards", { id: deny.dashboardId, name: "Board", isPublic: true });
    expect((await publicData()).body).toMatchObject({ framing: "refused" });
    // A widget without a page asks for nothing.
    const empty = await owner.addWidget("Frame", {});
    expect((await owner.get(`/api/widgets/framing?id=${empty.widgetId}`)).status).toBe(404);
    // Nor does another type, or a stranger.
    const clock = await owner.addWidget("Clock", {});
    expect((await owner.get(`/api/widgets/framing?id=${clock.widgetId}`)).status).toBe(404);
    const stranger = await signedInClient(built.app, "Stranger");
    expect((await stranger.get(`/api/widgets/framing?id=${deny.widgetId}`)).status).toBe(404);
  });

  it("claims nothing about a page on a network it may not reach", async () => {
    const lan = await signedInClient(guarded.app, "Guarded");
    expect((await (await frame(lan, "/deny")).data()).body).toEqual({
      url: `${site.url}/deny`,
      framing: "unknown",
    });
  });
});
