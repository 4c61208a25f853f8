import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { integrations } from "../../src/server/db/schema.js";
import { type FakeAnswer, FakeServer, randomToken } from "../fakes/oauth-http.js";
import { TestClient } from "../support/client.js";
import { MODES, type ModeEnv, type ModeName, prepareMode } from "../support/modes.js";
import { expectProblem } from "../support/problems.js";

/**
 * Integrations (DESIGN section 16): saved connections, who may make and use which, secrets that
 * never come back, the connection test, and the preview. The services are fakes on 127.0.0.1
 * that check what we send the way the real ones do.
 */

/** A self-signed certificate for 127.0.0.1, made with openssl for this run. */
function selfSigned() {
  const dir = mkdtempSync(path.join(tmpdir(), "tessera-tls-"));
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "2",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      path.join(dir, "key.pem"),
      "-out",
      path.join(dir, "cert.pem"),
    ],
    { stdio: "ignore" },
  );
  const pair = {
    key: readFileSync(path.join(dir, "key.pem"), "utf8"),
    cert: readFileSync(path.join(dir, "cert.pem"), "utf8"),
  };
  rmSync(dir, { recursive: true, force: true });
  return pair;
}

/** A port nothing listens on: one the system just handed out and took back. */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.each<ModeName>(MODES)("integrations (%s)", { timeout: 120_000 }, (modeName) => {
  let mode: ModeEnv;
  let app: BuiltApp;
  let admin: TestClient;
  let member: TestClient;
  let other: TestClient;
  let service: FakeServer;
  let homeAssistant: FakeServer;
  let tls: HttpsServer;
  let tlsUrl: string;
  let certificate: string;
  const apiKey = randomToken("custom-key");
  const haToken = randomToken("ha-token");

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    service = await FakeServer.start((req): FakeAnswer => {
      if (req.headers["x-api-key"] !== apiKey) return { status: 401, json: { error: "unauthorized" } };
      if (req.path === "/api/stats") return { json: { cpu: 12.5, disks: [{ name: "sda", free: 1024 }] } };
      if (req.path === "/api/page")
        return { text: "<html>sign in</html>", headers: { "content-type": "text/html" } };
      if (req.path === "/api/moved") return { status: 302, headers: { location: "http://10.0.0.1/api" } };
      if (req.path === "/api/big")
        return {
          json: {
            items: Array.from({ length: 5000 }, (_, i) => ({ id: i, name: `item ${i}`.padEnd(40, ".") })),
          },
        };
      return { json: { ok: true, path: req.path, query: Object.fromEntries(req.query) } };
    });
    // Home Assistant's REST API: every call needs the long-lived token as a Bearer token.
    homeAssistant = await FakeServer.start((req) => {
      if (req.headers.authorization !== `Bearer ${haToken}`)
        return { status: 401, text: "401: Unauthorized" };
      if (req.path === "/api/config") return { json: { version: "2026.11.2", location_name: "Home" } };
      return { status: 404, text: "404: Not Found" };
    });
    const pair = selfSigned();
    certificate = pair.cert;
    tls = createHttpsServer(pair, (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"secure":true}');
    });
    await new Promise<void>((resolve) => tls.listen(0, "127.0.0.1", resolve));
    tlsUrl = `https://127.0.0.1:${(tls.address() as AddressInfo).port}`;

    app = await mode.start({ rateLimitEnabled: false });
    admin = new TestClient(app.app);
    await admin.signUp("Admin");
    member = new TestClient(app.app);
    await member.signUp("Member");
    other = new TestClient(app.app);
    await other.signUp("Other");
  });
  afterAll(async () => {
    await mode.teardown();
    await service?.close();
    await homeAssistant?.close();
    await new Promise((resolve) => tls?.close(resolve));
  });

  const custom = (more: Record<string, unknown> = {}) => ({
    kind: "custom",
    name: "NAS",
    url: `${service.url}/api`,
    secrets: { "X-Api-Key": apiKey },
    ...more,
  });

  it("lists the kinds with the secrets each takes", async () => {
    const res = await member.get("/api/integrations/kinds");
    expect(res.status, res.text).toBe(200);
    const kinds = res.body as {
      kind: string;
      headerSecrets: boolean;
      unixSocket: boolean;
      clientCertificate: boolean;
      secrets: { name: string; required: boolean }[];
    }[];
    expect(kinds.map((k) => k.kind)).toEqual([
      "custom",
      "ical",
      "uptimekuma",
      "homeassistant",
      "docker",
      "proxmox",
      "sonarr",
      "radarr",
      "jellyfin",
      "qbittorrent",
      "pihole",
      "adguard",
    ]);
    // Only Docker takes a socket and a TLS client certificate.
    expect(kinds.filter((k) => k.unixSocket).map((k) => k.kind)).toEqual(["docker"]);
    expect(kinds.filter((k) => k.clientCertificate).map((k) => k.kind)).toEqual(["docker"]);
    expect(kinds.find((k) => k.kind === "custom")!.headerSecrets).toBe(true);
    expect(kinds.find((k) => k.kind === "homeassistant")!.secrets).toEqual([
      expect.objectContaining({ name: "token", required: true }),
    ]);
  });

  it("refuses a private address to a member, and the admin-only choices", async () => {
    expectProblem(await member.post("/api/integrations", custom()), 400, "address_not_allowed");
    expectProblem(await member.post("/api/integrations", custom({ allowPrivate: true })), 403, "forbidden");
    expectProblem(await member.post("/api/integrations", custom({ owner: "instance" })), 403, "forbidden");
    expectProblem(
      await member.post("/api/integrations", custom({ url: tlsUrl, skipTlsVerify: true })),
      403,
      "forbidden",
    );
    expect((await member.get("/api/integrations")).body).toEqual([]);
  });

  it("saves an admin's instance integration, answers secrets by name only, and encrypts them", async () => {
    const res = await admin.post("/api/integrations", custom({ owner: "instance", allowPrivate: true }));
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      kind: "custom",
      name: "NAS",
      url: `${service.url}/api`,
      owner: "instance",
      allowPrivate: true,
      secrets: ["X-Api-Key"],
      editable: true,
      lastCheck: null,
    });
    const [row] = await app.ctx.database.db
      .select()
      .from(integrations)
      .where(eq(integrations.id, res.body.id));
    expect(row!.secrets["X-Api-Key"]).toMatch(/^enc:v1:/);
    expect(JSON.stringify(row)).not.toContain(apiKey);

    // Every user may use it, only admins change it.
    const seen = await member.get("/api/integrations");
    expect(seen.body).toEqual([
      expect.objectContaining({ id: res.body.id, owner: "instance", editable: false }),
    ]);
    expectProblem(await member.put(`/api/integrations/${res.body.id}`, { name: "Mine" }), 403, "forbidden");
    expectProblem(await member.delete(`/api/integrations/${res.body.id}`), 403, "forbidden");
    expect((await admin.get(`/api/integrations/${res.body.id}`)).body.name).toBe("NAS");
  });

  it("tests a connection: what was reached, refused credentials, not JSON, a redirect", async () => {
    const saved = await admin.post(
      "/api/integrations",
      custom({ name: "Stats", url: `${service.url}/api/stats`, allowPrivate: true }),
    );
    const before = service.requests.length;
    // An admin's personal integration is theirs alone.
    expectProblem(await member.post("/api/integrations/test", { id: saved.body.id }), 404, "not_found");
    const mine = await admin.post("/api/integrations/test", { id: saved.body.id });
    expect(mine.body).toMatchObject({ ok: true, detail: "Answered with JSON: an object of 2 keys" });
    expect(service.requests.at(-1)!.headers["x-api-key"]).toBe(apiKey);
    expect(service.requests.length).toBe(before + 1);
    const stored = await admin.get(`/api/integrations/${saved.body.id}`);
    expect(stored.body.lastCheck).toMatchObject({
      ok: true,
      detail: "Answered with JSON: an object of 2 keys",
    });

    const unsaved = (more: Record<string, unknown>) =>
      admin.post("/api/integrations/test", { ...custom({ allowPrivate: true, ...more }), name: undefined });
    const wrong = await unsaved({ secrets: { "X-Api-Key": "not-the-key" } });
    expect(wrong.body).toMatchObject({
      ok: false,
      detail: "The service answered 401: the credentials were refused",
    });
    const html = await unsaved({ url: `${service.url}/api/page` });
    expect(html.body).toMatchObject({
      ok: false,
      detail: "The service answered 200 but not with JSON (text/html)",
    });
    const moved = await unsaved({ url: `${service.url}/api/moved` });
    expect(moved.body).toMatchObject({
      ok: false,
      detail: "The service redirects to http://10.0.0.1/api: save that address instead",
    });
    const closed = await unsaved({ url: `http://127.0.0.1:${await closedPort()}/api` });
    expect(closed.body.ok).toBe(false);
    expect(closed.body.detail).toContain("nothing is listening at that address and port");
  });

  it("keeps a member's integration to themselves: others get 404 for every route", async () => {
    // The home network is allowed for everyone by the admin page's private networks.
    const allowed = await admin.put("/api/admin/settings", { privateNetworks: ["127.0.0.1"] });
    expect(allowed.status, allowed.text).toBe(200);
    const res = await member.post("/api/integrations", custom({ name: "Member's NAS" }));
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ owner: "me", editable: true, allowPrivate: false });
    const id = res.body.id as string;
    for (const answer of [
      await other.get(`/api/integrations/${id}`),
      await other.put(`/api/integrations/${id}`, { name: "Taken" }),
      await other.delete(`/api/integrations/${id}`),
      await other.post("/api/integrations/test", { id }),
      await other.post("/api/integrations/preview", { integrationId: id }),
      // An admin too: personal integrations carry their owner's secrets.
      await admin.get(`/api/integrations/${id}`),
    ])
      expectProblem(answer, 404, "not_found");
    expect((await other.get("/api/integrations")).body.map((i: { id: string }) => i.id)).not.toContain(id);
    expect((await member.post("/api/integrations/test", { id })).body.ok).toBe(true);
    const reset = await admin.put("/api/admin/settings", { privateNetworks: [] });
    expect(reset.status, reset.text).toBe(200);
  });

  it("changes only the secrets a PUT names", async () => {
    const created = await admin.post(
      "/api/integrations",
      custom({
        name: "Two keys",
        allowPrivate: true,
        secrets: { "X-Api-Key": apiKey, "X-Other": randomToken("other") },
      }),
    );
    expect(created.body.secrets).toEqual(["X-Api-Key", "X-Other"]);
    const renamed = await admin.put(`/api/integrations/${created.body.id}`, { name: "Renamed" });
    expect(renamed.body).toMatchObject({ name: "Renamed", secrets: ["X-Api-Key", "X-Other"] });
    const removed = await admin.put(`/api/integrations/${created.body.id}`, {
      secrets: { "X-Other": null, Authorization: randomToken("bearer") },
    });
    expect(removed.body.secrets).toEqual(["Authorization", "X-Api-Key"]);
    // The key kept its value: the service still lets us in.
    expect((await admin.post("/api/integrations/test", { id: created.body.id })).body.ok).toBe(true);
  });

  it("previews a path below the integration's address, cut to 64 KiB", async () => {
    const saved = await admin.post("/api/integrations", custom({ name: "Preview", allowPrivate: true }));
    const small = await admin.post("/api/integrations/preview", {
      integrationId: saved.body.id,
      path: "/stats",
    });
    expect(small.status, small.text).toBe(200);
    expect(small.body).toEqual({
      status: 200,
      truncated: false,
      json: { cpu: 12.5, disks: [{ name: "sda", free: 1024 }] },
    });
    const query = await admin.post("/api/integrations/preview", {
      integrationId: saved.body.id,
      path: "/echo?a=1",
    });
    expect(query.body.json).toMatchObject({ path: "/api/echo", query: { a: "1" } });
    const big = await admin.post("/api/integrations/preview", { integrationId: saved.body.id, path: "big" });
    expect(big.body.truncated).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(big.body.json))).toBeLessThanOrEqual(64 * 1024);
    expect(big.body.json.items[0]).toEqual({ id: 0, name: "item 0".padEnd(40, ".") });
    const html = await admin.post("/api/integrations/preview", {
      integrationId: saved.body.id,
      path: "/page",
    });
    expectProblem(html, 502, "upstream_failed");
    expect(html.body.detail).toBe("Preview answered 200 but not with JSON (text/html)");
    // A plain address goes through the address guard.
    expectProblem(
      await member.post("/api/integrations/preview", { url: `${service.url}/api/stats` }),
      400,
      "address_not_allowed",
    );
    expectProblem(await admin.post("/api/integrations/preview", {}), 400, "validation_failed");
    expectProblem(
      await admin.post("/api/integrations/preview", { integrationId: saved.body.id, url: service.url }),
      400,
      "validation_failed",
    );
  });

  it("tests Home Assistant with its token as a Bearer token", async () => {
    const body = { kind: "homeassistant", name: "Home", url: homeAssistant.url, allowPrivate: true };
    const missing = await admin.post("/api/integrations", body);
    expectProblem(missing, 400, "validation_failed");
    expect(missing.body.errors).toEqual([
      { path: "/secrets/token", message: "is required for Home Assistant" },
    ]);
    const saved = await admin.post("/api/integrations", { ...body, secrets: { token: haToken } });
    expect(saved.status, saved.text).toBe(201);
    expect((await admin.post("/api/integrations/test", { id: saved.body.id })).body).toMatchObject({
      ok: true,
      detail: "Home Assistant 2026.11.2 (Home)",
    });
    const wrong = await admin.post("/api/integrations/test", { ...body, secrets: { token: "wrong-token" } });
    expect(wrong.body).toMatchObject({
      ok: false,
      detail: "Home Assistant answered 401: the credentials were refused",
    });
  });

  it("trusts a self-signed service through its CA certificate, or (admins) without verification", async () => {
    const base = { kind: "custom", url: tlsUrl, allowPrivate: true };
    const untrusted = await admin.post("/api/integrations/test", base);
    expect(untrusted.body.ok).toBe(false);
    expect(untrusted.body.detail).toMatch(/TLS: the service's certificate is self-signed/);
    const trusted = await admin.post("/api/integrations/test", { ...base, caCertificate: certificate });
    expect(trusted.body).toMatchObject({ ok: true, detail: "Answered with JSON: an object of 1 keys" });
    const skipped = await admin.post("/api/integrations/test", { ...base, skipTlsVerify: true });
    expect(skipped.body.ok).toBe(true);
  });

  it("refuses bad input with its path and saves nothing", async () => {
    const before = (await admin.get("/api/integrations")).body.length;
    const cases: [Record<string, unknown>, string][] = [
      [custom({ kind: "ftp", allowPrivate: true }), "/kind"],
      [custom({ url: "ftp://nas.lan/", allowPrivate: true }), "/url"],
      // Only a kind that takes a socket (Docker) may name one.
      [custom({ url: "unix:///var/run/docker.sock", owner: "instance" }), "/url"],
      [custom({ url: "not an address", allowPrivate: true }), "/url"],
      [custom({ url: "http://user:pw@nas.lan/", allowPrivate: true }), "/url"],
      [
        custom({
          caCertificate: "-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----",
          allowPrivate: true,
        }),
        "/caCertificate",
      ],
      [custom({ secrets: { Host: "x" }, allowPrivate: true }), "/secrets/Host"],
      [custom({ secrets: { "X-Key": "two\nlines" }, allowPrivate: true }), "/secrets/X-Key"],
      [
        {
          kind: "homeassistant",
          name: "HA",
          url: homeAssistant.url,
          allowPrivate: true,
          secrets: { token: "t", apiKey: "k" },
        },
        "/secrets/apiKey",
      ],
    ];
    for (const [body, where] of cases) {
      const res = await admin.post("/api/integrations", body);
      expectProblem(res, 400, "validation_failed");
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(where);
    }
    expectProblem(await admin.post("/api/integrations", { ...custom(), name: "" }), 400, "validation_failed");
    expectProblem(await admin.get("/api/integrations/not-a-uuid"), 400, "validation_failed");
    expectProblem(
      await admin.put("/api/integrations/0190a0a0-0000-7000-8000-000000000000", { name: "x" }),
      404,
      "not_found",
    );
    expect((await admin.get("/api/integrations")).body.length).toBe(before);
  });

  it("lets only admins allow actions, and keeps who changed what in the audit log", async () => {
    expectProblem(
      await member.post("/api/integrations", {
        kind: "homeassistant",
        name: "HA",
        url: homeAssistant.url,
        allowActions: true,
        secrets: { token: haToken },
      }),
      403,
      "forbidden",
    );
    const saved = await admin.post("/api/integrations", {
      kind: "homeassistant",
      name: "Lights",
      url: homeAssistant.url,
      allowPrivate: true,
      allowActions: true,
      secrets: { token: haToken },
    });
    expect(saved.body.allowActions).toBe(true);
    const rotated = randomToken("ha-rotated");
    expect(
      (await admin.put(`/api/integrations/${saved.body.id}`, { secrets: { token: rotated } })).status,
    ).toBe(200);
    expect((await admin.delete(`/api/integrations/${saved.body.id}`)).status).toBe(204);

    expectProblem(await member.get("/api/admin/audit"), 403, "forbidden");
    const page = await admin.get("/api/admin/audit?limit=3");
    expect(page.status, page.text).toBe(200);
    const target = `integration:${saved.body.id}`;
    expect(page.body.events.map((e: { action: string; target: string }) => [e.action, e.target])).toEqual([
      ["integration.deleted", target],
      ["integration.changed", target],
      ["integration.created", target],
    ]);
    expect(page.body.events[1]).toMatchObject({
      actor: { name: "Admin" },
      detail: { kind: "homeassistant", secrets: ["token"], secretsChanged: ["token"], allowActions: true },
    });
    // The next page goes on from there, and an unknown cursor is said to be unknown.
    const older = await admin.get(`/api/admin/audit?limit=200&cursor=${page.body.nextCursor}`);
    expect(older.body.events.map((e: { target: string }) => e.target)).not.toContain(target);
    expectProblem(
      await admin.get("/api/admin/audit?cursor=0190a0a0-0000-7000-8000-000000000000"),
      404,
      "not_found",
    );
    expectProblem(await admin.get("/api/admin/audit?limit=201"), 400, "validation_failed");
  });

  it("deletes with its owner, and a deleted integration is gone", async () => {
    const saved = await admin.post("/api/integrations", custom({ name: "Short-lived", allowPrivate: true }));
    const gone = await admin.delete(`/api/integrations/${saved.body.id}`);
    expect(gone.status).toBe(204);
    expectProblem(await admin.get(`/api/integrations/${saved.body.id}`), 404, "not_found");
    expectProblem(await admin.post("/api/integrations/test", { id: saved.body.id }), 404, "not_found");
  });
});
