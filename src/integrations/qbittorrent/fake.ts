import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * qBittorrent's WebUI API v2 for tests, on 127.0.0.1, as 5.1.2 (Web API 2.11.4) answers it
 * (qbittorrent/qBittorrent: src/webui/webapplication.cpp, api/authcontroller.cpp,
 * api/transfercontroller.cpp, api/torrentscontroller.cpp, api/serialize/serialize_torrent.cpp), or
 * as 5.2.3 (Web API 2.15.1) with `version: "5.2.3"`:
 * - `POST /api/v2/auth/login`, form `username` and `password`: right → 200 `Ok.` with
 *   `Set-Cookie: SID=…` (5.2: `QBT_SID_<port>=…`); wrong → 200 `Fails.` (5.2, Web API 2.14 and
 *   later: 401, per the integrations notes §9); `banAfter` wrong ones (5 by default) ban the
 *   address: 403 `Your IP address has been banned after too many failed authentication attempts.`
 *   for `banMs` (an hour).
 * - CSRF: a request with an `Origin` or `Referer` whose host:port is not the `Host` is 401
 *   `Unauthorized`, before anything else; one with neither passes.
 * - Every other `/api/v2/` call without a live session is 403 `Forbidden`; a session unused for
 *   `sessionTimeoutMs` (3600 s) is gone. 5.2's API key (`Authorization: Bearer qbt_…`) needs no
 *   session; a wrong one is 401; with it, `auth/` endpoints are 403.
 * - `GET /api/v2/app/version` → `v5.1.2` (text), `app/webapiVersion` → `2.11.4`;
 * - `GET /api/v2/transfer/info` → speeds (bytes/s), session totals, limits, connection status;
 * - `GET /api/v2/torrents/info?filter=&sort=&reverse=&limit=&offset=` → torrents as
 *   serialize_torrent writes them; `eta` 8640000 means "never"; states as 5.x names them
 *   (`stoppedDL`, `stoppedUP`; 4.x said `paused…`). `active`: moving data now.
 * Every request is recorded.
 */
export type QbittorrentVersion = "5.1.2" | "5.2.3";

export const QBT_MAX_ETA = 8_640_000;

export interface QbTorrentSeed {
  hash: string;
  name: string;
  state: string;
  /** 0 to 1. */
  progress: number;
  size: number;
  dlspeed: number;
  upspeed: number;
  /** Seconds; QBT_MAX_ETA: unknown. */
  eta: number;
  added_on: number;
  category?: string;
}

export interface QbRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface QbittorrentFake {
  url: string;
  version: QbittorrentVersion;
  username: string;
  password: string;
  /** 5.2's API key (`qbt_…`). */
  apiKey: string;
  requests: QbRequest[];
  torrents: QbTorrentSeed[];
  transfer: {
    dl_info_speed: number;
    up_info_speed: number;
    dl_info_data: number;
    up_info_data: number;
    dl_rate_limit: number;
    up_rate_limit: number;
    connection_status: "connected" | "firewalled" | "disconnected";
  };
  /** Successful and refused sign-ins so far. */
  logins: number;
  failedLogins: number;
  banned(): boolean;
  /** Forgets every session (a restart of qBittorrent). */
  endSessions(): void;
  /** Requests to `path` (without a query) so far. */
  count(path: string): number;
  close(): Promise<void>;
}

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );

function text(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "text/plain; charset=UTF-8", ...headers });
  res.end(body);
}

function json(res: ServerResponse, body: unknown) {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

export function seedTorrents(nowSeconds: number): QbTorrentSeed[] {
  const hash = (n: number) => n.toString(16).padStart(2, "0").repeat(20);
  return [
    {
      hash: hash(1),
      name: "debian-13.2.0-amd64-netinst.iso",
      state: "downloading",
      progress: 0.42,
      size: 754 * MiB,
      dlspeed: Math.round(4.2 * MiB),
      upspeed: 310 * 1024,
      eta: 105,
      added_on: nowSeconds - 600,
      category: "linux",
    },
    {
      hash: hash(2),
      name: "ubuntu-26.04-desktop-amd64.iso",
      state: "downloading",
      progress: 0.873,
      size: Math.round(6.1 * GiB),
      dlspeed: Math.round(1.6 * MiB),
      upspeed: 95 * 1024,
      eta: 520,
      added_on: nowSeconds - 3600,
      category: "linux",
    },
    {
      hash: hash(3),
      name: "Big.Buck.Bunny.2008.2160p.60fps",
      state: "uploading",
      progress: 1,
      size: Math.round(2.4 * GiB),
      dlspeed: 0,
      upspeed: 820 * 1024,
      eta: QBT_MAX_ETA,
      added_on: nowSeconds - 86_400 * 3,
    },
    {
      hash: hash(4),
      name: "archlinux-2026.11.01-x86_64.iso",
      state: "forcedUP",
      progress: 1,
      size: 1.3 * GiB,
      dlspeed: 0,
      upspeed: 120 * 1024,
      eta: QBT_MAX_ETA,
      added_on: nowSeconds - 86_400 * 9,
      category: "linux",
    },
    {
      hash: hash(5),
      name: "Sintel.2010.1080p.mkv",
      state: "stalledDL",
      progress: 0.12,
      size: Math.round(1.1 * GiB),
      dlspeed: 0,
      upspeed: 0,
      eta: QBT_MAX_ETA,
      added_on: nowSeconds - 7200,
    },
    {
      hash: hash(6),
      name: "Tears.of.Steel.2012.4k",
      state: "stoppedUP",
      progress: 1,
      size: Math.round(6.3 * GiB),
      dlspeed: 0,
      upspeed: 0,
      eta: QBT_MAX_ETA,
      added_on: nowSeconds - 86_400 * 40,
    },
  ];
}

/** serialize_torrent.cpp's keys, in 5.x; the ones a test gives plus plausible rest. */
function torrentJson(t: QbTorrentSeed) {
  const completed = Math.round(t.size * t.progress);
  return {
    added_on: t.added_on,
    amount_left: t.size - completed,
    auto_tmm: false,
    availability: t.progress === 1 ? -1 : 3.2,
    category: t.category ?? "",
    comment: "",
    completed,
    completion_on: t.progress === 1 ? t.added_on + 3600 : -1,
    content_path: `/downloads/${t.name}`,
    dl_limit: -1,
    dlspeed: t.dlspeed,
    download_path: "",
    downloaded: completed,
    downloaded_session: completed,
    eta: t.eta,
    f_l_piece_prio: false,
    force_start: t.state.startsWith("forced"),
    has_metadata: true,
    hash: t.hash,
    inactive_seeding_time_limit: -2,
    infohash_v1: t.hash,
    infohash_v2: "",
    last_activity: t.added_on + 60,
    magnet_uri: `magnet:?xt=urn:btih:${t.hash}`,
    max_inactive_seeding_time: -1,
    max_ratio: -1,
    max_seeding_time: -1,
    name: t.name,
    num_complete: 41,
    num_incomplete: 7,
    num_leechs: t.upspeed > 0 ? 3 : 0,
    num_seeds: t.dlspeed > 0 ? 12 : 0,
    popularity: 0.4,
    priority: t.progress === 1 ? 0 : 1,
    private: false,
    progress: t.progress,
    ratio: 0.35,
    ratio_limit: -2,
    reannounce: 1500,
    root_path: `/downloads/${t.name}`,
    save_path: "/downloads/",
    seeding_time: t.progress === 1 ? 3600 : 0,
    seeding_time_limit: -2,
    seen_complete: t.added_on,
    seq_dl: false,
    size: t.size,
    state: t.state,
    super_seeding: false,
    tags: "",
    time_active: 3600,
    total_size: t.size,
    tracker: "https://tracker.example.org/announce",
    trackers_count: 1,
    up_limit: -1,
    uploaded: Math.round(completed * 0.35),
    uploaded_session: Math.round(completed * 0.1),
    upspeed: t.upspeed,
  };
}

const STOPPED = /^(stopped|paused)/;
const DOWNLOADING = /^(downloading|forcedDL|metaDL|forcedMetaDL|stalledDL|queuedDL|checkingDL|allocating)$/;
const SEEDING = /^(uploading|forcedUP|stalledUP|queuedUP|checkingUP)$/;

/** torrents/info's filters, 5.x names (4.x's paused/resumed are answered as stopped/running). */
function matchesFilter(t: QbTorrentSeed, filter: string): boolean {
  switch (filter) {
    case "all":
      return true;
    case "downloading":
      return DOWNLOADING.test(t.state);
    case "seeding":
      return SEEDING.test(t.state);
    case "completed":
      return t.progress === 1;
    case "stopped":
    case "paused":
      return STOPPED.test(t.state);
    case "running":
    case "resumed":
      return !STOPPED.test(t.state);
    case "active":
      return t.dlspeed > 0 || t.upspeed > 0;
    case "inactive":
      return t.dlspeed === 0 && t.upspeed === 0;
    case "stalled":
      return t.state.startsWith("stalled");
    case "errored":
      return t.state === "error" || t.state === "missingFiles";
    default:
      return false;
  }
}

export async function startQbittorrentFake(
  options: {
    version?: QbittorrentVersion;
    username?: string;
    password?: string;
    banAfter?: number;
    banMs?: number;
    sessionTimeoutMs?: number;
    now?: () => number;
  } = {},
): Promise<QbittorrentFake> {
  const now = options.now ?? Date.now;
  const version = options.version ?? "5.1.2";
  const banAfter = options.banAfter ?? 5;
  const banMs = options.banMs ?? 3_600_000;
  const timeoutMs = options.sessionTimeoutMs ?? 3_600_000;
  const sessions = new Map<string, number>();
  let failures = 0;
  let bannedUntil = 0;
  let cookieName = "SID";

  const isBanned = () => bannedUntil > now();
  const crossSite = (headers: IncomingHttpHeaders) => {
    const host = headers.host ?? "";
    for (const name of ["origin", "referer"] as const) {
      const value = headers[name];
      if (typeof value !== "string") continue;
      try {
        if (new URL(value).host !== host) return true;
      } catch {
        return true;
      }
    }
    return false;
  };
  const sessionOf = (headers: IncomingHttpHeaders): string | null => {
    for (const part of (headers.cookie ?? "").split(";")) {
      const [name, value] = part.trim().split("=", 2);
      if (name !== cookieName || !value) continue;
      const last = sessions.get(value);
      if (last === undefined) return null;
      if (now() - last > timeoutMs) {
        sessions.delete(value);
        return null;
      }
      sessions.set(value, now());
      return value;
    }
    return null;
  };

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://fake");
    const path = url.pathname;
    const method = req.method ?? "GET";
    fake.requests.push({ method, path, query: url.searchParams, headers: req.headers, body });

    if (crossSite(req.headers)) return text(res, 401, "Unauthorized");
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
    const byKey = version !== "5.1.2" && bearer !== undefined;
    if (byKey && bearer !== fake.apiKey) return text(res, 401, "Unauthorized");
    if (!path.startsWith("/api/v2/")) return text(res, 404, "Not Found");
    const endpoint = path.slice("/api/v2/".length);
    if (byKey && endpoint.startsWith("auth/")) return text(res, 403, "Forbidden");

    if (endpoint === "auth/login") {
      if (method !== "POST") return text(res, 405, "Method Not Allowed");
      if (sessionOf(req.headers)) return text(res, 200, "Ok.");
      if (isBanned())
        return text(
          res,
          403,
          "Your IP address has been banned after too many failed authentication attempts.",
        );
      const form = new URLSearchParams(body);
      if (form.get("username") === fake.username && form.get("password") === fake.password) {
        failures = 0;
        fake.logins++;
        const sid = randomBytes(24).toString("base64url");
        sessions.set(sid, now());
        const expires = new Date(now() + timeoutMs).toUTCString();
        return text(res, 200, "Ok.", {
          "set-cookie": `${cookieName}=${sid}; HttpOnly; SameSite=Lax; path=/; expires=${expires}`,
        });
      }
      fake.failedLogins++;
      failures++;
      if (failures >= banAfter) bannedUntil = now() + banMs;
      return version === "5.1.2" ? text(res, 200, "Fails.") : text(res, 401, "Unauthorized");
    }
    if (!byKey && !sessionOf(req.headers)) return text(res, 403, "Forbidden");

    if (method === "GET" && endpoint === "app/version") return text(res, 200, `v${version}`);
    if (method === "GET" && endpoint === "app/webapiVersion")
      return text(res, 200, version === "5.1.2" ? "2.11.4" : "2.15.1");
    if (method === "GET" && endpoint === "transfer/info")
      return json(res, {
        ...fake.transfer,
        dht_nodes: 312,
        last_external_address_v4: "203.0.113.7",
        last_external_address_v6: "",
      });
    if (method === "GET" && endpoint === "torrents/info") {
      const q = url.searchParams;
      const filter = q.get("filter") ?? "all";
      let list = fake.torrents.filter((t) => matchesFilter(t, filter));
      const sort = q.get("sort") as keyof QbTorrentSeed | null;
      if (sort && list[0] && sort in list[0]) {
        list = [...list].sort((a, b) => {
          const x = a[sort] ?? 0;
          const y = b[sort] ?? 0;
          return x < y ? -1 : x > y ? 1 : 0;
        });
        if (q.get("reverse") === "true") list.reverse();
      }
      const offset = Number(q.get("offset") ?? 0);
      const limit = Number(q.get("limit") ?? 0);
      list = list.slice(offset, limit > 0 ? offset + limit : undefined);
      return json(res, list.map(torrentJson));
    }
    return text(res, 404, "Not Found");
  });
  const url = await listen(server);
  if (version !== "5.1.2") cookieName = `QBT_SID_${new URL(url).port}`;
  const fake: QbittorrentFake = {
    url,
    version,
    username: options.username ?? "admin",
    password: options.password ?? `pw-${randomBytes(9).toString("base64url")}`,
    apiKey: `qbt_${randomBytes(24).toString("base64url")}`,
    requests: [],
    torrents: seedTorrents(Math.floor(now() / 1000)),
    transfer: {
      dl_info_speed: Math.round(5.8 * MiB),
      up_info_speed: Math.round(1.3 * MiB),
      dl_info_data: Math.round(12.4 * GiB),
      up_info_data: Math.round(3.1 * GiB),
      dl_rate_limit: 0,
      up_rate_limit: 2 * MiB,
      connection_status: "connected",
    },
    logins: 0,
    failedLogins: 0,
    banned: isBanned,
    endSessions: () => sessions.clear(),
    count: (p) => fake.requests.filter((r) => r.path === p).length,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
