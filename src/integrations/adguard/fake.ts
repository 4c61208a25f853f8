import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * AdGuard Home's control API for tests, on 127.0.0.1, as v0.107.79 answers it (internal/home
 * authhttp.go and control.go, internal/stats, internal/dnsforward/http.go, openapi.yaml):
 * - With users configured, every `/control/*` call wants one of them over HTTP Basic, else 401
 *   with an empty body. Five wrong ones from an address within a minute block it for 15 minutes
 *   (`auth_attempts`, `block_auth_min`): 401 even with the right password; a right one clears
 *   the count.
 * - `GET /control/status` → `{version, language, dns_addresses, dns_port, http_port,
 *   protection_disabled_duration (ms left), start_time, protection_enabled, dhcp_available,
 *   running}`.
 * - `GET /control/stats[?recent=<ms>]` → hourly (or, past 7 days, daily) `dns_queries` and
 *   `blocked_filtering` over the statistics interval, their totals and the top lists; `recent`
 *   (v0.107.72+) must be whole hours from 1 h to the interval, else 400 (text).
 * - `POST /control/protection` `{enabled, duration?}` (ms): answers `OK\n` as text; a duration
 *   with `enabled:true` is 400. A POST whose Content-Type is not exactly `application/json` is
 *   415, as is an empty POST that names one (its CSRF rule).
 * Other methods are 405 (text), unknown paths 404 `404 page not found`. Every request is
 * recorded for tests to assert what was sent.
 */
export interface AdGuardRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface AdGuardFake {
  url: string;
  username: string;
  password: string;
  requests: AdGuardRequest[];
  /** Basic credentials refused so far (wrong, or sent while blocked). */
  refusals: number;
  /** Whether 127.0.0.1 is blocked after too many wrong passwords. */
  blocked(): boolean;
  protectionEnabled: boolean;
  /** When a pause ends, epoch ms; null without one. */
  pausedUntil: number | null;
  /** Queries and blocked ones per hour, oldest first; the last is the current hour. */
  hours: { queries: number; blocked: number }[];
  /** The `/control/protection` bodies, in order, with their Content-Type. */
  protectionCalls: { body: unknown; contentType: string | undefined }[];
  count(path: string, method?: string): number;
  close(): Promise<void>;
}

const ATTEMPTS = 5;
const BLOCK_MS = 15 * 60_000;
const FAILED_AUTH_TTL_MS = 60_000;
const HOUR_MS = 3_600_000;

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );

function sendJson(res: ServerResponse, body: unknown) {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** Go's http.Error: text, a newline, nosniff. */
function sendText(res: ServerResponse, status: number, text: string) {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff" });
  res.end(`${text}\n`);
}

/** A day of traffic with a rhythm: quiet at night, busy in the evening. */
function seedHours(count: number) {
  return Array.from({ length: count }, (_, i) => {
    const hour = i % 24;
    const queries = 600 + Math.round(900 * Math.sin((Math.PI * hour) / 24) ** 2) + i * 3;
    return { queries, blocked: Math.round(queries * 0.17) };
  });
}

const pair = (key: string, value: number) => ({ [key]: value });

export async function startAdGuardFake(
  options: {
    /** No user: AdGuard Home without users asks nobody. */
    noUsers?: boolean;
    /** The statistics interval in hours (24 by default; 720 for 30 days). */
    intervalHours?: number;
    /** As versions before v0.107.72, which ignore `recent` and always answer the whole interval. */
    ignoreRecent?: boolean;
    now?: () => number;
  } = {},
): Promise<AdGuardFake> {
  const now = options.now ?? Date.now;
  const intervalHours = options.intervalHours ?? 24;
  let failures: { count: number; until: number } | null = null;
  const startedAt = now();

  const blocked = () => {
    if (failures && failures.until < now()) failures = null;
    return failures !== null && failures.count >= ATTEMPTS;
  };

  /** AdGuard's authRateLimiter.inc: a minute to collect five, then a block of fifteen. */
  function fail() {
    fake.refusals++;
    const count = (failures?.count ?? 0) + 1;
    failures = {
      count,
      until: count >= ATTEMPTS ? now() + BLOCK_MS : (failures?.until ?? now() + FAILED_AUTH_TTL_MS),
    };
  }

  function authorized(header: string | undefined): boolean {
    if (options.noUsers) return true;
    if (!header?.startsWith("Basic ")) return false;
    if (blocked()) {
      fake.refusals++;
      return false;
    }
    const decoded = Buffer.from(header.slice(6), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    const ok =
      colon > 0 && decoded.slice(0, colon) === fake.username && decoded.slice(colon + 1) === fake.password;
    if (ok) failures = null;
    else fail();
    return ok;
  }

  function protection() {
    if (fake.pausedUntil !== null && fake.pausedUntil <= now()) {
      fake.protectionEnabled = true;
      fake.pausedUntil = null;
    }
    return {
      enabled: fake.protectionEnabled,
      leftMs: fake.pausedUntil === null ? 0 : Math.max(0, fake.pausedUntil - now()),
    };
  }

  /** internal/stats getData: the last `limit` hours, by day past a week. */
  function stats(limitHours: number) {
    const units = fake.hours.slice(-limitHours);
    const days = Math.floor(units.length / 24);
    let queries = units.map((u) => u.queries);
    let blockedSeries = units.map((u) => u.blocked);
    let timeUnits = "hours";
    if (days > 7) {
      timeUnits = "days";
      const currentHour = Math.floor(now() / HOUR_MS);
      const hours = (days - 1) * 24 + (currentHour % 24 || 24);
      const recent = units.slice(-hours);
      queries = Array.from({ length: days }, () => 0);
      blockedSeries = Array.from({ length: days }, () => 0);
      recent.forEach((u, i) => {
        queries[Math.floor(i / 24)]! += u.queries;
        blockedSeries[Math.floor(i / 24)]! += u.blocked;
      });
    }
    const total = units.reduce((sum, u) => sum + u.queries, 0);
    const totalBlocked = units.reduce((sum, u) => sum + u.blocked, 0);
    return {
      time_units: timeUnits,
      top_queried_domains: [pair("example.org", 412), pair("connectivity-check.ubuntu.com", 230)],
      top_clients: [pair("192.168.1.20", 1204), pair("192.168.1.31", 640)],
      top_blocked_domains: [pair("ads.example.net", 311), pair("telemetry.example.com", 120)],
      top_upstreams_responses: [pair("https://dns10.quad9.net:443/dns-query", total - totalBlocked)],
      top_upstreams_avg_time: [pair("https://dns10.quad9.net:443/dns-query", 0.021)],
      dns_queries: queries,
      blocked_filtering: blockedSeries,
      replaced_safebrowsing: queries.map(() => 0),
      replaced_parental: queries.map(() => 0),
      num_dns_queries: total,
      num_blocked_filtering: totalBlocked,
      num_replaced_safebrowsing: 0,
      num_replaced_safesearch: 0,
      num_replaced_parental: 0,
      avg_processing_time: 0.0123,
    };
  }

  const routes: Record<string, string> = {
    "/control/status": "GET",
    "/control/stats": "GET",
    "/control/protection": "POST",
  };

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://fake");
    const path = url.pathname;
    const method = req.method ?? "GET";
    fake.requests.push({ method, path: `${path}${url.search}`, headers: req.headers, body });

    if (!authorized(req.headers.authorization)) {
      res.writeHead(401);
      return res.end();
    }
    const allowed = routes[path];
    if (!allowed) return sendText(res, 404, "404 page not found");
    if (method !== allowed) return sendText(res, 405, `only method ${allowed} is allowed`);

    if (path === "/control/status") {
      const { enabled, leftMs } = protection();
      return sendJson(res, {
        version: "v0.107.79",
        language: "en",
        dns_addresses: ["127.0.0.1", "192.168.1.2"],
        dns_port: 53,
        http_port: 3000,
        protection_disabled_duration: leftMs,
        start_time: startedAt,
        protection_enabled: enabled,
        dhcp_available: true,
        running: true,
      });
    }
    if (path === "/control/stats") {
      const recent = url.searchParams.get("recent");
      if (recent === null || recent === "" || options.ignoreRecent)
        return sendJson(res, stats(intervalHours));
      const ms = Number(recent);
      if (!Number.isInteger(ms)) return sendText(res, 400, `recent: parsing interval: invalid syntax`);
      if (ms < HOUR_MS || ms > intervalHours * HOUR_MS)
        return sendText(res, 400, `recent: out of range: must be no less than ${HOUR_MS}, got ${ms}`);
      if (ms % HOUR_MS !== 0) return sendText(res, 400, "recent: must be a multiple of 1 hour");
      return sendJson(res, stats(ms / HOUR_MS));
    }

    // POST /control/protection: the CSRF rule first, as ensureContentType does.
    const contentType = req.headers["content-type"];
    if (body.length === 0 && contentType)
      return sendText(res, 415, `empty body with content-type "${contentType}" not allowed`);
    if (body.length > 0 && contentType !== "application/json")
      return sendText(res, 415, "only content-type application/json is allowed");
    let json: { enabled?: unknown; duration?: unknown };
    try {
      json = JSON.parse(body);
    } catch (error) {
      return sendText(res, 400, `reading req: ${(error as Error).message}`);
    }
    fake.protectionCalls.push({ body: json, contentType });
    const duration = typeof json.duration === "number" ? json.duration : 0;
    if (duration > 0 && json.enabled === true)
      return sendText(res, 400, "Setting a duration is only allowed with protection disabling");
    fake.protectionEnabled = json.enabled === true;
    fake.pausedUntil = duration > 0 ? now() + duration : null;
    res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
    return res.end("OK\n");
  });
  const url = await listen(server);
  const fake: AdGuardFake = {
    url,
    username: "admin",
    password: `adguard-${randomBytes(6).toString("hex")}`,
    requests: [],
    refusals: 0,
    blocked,
    protectionEnabled: true,
    pausedUntil: null,
    hours: seedHours(intervalHours),
    protectionCalls: [],
    count: (path, method) =>
      fake.requests.filter((r) => r.path.split("?")[0] === path && (!method || r.method === method)).length,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
