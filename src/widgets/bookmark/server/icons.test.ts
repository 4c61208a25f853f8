import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeServer } from "../../../../test/fakes/oauth-http.js";
import { signedInClient, TestClient } from "../../../../test/support/client.js";
import { upstreamConfig } from "../../../../test/support/config.js";
import { type ModeEnv, prepareMode } from "../../../../test/support/modes.js";
import type { BuiltApp } from "../../../server/app.js";

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex");
const ICO = Buffer.from("0000010001001010000001002000", "hex");
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';

describe("site icons for bookmarks", () => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let guarded: BuiltApp;
  const sites: Record<string, FakeServer> = {};
  let client: TestClient;

  beforeAll(async () => {
    // Sites as they are, each its own origin (icons are cached per origin): one with /favicon.ico,
    // one that only links its icon from the home page, one whose "icon" is an SVG with script.
    const site = (handler: Parameters<typeof FakeServer.start>[0]) => FakeServer.start(handler);
    sites.ico = await site((req) =>
      req.path === "/favicon.ico"
        ? { status: 200, bytes: ICO, headers: { "content-type": "image/x-icon" } }
        : { status: 404, text: "" },
    );
    sites.linked = await site((req) => {
      if (req.path === "/")
        return {
          status: 200,
          text: '<html><head><link rel="shortcut icon" href="/static/i.png"></head></html>',
          headers: { "content-type": "text/html" },
        };
      if (req.path === "/static/i.png")
        return { status: 200, bytes: PNG, headers: { "content-type": "image/png" } };
      return { status: 404, text: "" };
    });
    sites.svg = await site((req) =>
      req.path === "/favicon.ico"
        ? { status: 200, text: SVG, headers: { "content-type": "image/x-icon" } }
        : { status: 404, text: "" },
    );
    mode = await prepareMode("embedded");
    built = await mode.start({ upstream: upstreamConfig({ allowPrivate: ["127.0.0.1/32"] }) });
    guarded = await mode.start({ upstream: upstreamConfig({ allowPrivate: [] }) });
    client = await signedInClient(built.app, "Icons");
  });
  afterAll(async () => {
    await mode.teardown();
    await Promise.all(Object.values(sites).map((s) => s.close()));
  });

  const icon = (c: TestClient, url: string) => c.get(`/api/icons/site?url=${encodeURIComponent(url)}`);

  it("needs a session", async () => {
    expect((await icon(new TestClient(built.app), sites.ico!.url)).status).toBe(401);
  });

  it("serves /favicon.ico with the type its bytes say, cached per site", async () => {
    const res = await icon(client, `${sites.ico!.url}/some/page?x=1`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/x-icon");
    expect(res.raw.equals(ICO)).toBe(true);
    await icon(client, `${sites.ico!.url}/other`);
    expect(sites.ico!.calls("/favicon.ico")).toHaveLength(1);
  });

  it("falls back to the icon the home page links", async () => {
    const res = await icon(client, sites.linked!.url);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/png");
    expect(res.raw.equals(PNG)).toBe(true);
  });

  it("never serves an SVG or anything that is not a raster image from our origin", async () => {
    const res = await icon(client, sites.svg!.url);
    expect(res.status).toBe(404);
    expect(res.headers["content-type"]).toContain("application/problem+json");
    expect(res.text).not.toContain("<script>");
  });

  it("refuses what is not an http(s) address, and the server's own network without an allow-list", async () => {
    expect((await icon(client, "javascript:alert(1)")).status).toBe(400);
    const reader = await signedInClient(guarded.app, "GuardedIcons");
    const before = sites.ico!.requests.length;
    const res = await icon(reader, sites.ico!.url);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("address_not_allowed");
    expect(sites.ico!.requests.length).toBe(before);
  });
});
