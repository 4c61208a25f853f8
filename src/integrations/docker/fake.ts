import { mkdtempSync, rmSync } from "node:fs";
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TLSSocket } from "node:tls";

/**
 * The Docker Engine API for tests, as dockerd 27 answers it (moby swagger, API 1.47), on
 * 127.0.0.1 and at once on a Unix socket in a temporary folder, so both ways in are real:
 * - paths carry a version (`/v1.47/...`; none means the newest); a version above the daemon's or
 *   below its minimum is 400 `{"message":"client version 1.99 is too new. Maximum supported API
 *   version is 1.47"}`, as the daemon's version middleware answers;
 * - `GET|HEAD /_ping` → `OK` with `Api-Version`, `Server: Docker/27.3.1 (linux)` (or Podman's
 *   `Libpod/...` headers with `podman: true`);
 * - `GET /version`; `GET /containers/json` (running ones, or every one with `all=true|1`;
 *   the `Health` field only for API 1.52 and later, as the daemon does);
 * - `GET /containers/{id|name|id prefix}/json` (inspect: State with Health, StartedAt,
 *   FinishedAt; Config with Env and Labels); `GET /containers/{id}/stats`: with `stream=false`
 *   one sample with `precpu_stats` filled (cgroup v2 memory by default, v1 with `cgroup: 1`),
 *   otherwise a stream of samples each second until the caller hangs up, as Docker streams;
 * - `POST /containers/{id}/start|stop|restart` → 204, 304 for a redundant start or stop;
 *   unknown containers are 404 `{"message":"No such container: <id>"}`.
 * Errors are `{"message": …}` JSON, as Docker writes them. Never-set times are
 * `0001-01-01T00:00:00Z`, as Go's zero time.
 *
 * `proxy` puts a socket proxy in front (Tecnativa's and LinuxServer's HAProxy): a path its
 * settings do not allow, or any POST while `post` is off, is refused with HAProxy's 403 page.
 * With `tls`, the TCP side is Docker's TLS port (`--tlsverify`): HTTPS that refuses, during the
 * handshake, any client without a certificate signed by `tls.ca`.
 * Every request is recorded (method, path with query, how it came, Host header, and over TLS
 * the client certificate's subject).
 */
export type DockerState = "created" | "running" | "paused" | "restarting" | "exited" | "removing" | "dead";

export interface FakeContainer {
  id: string;
  name: string;
  image: string;
  state: DockerState;
  exitCode: number;
  /** Milliseconds; null when never started or never finished (Go's zero time then). */
  startedAt: number | null;
  finishedAt: number | null;
  /** The healthcheck's state; absent when the image has none. */
  health?: { status: "starting" | "healthy" | "unhealthy"; failingStreak: number };
  labels: Record<string, string>;
  env: string[];
  /** What `stats` reports: CPU ticks (ns) of this and the previous sample, memory in bytes. */
  usage: {
    cpuTotal: number;
    precpuTotal: number;
    system: number;
    presystem: number;
    onlineCpus: number;
    memory: number;
    inactiveFile: number;
    memoryLimit: number;
  };
}

export interface DockerRequest {
  method: string;
  path: string;
  via: "tcp" | "unix";
  host: string | undefined;
  headers: IncomingHttpHeaders;
  /** Over TLS: the common name of the client certificate presented. */
  clientName?: string;
}

/** What a socket proxy in front lets through (its env: CONTAINERS, POST, ALLOW_*; PING and VERSION on). */
export interface FakeProxy {
  containers: boolean;
  post: boolean;
  /** LinuxServer's ALLOW_START/ALLOW_STOP/ALLOW_RESTARTS: checked before the POST gate. */
  allowPower?: boolean;
}

export interface DockerFake {
  /** `http://127.0.0.1:<port>` (`https://` with `tls`) */
  url: string;
  /** The Unix socket's path; its address is `unix://<path>`. */
  socketPath: string;
  apiVersion: string;
  minApiVersion: string;
  containers: Map<string, FakeContainer>;
  requests: DockerRequest[];
  /** A socket proxy in front, or null for the daemon itself. */
  proxy: FakeProxy | null;
  /** Names of containers whose stats never answer (a hung cgroup read). */
  stalledStats: Set<string>;
  byName(name: string): FakeContainer;
  /** Requests whose path (without the query) ends with `suffix`. */
  count(suffix: string, method?: string): number;
  close(): Promise<void>;
}

const ZERO_TIME = "0001-01-01T00:00:00Z";

/** Go writes RFC 3339 with nanoseconds. */
const goTime = (ms: number | null) =>
  ms === null ? ZERO_TIME : new Date(ms).toISOString().replace(/Z$/, "456789Z");

const HAPROXY_403 =
  "<html><body><h1>403 Forbidden</h1>\nRequest forbidden by administrative rules.\n</body></html>\n";

/** go-units' HumanDuration, which `docker ps` STATUS uses. */
function humanDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 1) return "Less than a second";
  if (s === 1) return "1 second";
  if (s < 60) return `${s} seconds`;
  const m = Math.floor(s / 60);
  if (m === 1) return "About a minute";
  if (m < 60) return `${m} minutes`;
  const h = Math.round(s / 3600);
  if (h === 1) return "About an hour";
  if (h < 48) return `${h} hours`;
  if (h < 24 * 7 * 2) return `${Math.floor(h / 24)} days`;
  if (h < 24 * 30 * 2) return `${Math.floor(h / 24 / 7)} weeks`;
  if (h < 24 * 365 * 2) return `${Math.floor(h / 24 / 30)} months`;
  return `${Math.floor(h / 24 / 365)} years`;
}

function statusText(c: FakeContainer, now: number): string {
  const health = c.health
    ? ` (${c.health.status === "starting" ? "health: starting" : c.health.status})`
    : "";
  switch (c.state) {
    case "running":
      return `Up ${humanDuration(now - (c.startedAt ?? now))}${health}`;
    case "paused":
      return `Up ${humanDuration(now - (c.startedAt ?? now))} (Paused)`;
    case "restarting":
      return `Restarting (${c.exitCode}) ${humanDuration(now - (c.finishedAt ?? now))} ago`;
    case "exited":
      return `Exited (${c.exitCode}) ${humanDuration(now - (c.finishedAt ?? now))} ago`;
    case "created":
      return "Created";
    case "removing":
      return "Removal In Progress";
    case "dead":
      return "Dead";
  }
}

const hexId = (seed: string) => {
  let out = "";
  let h = 0x811c9dc5;
  while (out.length < 64) {
    for (const ch of `${seed}${out.length}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    out += h.toString(16).padStart(8, "0");
  }
  return out.slice(0, 64);
};

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

/** A small home server: media, documents, a database, a nightly backup job, one never started. */
export function seedContainers(now: number): FakeContainer[] {
  const container = (
    name: string,
    image: string,
    state: DockerState,
    more: Partial<FakeContainer> = {},
  ): FakeContainer => ({
    id: hexId(name),
    name,
    image,
    state,
    exitCode: 0,
    startedAt: state === "created" ? null : now - 4 * 24 * 3600_000,
    finishedAt: null,
    labels: {},
    env: ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"],
    usage: {
      cpuTotal: 0,
      precpuTotal: 0,
      system: 0,
      presystem: 0,
      onlineCpus: 4,
      memory: 0,
      inactiveFile: 0,
      memoryLimit: 8 * GiB,
    },
    ...more,
  });
  const busy = (cpuShare: number, memory: number, inactiveFile: number) => ({
    // One second between samples on four CPUs: 4e9 ns of system time.
    cpuTotal: 1_000_000_000 + cpuShare * 4_000_000_000,
    precpuTotal: 1_000_000_000,
    system: 900_004_000_000_000,
    presystem: 900_000_000_000_000,
    onlineCpus: 4,
    memory,
    inactiveFile,
    memoryLimit: 8 * GiB,
  });
  return [
    container("jellyfin", "jellyfin/jellyfin:10.11.3", "running", {
      health: { status: "healthy", failingStreak: 0 },
      labels: {
        "homepage.name": "Jellyfin",
        "homepage.href": "http://jellyfin.lan:8096",
        "homepage.icon": "jellyfin.png",
        "homepage.group": "Media",
        "homepage.description": "Films and series",
        "com.docker.compose.project": "media",
      },
      // 6.25 % of one of four CPUs' second: 25 %, as `docker stats` shows it.
      usage: busy(0.0625, 500 * MiB, 100 * MiB),
    }),
    container("paperless", "ghcr.io/paperless-ngx/paperless-ngx:2.14", "running", {
      startedAt: now - 3 * 3600_000,
      health: { status: "unhealthy", failingStreak: 3 },
      labels: {
        "tessera.name": "Paperless",
        "tessera.url": "https://paperless.lan",
        "tessera.icon": "si:paperlessngx",
        "tessera.group": "Documents",
      },
      usage: busy(0.005, 1.5 * GiB, 512 * MiB),
    }),
    container("postgres", "postgres:17", "running", {
      env: [
        "POSTGRES_PASSWORD=fake-db-password-9f3c1e",
        "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
      ],
      usage: busy(0.01, 256 * MiB, 200 * MiB),
    }),
    container("backup", "restic/restic:0.17", "exited", {
      exitCode: 0,
      startedAt: now - 26 * 3600_000,
      finishedAt: now - 25 * 3600_000,
      labels: {
        "tessera.name": "Backups",
        "tessera.url": "javascript:alert(1)",
        "tessera.group": "Documents",
      },
    }),
    container("watchtower", "containrrr/watchtower:1.7", "created"),
  ];
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(`${JSON.stringify(body)}\n`);
}

const versionNumber = (v: string) => {
  const [major = 0, minor = 0] = v.split(".").map(Number);
  return major * 1000 + minor;
};

function listItem(c: FakeContainer, now: number, api: string) {
  return {
    Id: c.id,
    Names: [`/${c.name}`],
    Image: c.image,
    ImageID: `sha256:${hexId(c.image)}`,
    Command: "/init",
    Created: Math.floor(((c.startedAt ?? now) - 60_000) / 1000),
    Ports: [],
    Labels: c.labels,
    State: c.state,
    Status: statusText(c, now),
    HostConfig: { NetworkMode: "bridge" },
    NetworkSettings: { Networks: { bridge: { IPAddress: "172.17.0.2", Gateway: "172.17.0.1" } } },
    Mounts: [],
    ...(versionNumber(api) >= versionNumber("1.52")
      ? { Health: { Status: c.health?.status ?? "none", FailingStreak: c.health?.failingStreak ?? 0 } }
      : {}),
  };
}

function inspect(c: FakeContainer, now: number) {
  return {
    Id: c.id,
    Created: goTime((c.startedAt ?? now) - 60_000),
    Path: "/init",
    Args: [],
    State: {
      Status: c.state,
      Running: c.state === "running" || c.state === "paused" || c.state === "restarting",
      Paused: c.state === "paused",
      Restarting: c.state === "restarting",
      OOMKilled: false,
      Dead: c.state === "dead",
      Pid: c.state === "running" ? 4242 : 0,
      ExitCode: c.exitCode,
      Error: "",
      StartedAt: goTime(c.startedAt),
      FinishedAt: goTime(c.finishedAt),
      ...(c.health
        ? {
            Health: {
              Status: c.health.status,
              FailingStreak: c.health.failingStreak,
              Log: [
                {
                  Start: goTime(now - 30_000),
                  End: goTime(now - 29_000),
                  ExitCode: c.health.status === "unhealthy" ? 1 : 0,
                  Output: c.health.status === "unhealthy" ? "curl: (7) Failed to connect" : "",
                },
              ],
            },
          }
        : {}),
    },
    Image: `sha256:${hexId(c.image)}`,
    Name: `/${c.name}`,
    RestartCount: 0,
    Driver: "overlay2",
    Platform: "linux",
    HostConfig: { NetworkMode: "bridge", RestartPolicy: { Name: "unless-stopped", MaximumRetryCount: 0 } },
    Config: { Hostname: c.id.slice(0, 12), Image: c.image, Env: c.env, Labels: c.labels, Cmd: ["/init"] },
    NetworkSettings: { Networks: { bridge: { IPAddress: "172.17.0.2" } } },
    Mounts: [],
  };
}

/** One stats sample as the daemon writes it for cgroup v2 (or v1); zeros for a container not running. */
function statsOf(c: FakeContainer, now: number, cgroup: 1 | 2) {
  const running = c.state === "running";
  const u = c.usage;
  const cpu = (total: number, system: number) => ({
    cpu_usage: {
      total_usage: running ? total : 0,
      usage_in_kernelmode: running ? Math.floor(total / 3) : 0,
      usage_in_usermode: running ? total - Math.floor(total / 3) : 0,
      ...(cgroup === 1 && running
        ? { percpu_usage: Array.from({ length: u.onlineCpus }, () => total / u.onlineCpus) }
        : {}),
    },
    ...(running ? { system_cpu_usage: system, online_cpus: u.onlineCpus } : {}),
    throttling_data: { periods: 0, throttled_periods: 0, throttled_time: 0 },
  });
  const memoryStats = !running
    ? {}
    : cgroup === 2
      ? {
          usage: u.memory,
          stats: {
            anon: u.memory - u.inactiveFile,
            file: u.inactiveFile,
            active_file: 0,
            inactive_file: u.inactiveFile,
            kernel_stack: 16384,
          },
          limit: u.memoryLimit,
        }
      : {
          usage: u.memory,
          max_usage: u.memory,
          stats: {
            cache: u.inactiveFile,
            total_inactive_file: u.inactiveFile,
            rss: u.memory - u.inactiveFile,
          },
          limit: u.memoryLimit,
        };
  return {
    name: `/${c.name}`,
    id: c.id,
    read: running ? goTime(now) : ZERO_TIME,
    preread: running ? goTime(now - 1000) : ZERO_TIME,
    pids_stats: running ? { current: 12, limit: 4915 } : {},
    blkio_stats: {
      io_service_bytes_recursive: null,
      io_serviced_recursive: null,
      io_queue_recursive: null,
      io_service_time_recursive: null,
      io_wait_time_recursive: null,
      io_merged_recursive: null,
      io_time_recursive: null,
      sectors_recursive: null,
    },
    num_procs: 0,
    storage_stats: {},
    cpu_stats: cpu(u.cpuTotal, u.system),
    precpu_stats: cpu(u.precpuTotal, u.presystem),
    memory_stats: memoryStats,
    ...(running
      ? { networks: { eth0: { rx_bytes: 1024, tx_bytes: 2048, rx_packets: 8, tx_packets: 9 } } }
      : {}),
  };
}

/** What a socket proxy refuses: HAProxy answers 403 before the daemon sees anything. */
function proxyRefuses(proxy: FakeProxy, method: string, route: string): boolean {
  if (route === "/_ping" || route === "/version") return method === "POST";
  if (route.startsWith("/containers")) {
    if (!proxy.containers) return true;
    if (method !== "POST") return false;
    if (proxy.allowPower && /^\/containers\/[^/]+\/(start|stop|restart)$/.test(route)) return false;
    return !proxy.post;
  }
  return true;
}

export async function startDockerFake(
  options: {
    apiVersion?: string;
    minApiVersion?: string;
    podman?: boolean;
    cgroup?: 1 | 2;
    proxy?: FakeProxy | null;
    /** Docker's TLS port: the server's certificate and key, and the CA its clients' certificates come from. */
    tls?: { cert: string; key: string; ca: string };
    now?: () => number;
  } = {},
): Promise<DockerFake> {
  const now = options.now ?? Date.now;
  const cgroup = options.cgroup ?? 2;
  const serverHeader = options.podman ? "Libpod/5.2.0 (linux)" : "Docker/27.3.1 (linux)";
  const streams = new Set<NodeJS.Timeout>();

  const handler = (via: "tcp" | "unix") => async (req: IncomingMessage, res: ServerResponse) => {
    for await (const _ of req) {
      // Docker reads and ignores a body on these endpoints.
    }
    const url = new URL(req.url ?? "/", "http://docker");
    const method = req.method ?? "GET";
    const peer = "getPeerCertificate" in req.socket ? (req.socket as TLSSocket).getPeerCertificate() : null;
    fake.requests.push({
      method,
      path: `${url.pathname}${url.search}`,
      via,
      host: req.headers.host,
      headers: req.headers,
      ...(peer?.subject ? { clientName: String(peer.subject.CN) } : {}),
    });
    const versioned = /^\/v(\d+\.\d+)(\/.*)$/.exec(url.pathname);
    const api = versioned?.[1] ?? fake.apiVersion;
    const route = versioned?.[2] ?? url.pathname;

    if (fake.proxy && proxyRefuses(fake.proxy, method, route)) {
      res.writeHead(403, { "content-type": "text/html", "cache-control": "no-cache" });
      return res.end(HAPROXY_403);
    }
    const common = { server: serverHeader, "api-version": fake.apiVersion, ostype: "linux" };
    if (versionNumber(api) > versionNumber(fake.apiVersion))
      return send(
        res,
        400,
        {
          message: `client version ${api} is too new. Maximum supported API version is ${fake.apiVersion}`,
        },
        common,
      );
    if (versionNumber(api) < versionNumber(fake.minApiVersion))
      return send(
        res,
        400,
        {
          message: `client version ${api} is too old. Minimum supported API version is ${fake.minApiVersion}, please upgrade your client to a newer version`,
        },
        common,
      );

    if ((method === "GET" || method === "HEAD") && route === "/_ping") {
      res.writeHead(200, {
        ...common,
        "content-type": "text/plain; charset=utf-8",
        "cache-control": "no-cache, no-store, must-revalidate",
        pragma: "no-cache",
        "docker-experimental": "false",
        ...(options.podman ? { "libpod-api-version": "5.2.0", "libpod-buildah-version": "1.37.0" } : {}),
      });
      return res.end(method === "HEAD" ? undefined : "OK");
    }
    if (method === "GET" && route === "/version")
      return send(
        res,
        200,
        {
          Platform: { Name: options.podman ? "Podman Engine" : "Docker Engine - Community" },
          Version: options.podman ? "5.2.0" : "27.3.1",
          ApiVersion: fake.apiVersion,
          MinAPIVersion: fake.minApiVersion,
          GitCommit: "41ca978",
          GoVersion: "go1.22.7",
          Os: "linux",
          Arch: "amd64",
          KernelVersion: "6.8.0-49-generic",
          BuildTime: "2024-09-20T11:41:19.000000000+00:00",
        },
        common,
      );
    if (method === "GET" && route === "/containers/json") {
      const all = ["1", "true"].includes(url.searchParams.get("all") ?? "");
      const listed = [...fake.containers.values()].filter((c) => all || c.state === "running");
      return send(
        res,
        200,
        listed.map((c) => listItem(c, now(), api)),
        common,
      );
    }
    const one = /^\/containers\/([^/]+)(?:\/([a-z]+))?$/.exec(route);
    if (one) {
      const [, ref = "", action] = one;
      const name = decodeURIComponent(ref).replace(/^\//, "");
      const found =
        [...fake.containers.values()].find((c) => c.id === name || c.name === name) ??
        (name.length >= 1
          ? (() => {
              const prefixed = [...fake.containers.values()].filter((c) => c.id.startsWith(name));
              return prefixed.length === 1 ? prefixed[0] : undefined;
            })()
          : undefined);
      if (!found) return send(res, 404, { message: `No such container: ${name}` }, common);
      if (method === "GET" && action === "json") return send(res, 200, inspect(found, now()), common);
      if (method === "GET" && action === "stats") {
        if (fake.stalledStats.has(found.name)) return; // never answers: the caller's deadline ends it
        const stream = !["0", "false"].includes(url.searchParams.get("stream") ?? "true");
        if (!stream) return send(res, 200, statsOf(found, now(), cgroup), common);
        res.writeHead(200, { ...common, "content-type": "application/json" });
        res.write(`${JSON.stringify(statsOf(found, now(), cgroup))}\n`);
        const timer = setInterval(
          () => res.write(`${JSON.stringify(statsOf(found, now(), cgroup))}\n`),
          1000,
        );
        streams.add(timer);
        res.on("close", () => {
          clearInterval(timer);
          streams.delete(timer);
        });
        return;
      }
      if (method === "POST" && action === "start") {
        if (found.state === "running") {
          res.writeHead(304, common);
          return res.end();
        }
        found.state = "running";
        found.startedAt = now();
        res.writeHead(204, common);
        return res.end();
      }
      if (method === "POST" && action === "stop") {
        if (found.state !== "running" && found.state !== "paused" && found.state !== "restarting") {
          res.writeHead(304, common);
          return res.end();
        }
        found.state = "exited";
        found.exitCode = 0;
        found.finishedAt = now();
        res.writeHead(204, common);
        return res.end();
      }
      if (method === "POST" && action === "restart") {
        found.state = "running";
        found.startedAt = now();
        found.finishedAt = now();
        if (found.health) found.health = { status: "starting", failingStreak: 0 };
        res.writeHead(204, common);
        return res.end();
      }
    }
    return send(res, 404, { message: "page not found" }, common);
  };

  const tcp = options.tls
    ? createTlsServer({ ...options.tls, requestCert: true, rejectUnauthorized: true }, handler("tcp"))
    : createServer(handler("tcp"));
  const unix = createServer(handler("unix"));
  const folder = mkdtempSync(path.join(tmpdir(), "tessera-docker-"));
  const socketPath = path.join(folder, "docker.sock");
  const port = await new Promise<number>((resolve) =>
    tcp.listen(0, "127.0.0.1", () => resolve((tcp.address() as AddressInfo).port)),
  );
  await new Promise<void>((resolve) => unix.listen(socketPath, resolve));
  const close = (server: Server) =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });

  const fake: DockerFake = {
    url: `${options.tls ? "https" : "http"}://127.0.0.1:${port}`,
    socketPath,
    apiVersion: options.apiVersion ?? (options.podman ? "1.41" : "1.47"),
    minApiVersion: options.minApiVersion ?? "1.24",
    containers: new Map(seedContainers(now()).map((c) => [c.id, c])),
    requests: [],
    proxy: options.proxy ?? null,
    stalledStats: new Set(),
    byName(name) {
      const found = [...fake.containers.values()].find((c) => c.name === name);
      if (!found) throw new Error(`The fake has no container ${name}`);
      return found;
    },
    count: (suffix, method) =>
      fake.requests.filter((r) => r.path.split("?")[0]!.endsWith(suffix) && (!method || r.method === method))
        .length,
    async close() {
      for (const timer of streams) clearInterval(timer);
      await Promise.all([close(tcp), close(unix)]);
      rmSync(folder, { recursive: true, force: true });
    },
  };
  return fake;
}
