import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { ConfigError, loadConfig } from "../../src/server/config.js";
import { TestClient } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";

/** The CSP as a map of directive name to its sources. */
function policy(header: unknown): Record<string, string[]> {
  expect(typeof header).toBe("string");
  const out: Record<string, string[]> = {};
  for (const part of String(header).split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out[name] = values;
  }
  return out;
}

describe.each(MODES)("security headers (%s)", (modeName) => {
  let mode: ModeEnv;
  let http: BuiltApp;
  let https: BuiltApp;
  let dist: string;

  beforeAll(async () => {
    // A stand-in web build: the headers do not depend on what the page holds.
    dist = mkdtempSync(path.join(tmpdir(), "tessera-headers-"));
    writeFileSync(path.join(dist, "index.html"), "<!doctype html><div id=root></div>");
    mode = await prepareMode(modeName);
    http = await mode.start({ webDist: dist });
    https = await mode.start({
      webDist: dist,
      baseUrl: "https://dash.example.test",
      publicFrameAncestors: "https://intranet.example.test 'self'",
    });
  });
  afterAll(async () => {
    await mode.teardown();
    rmSync(dist, { recursive: true, force: true });
  });

  const page = (built: BuiltApp, url: string) => new TestClient(built.app).get(url, { accept: "text/html" });

  it("gives the app a strict CSP that no other site may frame, with nosniff and no referrer", async () => {
    for (const url of [
      "/",
      "/signin",
      "/d/0190a0a0-0000-7000-8000-000000000000",
      "/api/dashboards",
      "/healthz",
    ]) {
      const res = await page(http, url);
      const csp = policy(res.headers["content-security-policy"]);
      expect(csp["frame-ancestors"], url).toEqual(["'none'"]);
      expect(csp["script-src"], url).toEqual(["'self'"]);
      expect(csp["script-src-attr"], url).toEqual(["'none'"]);
      expect(csp["object-src"], url).toEqual(["'none'"]);
      expect(csp["connect-src"], url).toEqual(["'self'"]);
      expect(csp["frame-src"], url).toEqual(["http:", "https:"]);
      expect(csp["img-src"], url).toEqual(["'self'", "data:", "https:", "http:"]);
      expect(csp["upgrade-insecure-requests"], url).toBeUndefined();
      expect(res.headers["x-frame-options"], url).toBe("DENY");
      expect(res.headers["x-content-type-options"], url).toBe("nosniff");
      expect(res.headers["referrer-policy"], url).toBe("no-referrer");
      expect(res.headers["cross-origin-opener-policy"], url).toBe("same-origin");
      // Plain http: no HSTS (it would lock a local install out of itself).
      expect(res.headers["strict-transport-security"], url).toBeUndefined();
    }
  });

  it("lets public dashboard pages be framed only by PUBLIC_FRAME_ANCESTORS ('none' by default)", async () => {
    const id = "0190a0a0-0000-7000-8000-000000000000";
    const closed = await page(http, `/p/${id}`);
    expect(policy(closed.headers["content-security-policy"])["frame-ancestors"]).toEqual(["'none'"]);
    expect(closed.headers["x-frame-options"]).toBeUndefined();
    const open = await page(https, `/p/${id}?x=1`);
    const csp = policy(open.headers["content-security-policy"]);
    expect(csp["frame-ancestors"]).toEqual(["https://intranet.example.test", "'self'"]);
    expect(csp["script-src"]).toEqual(["'self'"]);
    expect(open.headers["x-frame-options"]).toBeUndefined();
    // Only the page itself: the rest of the app stays unframeable on the same instance.
    for (const url of ["/", `/p/${id}/more`, `/api/public/dashboards/${id}`]) {
      expect(
        policy((await page(https, url)).headers["content-security-policy"])["frame-ancestors"],
        url,
      ).toEqual(["'none'"]);
    }
  });

  it("sends HSTS and upgrade-insecure-requests only behind https", async () => {
    const res = await page(https, "/");
    expect(res.headers["strict-transport-security"]).toMatch(/^max-age=31536000/);
    expect(policy(res.headers["content-security-policy"])["upgrade-insecure-requests"]).toEqual([]);
  });

  it("keeps Swagger UI's own policy at /api/docs, without upgrading requests behind http", async () => {
    const res = await page(http, "/api/docs");
    expect(res.status).toBe(200);
    const csp = policy(res.headers["content-security-policy"]);
    expect(csp["style-src"]).toContain("'self'");
    expect(csp["frame-ancestors"]).toEqual(["'none'"]);
    expect(csp["upgrade-insecure-requests"]).toBeUndefined();
    const secure = policy((await page(https, "/api/docs")).headers["content-security-policy"]);
    expect(secure["upgrade-insecure-requests"]).toEqual([]);
  });
});

describe("PUBLIC_FRAME_ANCESTORS", () => {
  const load = (value: string) =>
    loadConfig({ PUBLIC_FRAME_ANCESTORS: value, DATA_DIR: "/tmp/tessera-config-test" });

  it("accepts CSP sources and refuses anything that could change the policy", () => {
    expect(load("'none'").publicFrameAncestors).toBe("'none'");
    expect(load("none").publicFrameAncestors).toBe("'none'");
    expect(load("self https://a.example").publicFrameAncestors).toBe("'self' https://a.example");
    expect(load(" https://a.example  *.b.example:8443 'self' https: ").publicFrameAncestors).toBe(
      "https://a.example *.b.example:8443 'self' https:",
    );
    for (const bad of [
      "https://a.example; script-src *",
      "'unsafe-inline'",
      "https://a.example,x",
      "'none' https:",
    ]) {
      let error: unknown;
      try {
        load(bad);
      } catch (e) {
        error = e;
      }
      expect(error, bad).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variable).toBe("PUBLIC_FRAME_ANCESTORS");
    }
  });
});
