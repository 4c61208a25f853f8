import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
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

/** Sends one raw request and reads the answer's head until the server closes or the head is in. */
async function rawAnswer(port: number, request: string) {
  const socket = net.connect(port, "127.0.0.1");
  await once(socket, "connect");
  socket.on("error", () => {});
  let text = "";
  socket.setEncoding("utf8");
  const head = new Promise<void>((resolve) => {
    socket.on("data", (chunk: string) => {
      text += chunk;
      if (text.includes("\r\n\r\n")) resolve();
    });
    socket.on("close", () => resolve());
  });
  socket.write(request);
  await head;
  socket.destroy();
  const [statusLine = "", ...lines] = (text.split("\r\n\r\n")[0] ?? "").split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { statusLine, headers };
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

  it("sends the same headers on answers made before routing: a bad URL, a malformed header, 431", async () => {
    for (const [built, hsts] of [
      [http, false],
      [https, true],
    ] as const) {
      await built.app.listen({ port: 0, host: "127.0.0.1" });
      const { port } = built.app.server.address() as net.AddressInfo;
      for (const [label, request, status] of [
        ["bad URL", "GET /api/dashboards/%zz HTTP/1.1\r\nHost: x\r\n\r\n", 400],
        ["malformed header", "GET /api/dashboards HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n", 400],
        ["431", `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`, 431],
        ["no route", "GET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 404],
      ] as const) {
        const { statusLine, headers } = await rawAnswer(port, request);
        expect(statusLine, label).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
        expect(headers["content-type"], label).toMatch(/^application\/problem\+json/);
        const csp = policy(headers["content-security-policy"]);
        expect(csp["frame-ancestors"], label).toEqual(["'none'"]);
        expect(csp["script-src"], label).toEqual(["'self'"]);
        expect(headers["x-frame-options"], label).toBe("DENY");
        expect(headers["x-content-type-options"], label).toBe("nosniff");
        expect(headers["referrer-policy"], label).toBe("no-referrer");
        expect(headers["cross-origin-resource-policy"], label).toBe("same-origin");
        if (hsts) expect(headers["strict-transport-security"], label).toMatch(/^max-age=31536000/);
        else expect(headers["strict-transport-security"], label).toBeUndefined();
      }
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
