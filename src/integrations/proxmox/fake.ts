import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import {
  createServer as createHttpServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Proxmox VE 9.1's API (pveproxy, pve-manager 9.1.3) for tests, on 127.0.0.1, over https with a
 * certificate signed by a cluster CA of its own (as `pve-ssl.pem` is signed by
 * `/etc/pve/pve-root-ca.pem`) when given `tls`, else over http.
 * - Auth as pve-http-server and pve-access-control read it: `Authorization: PVEAPIToken=<id>=<secret>`
 *   (the id is everything before the last `=`). Refusals are 401 with only a reason phrase and an
 *   empty body, as pveproxy answers: `No ticket` without a token, `'<id>' is not a valid token
 *   ID`, `no such user ('<user>')`, `no such token '<name>' for user '<user>'`, `token expired`,
 *   `invalid token value!`. (pveproxy also delays each refusal by three seconds; the fake answers
 *   at once.)
 * - `GET /api2/json/version` → `{data: {version, release, repoid}}` for any valid token.
 * - `GET /api2/json/nodes` → every node; its figures (cpu, mem, uptime…) only with `Sys.Audit`
 *   on it, else `{id, node, type, status, level}` alone (API2Tools::extract_node_stats). An
 *   offline node has no cpu, mem or uptime.
 * - `GET /api2/json/cluster/resources?type=vm` → the guests (qemu, lxc, templates too) the token
 *   may audit: all with PVEAuditor on `/`, none without a permission of its own (privilege
 *   separation: 200 with `[]`, never 403). `type` outside vm, storage, node, sdn is 400
 *   `Parameter verification failed.` with `{"errors": {"type": …}, "data": null}`.
 * - Any other API path: 501 `Method 'GET /…' not implemented` with `{"data": null}`.
 * Every request is recorded.
 */

export interface PveToken {
  /** `USER@REALM!TOKENID`. */
  tokenId: string;
  secret: string;
  /** `auditor`: PVEAuditor on `/`; `none`: privilege separation and no permission of its own. */
  access: "auditor" | "none";
  /** Unix seconds; 0 never. */
  expire: number;
}

export interface PveRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

/** A node as the cluster knows it; `online: false` is a member that is down. */
export interface FakeNode {
  node: string;
  online: boolean;
  cpu: number;
  maxcpu: number;
  mem: number;
  maxmem: number;
  disk: number;
  maxdisk: number;
  uptime: number;
}

/** A guest as `cluster/resources` answers it (extract_vm_stats plus the cluster's tags, lock…). */
export type FakeGuest = Record<string, unknown> & { vmid: number; node: string; type: "qemu" | "lxc" };

export interface ProxmoxFake {
  url: string;
  /** PVE's version, as `/version` answers it. */
  version: string;
  /** The token with PVEAuditor on `/`. */
  token: { tokenId: string; secret: string };
  /** Known tokens by id; tests add others (one without permissions, an expired one). */
  tokens: Map<string, PveToken>;
  nodes: FakeNode[];
  guests: FakeGuest[];
  requests: PveRequest[];
  /** Requests refused with 401 so far. */
  refusals: number;
  /** Requests to `path` (without its query) so far. */
  count(path: string): number;
  close(): Promise<void>;
}

const GiB = 1024 ** 3;

function seedNodes(): FakeNode[] {
  return [
    {
      node: "pve1",
      online: true,
      cpu: 0.0612,
      maxcpu: 16,
      mem: 21.5 * GiB,
      maxmem: 64 * GiB,
      disk: 18 * GiB,
      maxdisk: 94 * GiB,
      uptime: 1_209_600,
    },
    {
      node: "pve2",
      online: true,
      cpu: 0.347,
      maxcpu: 8,
      mem: 27.1 * GiB,
      maxmem: 32 * GiB,
      disk: 11 * GiB,
      maxdisk: 58 * GiB,
      uptime: 86_520,
    },
    {
      node: "pve3",
      online: false,
      cpu: 0,
      maxcpu: 4,
      mem: 0,
      maxmem: 16 * GiB,
      disk: 0,
      maxdisk: 58 * GiB,
      uptime: 0,
    },
  ];
}

function seedGuests(): FakeGuest[] {
  const figures = (
    cpu: number,
    maxcpu: number,
    mem: number,
    maxmem: number,
    disk: number,
    maxdisk: number,
  ) => ({
    cpu,
    maxcpu,
    mem,
    maxmem,
    disk,
    maxdisk,
    netin: 123_456_789,
    netout: 98_765_432,
    diskread: 4_567_890,
    diskwrite: 1_234_567,
  });
  return [
    {
      id: "qemu/100",
      vmid: 100,
      node: "pve1",
      type: "qemu",
      name: "haos",
      status: "running",
      template: 0,
      uptime: 1_209_000,
      tags: "home",
      // QEMU reports no filesystem use: `disk` stays 0 for VMs.
      ...figures(0.0312, 2, 2.9 * GiB, 4 * GiB, 0, 32 * GiB),
    },
    {
      id: "qemu/101",
      vmid: 101,
      node: "pve1",
      type: "qemu",
      name: "win11",
      status: "stopped",
      template: 0,
      uptime: 0,
      ...figures(0, 4, 0, 8 * GiB, 0, 64 * GiB),
    },
    {
      id: "qemu/9000",
      vmid: 9000,
      node: "pve1",
      type: "qemu",
      name: "debian-13-cloud",
      status: "stopped",
      template: 1,
      uptime: 0,
      ...figures(0, 1, 0, 2 * GiB, 0, 3 * GiB),
    },
    {
      id: "lxc/200",
      vmid: 200,
      node: "pve1",
      type: "lxc",
      name: "pihole",
      status: "running",
      template: 0,
      uptime: 1_208_400,
      tags: "dns;home",
      ...figures(0.0105, 1, 96 * 1024 ** 2, 512 * 1024 ** 2, 1.6 * GiB, 8 * GiB),
    },
    {
      id: "lxc/201",
      vmid: 201,
      node: "pve2",
      type: "lxc",
      name: "jellyfin",
      status: "running",
      template: 0,
      uptime: 86_000,
      hastate: "started",
      ...figures(0.4213, 4, 3.2 * GiB, 4 * GiB, 21.4 * GiB, 32 * GiB),
    },
    // On the offline node: the cluster has no figures for it, so only its id, node and status.
    { id: "lxc/300", vmid: 300, node: "pve3", type: "lxc", status: "unknown" },
  ];
}

/** What `/nodes` answers for a node (extract_node_stats, with `exclude_stats` without Sys.Audit). */
function nodeEntry(node: FakeNode, audit: boolean): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    id: `node/${node.node}`,
    node: node.node,
    type: "node",
    status: node.online ? "online" : "offline",
    level: "",
  };
  if (!audit) return entry;
  if (node.online)
    Object.assign(entry, { uptime: node.uptime, cpu: node.cpu, mem: node.mem, disk: node.disk });
  return {
    ...entry,
    maxcpu: node.maxcpu,
    maxmem: node.maxmem,
    maxdisk: node.maxdisk,
    ssl_fingerprint:
      "9A:1C:4E:7B:00:3D:52:E8:11:AF:6C:90:2B:D4:37:85:C2:0E:F1:6A:48:93:BD:27:5F:D0:74:19:E3:8C:A6:01",
  };
}

const listen = (server: Server, scheme: "http" | "https") =>
  new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );

function sendJson(res: ServerResponse, status: number, reason: string | undefined, body: unknown) {
  res.writeHead(status, reason ?? "OK", {
    "content-type": "application/json;charset=UTF-8",
    "cache-control": "max-age=0",
    pragma: "no-cache",
    server: "pve-api-daemon/3.0",
  });
  res.end(JSON.stringify(body));
}

/** pveproxy's refusal: the reason phrase says it all, the body is empty. */
function refuse(res: ServerResponse, reason: string) {
  res.writeHead(401, reason, { server: "pve-api-daemon/3.0", "content-length": "0" });
  res.end();
}

/** The token's id and secret from pveproxy's header (`PVEAPIToken=<id>=<secret>` or with a space). */
function apiTokenOf(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^PVEAPIToken[= ](\S+)$/.exec(header.trim());
  return match ? match[1]! : null;
}

/** pve-access-control's verify_token: the refusal's words, or the token. */
function verify(tokens: Map<string, PveToken>, value: string, now: number): PveToken | string {
  const split = /^(.*)=(.*)$/.exec(value);
  if (!split) return "no tokenid specified";
  const [, tokenId, secret] = split as unknown as [string, string, string];
  const parts = /^(.+)!([A-Za-z][A-Za-z0-9._-]+)$/.exec(tokenId);
  if (!parts) return `'${tokenId}' is not a valid token ID`;
  const [, user, name] = parts as unknown as [string, string, string];
  const known = tokens.get(tokenId);
  if (![...tokens.keys()].some((id) => id.startsWith(`${user}!`))) return `no such user ('${user}')`;
  if (!known) return `no such token '${name}' for user '${user}'`;
  if (known.expire && known.expire < now / 1000) return "token expired";
  if (known.secret !== secret) return "invalid token value!";
  return known;
}

const VM_TYPES = ["vm", "storage", "node", "sdn"];

export async function startProxmoxFake(
  options: { tls?: { key: string; cert: string }; version?: string; now?: () => number } = {},
): Promise<ProxmoxFake> {
  const now = options.now ?? Date.now;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const method = req.method ?? "GET";
    fake.requests.push({ method, path: `${url.pathname}${url.search}`, headers: req.headers });
    // The web interface answers outside the API; a dashboard has no business there.
    if (!url.pathname.startsWith("/api2/json/")) {
      if (url.pathname === "/") {
        res.writeHead(200, { "content-type": "text/html;charset=UTF-8" });
        return res.end(
          "<!DOCTYPE html><html><head><title>pve1 - Proxmox Virtual Environment</title></head></html>",
        );
      }
      res.writeHead(501, `no such file '${url.pathname}'`, { "content-type": "text/html" });
      return res.end(`<html><body>no such file '${url.pathname}'</body></html>`);
    }
    const value = apiTokenOf(req);
    if (!value) {
      fake.refusals++;
      return refuse(res, "No ticket");
    }
    const token = verify(fake.tokens, value, now());
    if (typeof token === "string") {
      fake.refusals++;
      return refuse(res, token);
    }
    const audit = token.access === "auditor";
    const rel = url.pathname.slice("/api2/json".length);
    if (method === "GET" && rel === "/version")
      return sendJson(res, 200, undefined, {
        data: {
          version: fake.version,
          release: fake.version.split(".").slice(0, 2).join("."),
          repoid: "c2b7ee9e3a1d4f07",
        },
      });
    if (method === "GET" && rel === "/nodes")
      return sendJson(res, 200, undefined, { data: fake.nodes.map((node) => nodeEntry(node, audit)) });
    if (method === "GET" && rel === "/cluster/resources") {
      const type = url.searchParams.get("type");
      if (type !== null && !VM_TYPES.includes(type))
        return sendJson(res, 400, "Parameter verification failed.", {
          errors: {
            type: `value '${type}' does not have a value in the enumeration '${VM_TYPES.join(", ")}'`,
          },
          data: null,
        });
      if (type !== null && type !== "vm") return sendJson(res, 200, undefined, { data: [] });
      return sendJson(res, 200, undefined, { data: audit ? fake.guests : [] });
    }
    return sendJson(res, 501, `Method '${method} ${rel}' not implemented`, { data: null });
  };
  const server = options.tls ? createHttpsServer(options.tls, handle) : createHttpServer(handle);
  const url = await listen(server, options.tls ? "https" : "http");
  const token = { tokenId: "tessera@pve!dashboard", secret: randomUUID() };
  const fake: ProxmoxFake = {
    url,
    version: options.version ?? "9.1.3",
    token,
    tokens: new Map([[token.tokenId, { ...token, access: "auditor", expire: 0 }]]),
    nodes: seedNodes(),
    guests: seedGuests(),
    requests: [],
    refusals: 0,
    count: (p) => fake.requests.filter((r) => r.path.split("?")[0] === p).length,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}

/**
 * A cluster CA and a node certificate it signed for 127.0.0.1, as Proxmox VE makes them at
 * install (`pve-root-ca.pem` and `pve-ssl.pem`): nothing a client trusts unless told the CA.
 */
export function clusterCertificates(): { ca: string; key: string; cert: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "tessera-pve-"));
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync("openssl", args, { stdio: "ignore" });
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  try {
    openssl(
      "req",
      "-x509",
      ...ec,
      "-days",
      "2",
      "-subj",
      "/CN=Proxmox Virtual Environment/OU=7c1f0b9e-5a2d-4c8e-9f61-3b2a8d4e6f10/O=PVE Cluster Manager CA",
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign",
      "-keyout",
      file("ca.key"),
      "-out",
      file("ca.pem"),
    );
    openssl(
      "req",
      ...ec,
      "-subj",
      "/OU=PVE Cluster Node/O=Proxmox Virtual Environment/CN=pve1.lan",
      "-keyout",
      file("node.key"),
      "-out",
      file("node.csr"),
    );
    writeFileSync(
      file("node.ext"),
      "basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:pve1.lan,DNS:localhost\n",
    );
    openssl(
      "x509",
      "-req",
      "-in",
      file("node.csr"),
      "-CA",
      file("ca.pem"),
      "-CAkey",
      file("ca.key"),
      "-CAcreateserial",
      "-days",
      "2",
      "-extfile",
      file("node.ext"),
      "-out",
      file("node.pem"),
    );
    return {
      ca: readFileSync(file("ca.pem"), "utf8"),
      key: readFileSync(file("node.key"), "utf8"),
      cert: readFileSync(file("node.pem"), "utf8"),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
