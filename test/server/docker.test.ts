import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DockerFake, startDockerFake } from "../../src/integrations/docker/fake.js";
import type { BuiltApp } from "../../src/server/app.js";
import { TestClient } from "../support/client.js";
import { upstreamConfig } from "../support/config.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";
import { expectProblem } from "../support/problems.js";
import { registerSecret } from "../support/secrets.js";

/**
 * The Docker widget through the API, as a browser uses it: an admin saves the engine as an
 * integration for everyone (a socket proxy's TCP port, the daemon's Unix socket, or its TLS port
 * with a client certificate), people put the widget on dashboards, read it with
 * GET /api/widgets/data?id= and start, stop and restart containers with POST /api/widgets/action.
 * Docker is the fake on 127.0.0.1 and on a Unix socket in a temporary folder; it answers the
 * Engine API 1.47 as dockerd does, and records every call.
 */

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;
const DB_PASSWORD = "fake-db-password-9f3c1e";

/** A CA, Docker's server certificate for 127.0.0.1 and a client certificate, made with openssl. */
function dockerTlsFiles() {
  const dir = mkdtempSync(path.join(tmpdir(), "tessera-docker-tls-"));
  const file = (name: string) => path.join(dir, name);
  const run = (...args: string[]) => execFileSync("openssl", args, { stdio: "ignore" });
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  run(
    "req",
    "-x509",
    ...ec,
    "-days",
    "2",
    "-subj",
    "/CN=Test Docker CA",
    "-keyout",
    file("ca-key.pem"),
    "-out",
    file("ca.pem"),
  );
  const signed = (name: string, subject: string, extensions: string) => {
    run(
      "req",
      "-new",
      ...ec,
      "-subj",
      subject,
      "-keyout",
      file(`${name}-key.pem`),
      "-out",
      file(`${name}.csr`),
    );
    writeFileSync(file(`${name}.ext`), extensions);
    run(
      "x509",
      "-req",
      "-in",
      file(`${name}.csr`),
      "-CA",
      file("ca.pem"),
      "-CAkey",
      file("ca-key.pem"),
      "-CAcreateserial",
      "-days",
      "2",
      "-extfile",
      file(`${name}.ext`),
      "-out",
      file(`${name}.pem`),
    );
  };
  signed("server", "/CN=127.0.0.1", "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n");
  // Docker's docs: the client's certificate needs extendedKeyUsage=clientAuth.
  signed("client", "/CN=tessera-client", "extendedKeyUsage=clientAuth\n");
  const read = (name: string) => readFileSync(file(name), "utf8");
  const files = {
    ca: read("ca.pem"),
    server: { cert: read("server.pem"), key: read("server-key.pem") },
    client: { cert: read("client.pem"), key: read("client-key.pem") },
  };
  rmSync(dir, { recursive: true, force: true });
  return files;
}

/** A port nothing listens on: one the system just handed out and took back. */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

for (const modeName of MODES) {
  describe(`Docker widget (${modeName})`, { timeout: 120_000 }, () => {
    let mode: ModeEnv;
    let built: BuiltApp;
    let docker: DockerFake;
    let admin: TestClient;
    let member: TestClient;
    let viewer: TestClient;
    let other: TestClient;
    /** The engine through its TCP port, actions allowed. */
    let tcp: string;
    /** The same engine through its Unix socket, actions allowed. */
    let socket: string;
    /** Through TCP, actions not allowed. */
    let readOnly: string;
    const time = { now: Date.parse("2026-11-28T10:00:00.000Z") };
    /** Every cached answer is past its freshness. */
    const later = () => {
      time.now += 60_000;
    };

    beforeAll(async () => {
      registerSecret(DB_PASSWORD);
      docker = await startDockerFake({ now: () => time.now });
      mode = await prepareMode(modeName);
      // A short deadline: a stalled stats call must not hold a test for long.
      built = await mode.start(
        { rateLimitEnabled: false, upstream: upstreamConfig({ timeoutMs: 1500 }) },
        { clock: () => time.now },
      );
      admin = new TestClient(built.app);
      await admin.signUp("Admin");
      member = new TestClient(built.app);
      await member.signUp("Member");
      viewer = new TestClient(built.app);
      await viewer.signUp("Viewer");
      other = new TestClient(built.app);
      await other.signUp("Other");
      const save = async (name: string, url: string, allowActions: boolean) => {
        const res = await admin.post("/api/integrations", {
          kind: "docker",
          name,
          url,
          owner: "instance",
          allowPrivate: true,
          allowActions,
        });
        expect(res.status, res.text).toBe(201);
        return res.body.id as string;
      };
      tcp = await save("Server", docker.url, true);
      socket = await save("Server (socket)", `unix://${docker.socketPath}`, true);
      readOnly = await save("Server (read only)", docker.url, false);
    });
    afterAll(async () => {
      await mode?.teardown();
      await docker?.close();
    });

    const widget = (client: TestClient, config: object) => client.addWidget("Docker", config);
    const data = (client: TestClient, id: string) => client.get(`/api/widgets/data?id=${id}`);
    const act = (client: TestClient, id: string, action: string, containerId: unknown) =>
      client.post("/api/widgets/action", { id, action, input: { containerId } });
    const days = (n: number) => n * 24 * 3600_000;

    it("lists every container with its state, health, times, and CPU and memory as `docker stats` computes them", async () => {
      const { widgetId } = await widget(member, { integrationId: tcp });
      const before = docker.requests.length;
      const res = await data(member, widgetId);
      expect(res.status, res.text).toBe(200);
      const { containers, total, engine, actions } = res.body.data;
      expect({ total, engine, actions }).toEqual({ total: 5, engine: "Docker", actions: true });
      expect(containers.map((c: { name: string }) => c.name)).toEqual([
        "backup",
        "jellyfin",
        "paperless",
        "postgres",
        "watchtower",
      ]);
      const jellyfin = docker.byName("jellyfin");
      expect(containers[1]).toEqual({
        id: jellyfin.id,
        name: "jellyfin",
        image: "jellyfin/jellyfin:10.11.3",
        state: "running",
        status: "Up 4 days (healthy)",
        health: "healthy",
        startedAt: new Date(time.now - days(4)).toISOString(),
        finishedAt: null,
        exitCode: 0,
        // A quarter of one of four CPUs' time; 500 MiB used of which 100 MiB is page cache.
        stats: { cpuPercent: 25, memoryBytes: 400 * MiB, memoryLimitBytes: 8 * GiB },
        app: null,
        found: true,
      });
      expect(containers[2]).toMatchObject({
        health: "unhealthy",
        status: "Up 3 hours (unhealthy)",
        stats: { cpuPercent: 2, memoryBytes: 1 * GiB },
      });
      expect(containers[3]).toMatchObject({ health: null, stats: { cpuPercent: 4, memoryBytes: 56 * MiB } });
      expect(containers[0]).toMatchObject({
        state: "exited",
        status: "Exited (0) 25 hours ago",
        exitCode: 0,
        finishedAt: new Date(time.now - 25 * 3600_000).toISOString(),
        stats: null,
      });
      // Go's zero time is "never".
      expect(containers[4]).toMatchObject({
        state: "created",
        startedAt: null,
        finishedAt: null,
        stats: null,
      });

      const sent = docker.requests.slice(before);
      expect(sent[0]).toMatchObject({ method: "GET", path: "/_ping", via: "tcp" });
      expect(sent.filter((r) => r.path.startsWith("/containers/json"))).toEqual([]);
      expect(sent.some((r) => r.path === "/v1.47/containers/json?all=true")).toBe(true);
      expect(
        sent.filter((r) => r.path.endsWith("/json") && r.path.includes(`/containers/${jellyfin.id}`)),
      ).toHaveLength(1);
      // One sample each, only of the running ones: stream=false, so Docker fills in the previous one.
      const stats = sent.filter((r) => r.path.includes("/stats"));
      expect(stats.map((r) => r.path).sort()).toEqual(
        ["jellyfin", "paperless", "postgres"]
          .map((name) => `/v1.47/containers/${docker.byName(name).id}/stats?stream=false`)
          .sort(),
      );
      expect(sent.every((r) => r.method === "GET")).toBe(true);
      // Nothing of an inspect beyond state and times: no environment, no labels' secrets.
      expect(res.text).not.toContain("POSTGRES_PASSWORD");
    });

    it("reads the same engine through its Unix socket, addressed to localhost", async () => {
      later();
      const { widgetId } = await widget(member, { integrationId: socket });
      const before = docker.requests.length;
      const res = await data(member, widgetId);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.containers).toHaveLength(5);
      expect(res.body.data.containers[1]).toMatchObject({
        name: "jellyfin",
        stats: { cpuPercent: 25, memoryBytes: 400 * MiB },
      });
      const sent = docker.requests.slice(before);
      expect(sent.length).toBeGreaterThan(5);
      expect(sent.every((r) => r.via === "unix" && r.host === "localhost")).toBe(true);
    });

    it("shows named containers in the config's order, a missing one as a row that says so, and skips stats when asked", async () => {
      later();
      const { widgetId } = await widget(member, {
        integrationId: tcp,
        containers: "names",
        names: ["postgres", "/jellyfin", "ghost"],
        stats: false,
      });
      const before = docker.requests.length;
      const res = await data(member, widgetId);
      expect(res.status, res.text).toBe(200);
      expect(
        res.body.data.containers.map((c: { name: string; found: boolean }) => [c.name, c.found]),
      ).toEqual([
        ["postgres", true],
        ["jellyfin", true],
        ["ghost", false],
      ]);
      expect(res.body.data.containers[2]).toMatchObject({ id: "", state: "unknown", stats: null });
      expect(res.body.data.total).toBe(3);
      expect(docker.requests.slice(before).some((r) => r.path.includes("/stats"))).toBe(false);
    });

    it("finds apps in container labels, Tessera's and Homepage's, dropping a link that is not http", async () => {
      later();
      const { widgetId } = await widget(member, { integrationId: tcp, display: "apps" });
      const before = docker.requests.length;
      const res = await data(member, widgetId);
      expect(res.status, res.text).toBe(200);
      const apps = res.body.data.containers.map((c: { name: string; app: unknown; state: string }) => ({
        name: c.name,
        state: c.state,
        app: c.app,
      }));
      expect(apps).toEqual([
        {
          name: "backup",
          state: "exited",
          app: { name: "Backups", url: null, icon: null, group: "Documents", description: null },
        },
        {
          name: "jellyfin",
          state: "running",
          app: {
            name: "Jellyfin",
            url: "http://jellyfin.lan:8096/",
            icon: "jellyfin",
            group: "Media",
            description: "Films and series",
          },
        },
        {
          name: "paperless",
          state: "running",
          app: {
            name: "Paperless",
            url: "https://paperless.lan/",
            icon: "paperlessngx",
            group: "Documents",
            description: null,
          },
        },
      ]);
      expect(res.text).not.toContain("javascript:");
      expect(docker.requests.slice(before).some((r) => r.path.includes("/stats"))).toBe(false);
    });

    it("asks for the newest API version both sides speak: Podman's 1.41 (cgroup v1), Docker 29's 1.52 down to 1.47", async () => {
      const podman = await startDockerFake({ podman: true, cgroup: 1, now: () => time.now });
      const docker29 = await startDockerFake({
        apiVersion: "1.52",
        minApiVersion: "1.44",
        now: () => time.now,
      });
      try {
        for (const [fake, name, version, engine] of [
          [podman, "Podman", "1.41", "Podman"],
          [docker29, "Docker 29", "1.47", "Docker"],
        ] as const) {
          const saved = await admin.post("/api/integrations", {
            kind: "docker",
            name,
            url: fake.url,
            owner: "instance",
            allowPrivate: true,
          });
          expect(saved.status, saved.text).toBe(201);
          const { widgetId } = await widget(member, { integrationId: saved.body.id });
          const res = await data(member, widgetId);
          expect(res.status, res.text).toBe(200);
          expect(res.body.data.engine).toBe(engine);
          expect(res.body.data.containers[1]).toMatchObject({
            name: "jellyfin",
            health: "healthy",
            stats: { cpuPercent: 25, memoryBytes: 400 * MiB },
          });
          const versioned = fake.requests.filter((r) => r.path !== "/_ping");
          expect(versioned.every((r) => r.path.startsWith(`/v${version}/`))).toBe(true);
          const check = await admin.post("/api/integrations/test", { id: saved.body.id });
          expect(check.body).toMatchObject({
            ok: true,
            detail: `${engine} ${engine === "Podman" ? "5.2.0" : "27.3.1"} (API ${version}); containers can be read`,
          });
        }
      } finally {
        await podman.close();
        await docker29.close();
      }
    });

    it("lets an editor stop, start and restart a container: Docker gets the POST, the answer and the next read the new state", async () => {
      later();
      const { widgetId } = await widget(member, { integrationId: tcp });
      const jellyfin = docker.byName("jellyfin");
      expect((await data(member, widgetId)).body.data.containers[1].state).toBe("running");

      const stopped = await act(member, widgetId, "stop", jellyfin.id);
      expect(stopped.status, stopped.text).toBe(200);
      expect(stopped.body).toEqual({
        detail: "Stopped jellyfin through Server: exited now",
        result: {
          id: jellyfin.id,
          name: "jellyfin",
          state: "exited",
          health: "healthy",
          startedAt: new Date(jellyfin.startedAt as number).toISOString(),
          unchanged: false,
        },
      });
      expect(docker.requests.at(-2)).toMatchObject({
        method: "POST",
        path: `/v1.47/containers/${jellyfin.id}/stop`,
      });
      expect(jellyfin.state).toBe("exited");
      // Without waiting for the cache: the action forgot what was kept.
      expect((await data(member, widgetId)).body.data.containers[1]).toMatchObject({
        state: "exited",
        stats: null,
      });

      // Docker's 304: already stopped; said so, not an error.
      const again = await act(member, widgetId, "stop", jellyfin.id);
      expect(again.status, again.text).toBe(200);
      expect(again.body.detail).toBe("jellyfin was already stopped (Server)");
      expect(again.body.result.unchanged).toBe(true);

      time.now += 5_000;
      const started = await act(member, widgetId, "start", jellyfin.id);
      expect(started.status, started.text).toBe(200);
      expect(started.body.result).toMatchObject({
        state: "running",
        startedAt: new Date(time.now).toISOString(),
      });

      time.now += 5_000;
      const restarted = await act(member, widgetId, "restart", jellyfin.id);
      expect(restarted.status, restarted.text).toBe(200);
      expect(restarted.body.result).toMatchObject({
        state: "running",
        health: "starting",
        startedAt: new Date(time.now).toISOString(),
      });
    });

    it("acts through the Unix socket too", async () => {
      const { widgetId } = await widget(member, { integrationId: socket });
      const backup = docker.byName("backup");
      const before = docker.requests.length;
      const res = await act(member, widgetId, "start", backup.id);
      expect(res.status, res.text).toBe(200);
      expect(backup.state).toBe("running");
      const post = docker.requests.slice(before).find((r) => r.method === "POST");
      expect(post).toMatchObject({
        via: "unix",
        host: "localhost",
        path: `/v1.47/containers/${backup.id}/start`,
      });
      expect((await act(member, widgetId, "stop", backup.id)).status).toBe(200);
    });

    it("refuses actions to viewers (403), others (404), visitors (401), without allowActions (403), and bad input (400)", async () => {
      const { dashboardId, widgetId } = await widget(member, {
        integrationId: tcp,
        containers: "names",
        names: ["jellyfin", "paperless"],
      });
      const shared = await member.put("/api/dashboards/members", {
        id: dashboardId,
        members: [
          { type: "user", id: viewer.user!.id, role: "viewer" },
          { type: "user", id: admin.user!.id, role: "editor" },
        ],
      });
      expect(shared.status, shared.text).toBe(200);
      const paperless = docker.byName("paperless");
      const posts = () => docker.count("/restart", "POST");
      const before = posts();

      expect((await data(viewer, widgetId)).status).toBe(200);
      expectProblem(await act(viewer, widgetId, "restart", paperless.id), 403, "forbidden");
      expectProblem(await data(other, widgetId), 404, "not_found");
      expectProblem(await act(other, widgetId, "restart", paperless.id), 404, "not_found");
      expectProblem(
        await act(new TestClient(built.app), widgetId, "restart", paperless.id),
        401,
        "unauthenticated",
      );
      // An editor of the shared dashboard may, through the owner's integration.
      const byEditor = await act(admin, widgetId, "restart", paperless.id);
      expect(byEditor.status, byEditor.text).toBe(200);
      expect(posts()).toBe(before + 1);

      const garbage = await act(member, widgetId, "restart", "../../containers/create");
      expectProblem(garbage, 400, "validation_failed");
      expect(garbage.body.errors[0].path).toBe("/input/containerId");
      expectProblem(
        await act(member, widgetId, "restart", paperless.id.slice(0, 12)),
        400,
        "validation_failed",
      );
      const extra = await member.post("/api/widgets/action", {
        id: widgetId,
        action: "restart",
        input: { containerId: paperless.id, t: 0 },
      });
      expectProblem(extra, 400, "validation_failed");
      expectProblem(
        await member.post("/api/widgets/action", {
          id: widgetId,
          action: "kill",
          input: { containerId: paperless.id },
        }),
        400,
        "validation_failed",
      );
      // Not one of this widget's containers.
      const notListed = await act(member, widgetId, "restart", docker.byName("postgres").id);
      expectProblem(notListed, 400, "validation_failed");
      expect(notListed.body.errors).toEqual([
        { path: "/input/containerId", message: "must be one of the widget's containers" },
      ]);
      // An id the engine does not have.
      const unknown = await act(member, widgetId, "restart", "f".repeat(64));
      expectProblem(unknown, 404, "not_found");
      expect(unknown.body.detail).toBe("Server has no such container (it may have been removed)");

      const off = await widget(member, { integrationId: readOnly });
      expect((await data(member, off.widgetId)).body.data.actions).toBe(false);
      const refused = await act(member, off.widgetId, "restart", paperless.id);
      expectProblem(refused, 403, "forbidden");
      expect(refused.body.detail).toBe(
        "Actions through Server (read only) are off: an admin can turn them on in the integration's settings",
      );
      expect(posts()).toBe(before + 1);
    });

    it("records each action in the audit log with its outcome", async () => {
      const { widgetId } = await widget(member, { integrationId: tcp });
      const off = await widget(member, { integrationId: readOnly });
      const postgres = docker.byName("postgres");
      expect((await act(member, widgetId, "restart", postgres.id)).status).toBe(200);
      expect((await act(member, off.widgetId, "stop", postgres.id)).status).toBe(403);
      const audit = await admin.get("/api/admin/audit?limit=2");
      expect(audit.status, audit.text).toBe(200);
      expect(audit.body.events).toEqual([
        expect.objectContaining({
          action: "widget.action",
          target: `widget:${off.widgetId}`,
          detail: {
            widgetType: "Docker",
            action: "stop",
            input: { containerId: postgres.id },
            outcome: "failed",
            detail: expect.stringContaining("Actions through Server (read only) are off"),
          },
        }),
        expect.objectContaining({
          target: `widget:${widgetId}`,
          detail: expect.objectContaining({
            action: "restart",
            outcome: "done",
            detail: "Restarted postgres through Server: running now",
          }),
        }),
      ]);
    });

    it("says clearly when a read-only socket proxy refuses an action, and which proxy settings allow it", async () => {
      const proxied = await startDockerFake({
        proxy: { containers: true, post: false },
        now: () => time.now,
      });
      try {
        const saved = await admin.post("/api/integrations", {
          kind: "docker",
          name: "Proxy",
          url: proxied.url,
          owner: "instance",
          allowPrivate: true,
          allowActions: true,
        });
        const { widgetId } = await widget(member, { integrationId: saved.body.id });
        // Reading goes through: CONTAINERS=1 is all a list needs.
        const read = await data(member, widgetId);
        expect(read.status, read.text).toBe(200);
        expect(read.body.data.containers).toHaveLength(5);
        const jellyfin = proxied.byName("jellyfin");
        const refused = await act(member, widgetId, "stop", jellyfin.id);
        expectProblem(refused, 502, "upstream_failed");
        expect(refused.body.detail).toBe(
          "Proxy refused to stop jellyfin (403): its socket proxy is read-only. To let Tessera start, stop and restart containers, run LinuxServer's socket-proxy with ALLOW_START=1, ALLOW_STOP=1 and ALLOW_RESTARTS=1 (POST can stay 0)",
        );
        expect(jellyfin.state).toBe("running");
        // LinuxServer's proxy with the power actions allowed and POST still off.
        proxied.proxy = { containers: true, post: false, allowPower: true };
        expect((await act(member, widgetId, "stop", jellyfin.id)).status).toBe(200);
        expect(jellyfin.state).toBe("exited");

        // A proxy that does not let containers be read.
        proxied.proxy = { containers: false, post: false };
        later();
        const blind = await data(member, widgetId);
        expectProblem(blind, 502, "upstream_failed");
        expect(blind.body.detail).toBe(
          "Proxy refused the containers (403): let the socket proxy read containers (CONTAINERS=1)",
        );
        const check = await admin.post("/api/integrations/test", { id: saved.body.id });
        expect(check.body).toMatchObject({ ok: false, detail: expect.stringContaining("CONTAINERS=1") });
      } finally {
        await proxied.close();
      }
    });

    it("answers an unreachable engine as the widget's upstream failure (502 with the reason), never a crash", async () => {
      const port = await closedPort();
      const gone = await admin.post("/api/integrations", {
        kind: "docker",
        name: "Old NAS",
        url: `http://127.0.0.1:${port}`,
        owner: "instance",
        allowPrivate: true,
      });
      expect(gone.status, gone.text).toBe(201);
      const { widgetId } = await widget(member, { integrationId: gone.body.id });
      const res = await data(member, widgetId);
      expectProblem(res, 502, "upstream_failed");
      expect(res.body.detail).toMatch(/^Could not reach Old NAS for the ping/);
      const socketGone = await admin.post("/api/integrations", {
        kind: "docker",
        name: "No socket",
        url: `unix://${docker.socketPath}.missing`,
        owner: "instance",
      });
      expect(socketGone.status, socketGone.text).toBe(201);
      const viaSocket = await widget(member, { integrationId: socketGone.body.id });
      expectProblem(await data(member, viaSocket.widgetId), 502, "upstream_failed");
    });

    it("shows the other containers' figures when one container's stats stall", async () => {
      later();
      docker.stalledStats.add("postgres");
      try {
        const { widgetId } = await widget(member, {
          integrationId: tcp,
          containers: "names",
          names: ["postgres", "paperless"],
        });
        const res = await data(member, widgetId);
        expect(res.status, res.text).toBe(200);
        expect(res.body.data.containers[0]).toMatchObject({
          name: "postgres",
          state: "running",
          stats: null,
        });
        expect(res.body.data.containers[1]).toMatchObject({ name: "paperless", stats: { cpuPercent: 2 } });
      } finally {
        docker.stalledStats.clear();
      }
    });

    it("sends the client certificate to Docker's TLS port, and never answers its key", async () => {
      const tls = dockerTlsFiles();
      registerSecret(tls.client.key.split("\n")[1]!);
      const secured = await startDockerFake({ tls: { ...tls.server, ca: tls.ca }, now: () => time.now });
      try {
        const saved = await admin.post("/api/integrations", {
          kind: "docker",
          name: "TLS engine",
          url: secured.url,
          owner: "instance",
          allowPrivate: true,
          caCertificate: tls.ca,
          secrets: { tlsCertificate: tls.client.cert, tlsKey: tls.client.key },
        });
        expect(saved.status, saved.text).toBe(201);
        expect(saved.body.secrets).toEqual(["tlsCertificate", "tlsKey"]);
        const { widgetId } = await widget(member, { integrationId: saved.body.id });
        const res = await data(member, widgetId);
        expect(res.status, res.text).toBe(200);
        expect(res.body.data.containers).toHaveLength(5);
        expect(secured.requests.every((r) => r.clientName === "tessera-client")).toBe(true);
        const listed = await admin.get("/api/integrations");
        expect(listed.text).not.toContain("PRIVATE KEY");

        // Without the client certificate, the TLS handshake is refused.
        const bare = await admin.post("/api/integrations", {
          kind: "docker",
          name: "TLS without a certificate",
          url: secured.url,
          owner: "instance",
          allowPrivate: true,
          caCertificate: tls.ca,
        });
        const refused = await data(member, (await widget(member, { integrationId: bare.body.id })).widgetId);
        expectProblem(refused, 502, "upstream_failed");
      } finally {
        await secured.close();
      }
    });

    it("refuses configs the parser would silently repair, naming the key", async () => {
      const board = await member.post("/api/dashboards", { name: "Bad containers" });
      const post = (config: object) =>
        member.post("/api/widgets", {
          dashboardId: board.body.id,
          widgetType: "Docker",
          height: 200,
          width: 200,
          positionX: 0,
          positionY: 0,
          config,
        });
      const bad = await post({
        integrationId: tcp,
        containers: "some",
        names: ["/jellyfin", "my container", 7],
        stats: "yes",
        display: "grid",
        refreshSeconds: 2,
      });
      expectProblem(bad, 400, "validation_failed");
      expect(bad.body.errors).toEqual([
        { path: "/config/containers", message: "must be one of: all, names" },
        { path: "/config/names/1", message: expect.stringContaining("container name") },
        { path: "/config/names/2", message: expect.stringContaining("container name") },
        { path: "/config/stats", message: "must be true or false" },
        { path: "/config/display", message: "must be one of: list, apps" },
        { path: "/config/refreshSeconds", message: expect.stringContaining("from 10 to 3600") },
      ]);
      const tooMany = await post({ names: Array.from({ length: 201 }, (_, i) => `app${i}`) });
      expectProblem(tooMany, 400, "validation_failed");
      expect(tooMany.body.errors[0]).toEqual({
        path: "/config/names",
        message: "must hold at most 200 names",
      });
    });

    it("keeps the socket and the TLS port to admins' instance integrations, and other people's integrations to themselves", async () => {
      const byMember = await member.post("/api/integrations", {
        kind: "docker",
        name: "Mine",
        url: `unix://${docker.socketPath}`,
        owner: "me",
      });
      expectProblem(byMember, 403, "forbidden");
      const personal = await admin.post("/api/integrations", {
        kind: "docker",
        name: "Admin's own",
        url: docker.url,
        allowPrivate: true,
      });
      expect(personal.status, personal.text).toBe(201);
      const borrowed = await widget(member, { integrationId: personal.body.id });
      const refused = await data(member, borrowed.widgetId);
      expectProblem(refused, 404, "not_found");
      expect(refused.body.detail).toBe("This Docker integration is gone or not yours");
      expectProblem(
        await act(member, borrowed.widgetId, "stop", docker.byName("jellyfin").id),
        404,
        "not_found",
      );
      // Without an integration, or with no names picked, the widget asks for nothing yet.
      expectProblem(await data(member, (await widget(member, {})).widgetId), 404, "not_found");
      expectProblem(
        await data(member, (await widget(member, { integrationId: tcp, containers: "names" })).widgetId),
        404,
        "not_found",
      );
    });

    it("lists the engine's containers for the settings to pick from, to those who may use it", async () => {
      const res = await member.get(`/api/docker/containers?integrationId=${socket}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.map((c: { name: string }) => c.name)).toEqual([
        "backup",
        "jellyfin",
        "paperless",
        "postgres",
        "watchtower",
      ]);
      expect(res.body[3]).toEqual({ name: "postgres", image: "postgres:17", state: "running" });
      expectProblem(
        await member.get(`/api/docker/containers?integrationId=${crypto.randomUUID()}`),
        404,
        "not_found",
      );
      expectProblem(await member.get("/api/docker/containers?integrationId=nope"), 400, "validation_failed");
      expectProblem(
        await new TestClient(built.app).get(`/api/docker/containers?integrationId=${tcp}`),
        401,
        "unauthenticated",
      );
    });

    it("shows the containers to visitors of a public dashboard, and never lets them act", async () => {
      later();
      const { dashboardId, widgetId } = await widget(member, { integrationId: tcp, display: "apps" });
      const published = await member.put("/api/dashboards", {
        id: dashboardId,
        name: "Home",
        isPublic: true,
      });
      expect(published.status, published.text).toBe(200);
      const visitor = new TestClient(built.app);
      const seen = await visitor.get(`/api/public/dashboards/${dashboardId}/widgets/${widgetId}/data`);
      expect(seen.status, seen.text).toBe(200);
      expect(seen.body.data.containers.map((c: { app: { name: string } }) => c.app.name)).toEqual([
        "Backups",
        "Jellyfin",
        "Paperless",
      ]);
      expectProblem(
        await act(visitor, widgetId, "stop", docker.byName("jellyfin").id),
        401,
        "unauthenticated",
      );
    });
  });
}
