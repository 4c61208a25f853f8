import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Uptime Kuma for tests, on 127.0.0.1, as its server answers (louislam/uptime-kuma at 2.5.3 and
 * 1.23.16; server/routers/status-page-router.js, server/prometheus.js, server/auth.js):
 * - `GET /api/status-page/<slug>` (slug read in lower case) → `{config, incident | incidents,
 *   publicGroupList, maintenanceList}`: 1.x and 2.0 say `incident` (one object or null), 2.1 and
 *   later `incidents` (a list), by `version`. An unknown slug is 404
 *   `{"status":"fail","msg":"Status Page Not Found"}`.
 * - `GET /api/status-page/heartbeat/<slug>` → `{heartbeatList: {<id>: [beats, oldest first]},
 *   uptimeList: {"<id>_24": ratio}}`; a beat's `time` is UTC without a zone marker
 *   ("2026-11-27 20:00:00.123"), its `msg` empty (hidden on public pages).
 * - `GET /metrics` in Prometheus text as prom-client writes it. With an `apiKey` (Kuma's
 *   `apiKeysEnabled`) HTTP Basic must carry it as the password (the user name is ignored); without
 *   one, auth is disabled. Refused: 401, `WWW-Authenticate: Basic`, empty body (express-basic-auth).
 *   1.x labels have no `monitor_id`; 2.3 and later add `monitor_uptime_ratio` and
 *   `monitor_response_time_seconds` by `window`.
 * Every request is recorded.
 */
export type KumaVersion = "1.23" | "2.0" | "2.5";

export interface KumaMonitorSeed {
  id: number;
  name: string;
  type: string;
  url?: string;
  hostname?: string;
  /** 0 down, 1 up, 2 pending, 3 maintenance; null: no heartbeat yet. */
  status: 0 | 1 | 2 | 3 | null;
  ping: number | null;
  uptime24h: number;
}

export interface KumaPage {
  slug: string;
  title: string;
  groups: { id: number; name: string; monitorIds: number[] }[];
  incident: { title: string; content: string; style: string } | null;
  maintenance: { id: number; title: string; description: string }[];
}

export interface KumaRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

export interface UptimeKumaFake {
  url: string;
  /** The key /metrics wants as Basic auth's password; null: auth disabled. */
  apiKey: string | null;
  version: KumaVersion;
  monitors: KumaMonitorSeed[];
  pages: KumaPage[];
  requests: KumaRequest[];
  count(path: string): number;
  close(): Promise<void>;
}

/** Kuma stores and answers times in UTC as "YYYY-MM-DD HH:mm:ss.SSS", no zone marker. */
export const kumaTime = (ms: number) => new Date(ms).toISOString().replace("T", " ").replace("Z", "");

export const KUMA_MONITORS = (): KumaMonitorSeed[] => [
  {
    id: 1,
    name: "Jellyfin",
    type: "http",
    url: "https://jellyfin.lan/",
    status: 1,
    ping: 42,
    uptime24h: 0.9987,
  },
  {
    id: 2,
    name: "Home Assistant",
    type: "http",
    url: "http://ha.lan:8123/",
    status: 1,
    ping: 18,
    uptime24h: 1,
  },
  { id: 3, name: "NAS", type: "ping", hostname: "nas.lan", status: 0, ping: null, uptime24h: 0.875 },
  { id: 4, name: "Nightly backup", type: "push", status: 2, ping: null, uptime24h: 0.5 },
  { id: 5, name: "Printer", type: "port", hostname: "printer.lan", status: 3, ping: 5, uptime24h: 1 },
  {
    id: 6,
    name: "New monitor",
    type: "http",
    url: "https://new.lan/",
    status: null,
    ping: null,
    uptime24h: 0,
  },
];

export const KUMA_PAGES = (): KumaPage[] => [
  {
    slug: "home",
    title: "Home services",
    groups: [
      { id: 1, name: "Media", monitorIds: [1] },
      { id: 2, name: "House", monitorIds: [2, 3, 4, 5] },
    ],
    incident: { title: "NAS disk replaced", content: "The array is rebuilding.", style: "warning" },
    maintenance: [{ id: 1, title: "Printer firmware", description: "" }],
  },
];

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}

const escapeLabel = (value: string) =>
  value.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\n", "\\n");

function metricsText(fake: UptimeKumaFake): string {
  const v2 = fake.version !== "1.23";
  const withRatios = fake.version === "2.5";
  const labels = (m: KumaMonitorSeed, extra = "") =>
    `{${v2 ? `monitor_id="${m.id}",` : ""}monitor_name="${escapeLabel(m.name)}",monitor_type="${m.type}",monitor_url="${escapeLabel(m.url ?? "https://")}",monitor_hostname="${m.hostname ?? "null"}",monitor_port="null"${extra}}`;
  const beating = fake.monitors.filter((m) => m.status !== null);
  const lines = [
    "# HELP process_cpu_user_seconds_total Total user CPU time spent in seconds.",
    "# TYPE process_cpu_user_seconds_total counter",
    "process_cpu_user_seconds_total 3.51",
    "# HELP nodejs_heap_size_used_bytes Process heap size used from Node.js in bytes.",
    "# TYPE nodejs_heap_size_used_bytes gauge",
    "nodejs_heap_size_used_bytes 48123904",
  ];
  if (withRatios) {
    lines.push(
      "# HELP monitor_uptime_ratio Uptime ratio calculated over sliding window specified by the 'window' label. (0.0 - 1.0)",
      "# TYPE monitor_uptime_ratio gauge",
    );
    for (const m of beating)
      for (const [window, ratio] of [
        ["1d", m.uptime24h],
        ["30d", Math.min(1, m.uptime24h + 0.001)],
        ["365d", Math.min(1, m.uptime24h + 0.002)],
      ] as const)
        lines.push(`monitor_uptime_ratio${labels(m, `,window="${window}"`)} ${ratio}`);
  }
  lines.push("# HELP monitor_response_time Monitor Response Time (ms)", "# TYPE monitor_response_time gauge");
  for (const m of beating) lines.push(`monitor_response_time${labels(m)} ${m.ping ?? -1}`);
  lines.push(
    "# HELP monitor_status Monitor Status (1 = UP, 0= DOWN, 2= PENDING, 3= MAINTENANCE)",
    "# TYPE monitor_status gauge",
  );
  for (const m of beating) lines.push(`monitor_status${labels(m)} ${m.status}`);
  return `${lines.join("\n")}\n`;
}

/** Basic auth's password, as express-basic-auth reads it (the part after the first colon). */
function basicPassword(header: string | undefined): string | null {
  const match = /^Basic (.+)$/i.exec(header ?? "");
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon < 0 ? null : decoded.slice(colon + 1);
}

export async function startUptimeKumaFake(
  options: { apiKey?: string | null; version?: KumaVersion; now?: () => number } = {},
): Promise<UptimeKumaFake> {
  const now = options.now ?? Date.now;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const method = req.method ?? "GET";
    fake.requests.push({ method, path: `${url.pathname}${url.search}`, headers: req.headers });
    const pageOf = (slug: string) =>
      fake.pages.find((p) => p.slug === decodeURIComponent(slug).toLowerCase());

    if (method === "GET" && url.pathname === "/metrics") {
      if (fake.apiKey !== null && basicPassword(req.headers.authorization) !== fake.apiKey) {
        res.writeHead(401, { "www-authenticate": "Basic" });
        return res.end();
      }
      res.writeHead(200, { "content-type": "text/plain; version=0.0.4; charset=utf-8" });
      return res.end(metricsText(fake));
    }
    const beats = /^\/api\/status-page\/heartbeat\/([^/]+)$/.exec(url.pathname);
    if (method === "GET" && beats) {
      const page = pageOf(beats[1]!);
      if (!page) return sendJson(res, 404, { status: "fail", msg: "Status Page Not Found" });
      const heartbeatList: Record<string, unknown[]> = {};
      const uptimeList: Record<string, number> = {};
      for (const id of page.groups.flatMap((g) => g.monitorIds)) {
        const monitor = fake.monitors.find((m) => m.id === id);
        if (!monitor) continue;
        const at = now();
        // Two beats a minute apart, oldest first; the last is the monitor's status now.
        heartbeatList[id] =
          monitor.status === null
            ? []
            : [
                { status: 1, time: kumaTime(at - 120_000), msg: "", ping: monitor.ping },
                { status: monitor.status, time: kumaTime(at - 60_000), msg: "", ping: monitor.ping },
              ];
        uptimeList[`${id}_24`] = monitor.uptime24h;
      }
      return sendJson(res, 200, { heartbeatList, uptimeList });
    }
    const status = /^\/api\/status-page\/([^/]+)$/.exec(url.pathname);
    if (method === "GET" && status) {
      const page = pageOf(status[1]!);
      if (!page) return sendJson(res, 404, { status: "fail", msg: "Status Page Not Found" });
      const incident = page.incident && {
        id: 1,
        ...page.incident,
        pin: true,
        active: true,
        createdDate: kumaTime(now() - 3_600_000).slice(0, 19),
        lastUpdatedDate: kumaTime(now() - 600_000).slice(0, 19),
        status_page_id: 1,
      };
      const incidents =
        fake.version === "2.5" ? { incidents: incident ? [incident] : [] } : { incident: incident ?? null };
      return sendJson(res, 200, {
        config: {
          id: 1,
          slug: page.slug,
          title: page.title,
          description: null,
          icon: "/icon.svg",
          theme: "auto",
          published: true,
          showTags: false,
          footerText: null,
          showPoweredBy: true,
        },
        ...incidents,
        publicGroupList: page.groups.map((g, weight) => ({
          id: g.id,
          name: g.name,
          weight: weight + 1,
          monitorList: g.monitorIds.flatMap((id) => {
            const m = fake.monitors.find((x) => x.id === id);
            return m ? [{ id: m.id, name: m.name, sendUrl: 0, type: m.type }] : [];
          }),
        })),
        maintenanceList: page.maintenance.map((m) => ({
          ...m,
          strategy: "single",
          active: true,
          status: "under-maintenance",
        })),
      });
    }
    res.writeHead(404, { "content-type": "text/html; charset=utf-8" });
    res.end("<!DOCTYPE html><html><body>Uptime Kuma</body></html>");
  });
  const url = await listen(server);
  const fake: UptimeKumaFake = {
    url,
    apiKey: options.apiKey === undefined ? `uk1_${Math.random().toString(36).slice(2)}` : options.apiKey,
    version: options.version ?? "2.5",
    monitors: KUMA_MONITORS(),
    pages: KUMA_PAGES(),
    requests: [],
    count: (path) => fake.requests.filter((r) => r.path.split("?")[0] === path).length,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
