import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A JSON service for the Custom API widget's tests, on 127.0.0.1, shaped like a home server's
 * API: every path under /api/ wants the secret header (401 without, as such services answer);
 * /public/ is open, for plain addresses (which carry no secrets). Both hold the same pages:
 * - `stats`: a status document (numbers, texts, a list, a key that needs quoting);
 * - `page`: an HTML sign-in page, as a proxy in front of a service answers;
 * - `huge`: 5 MiB of JSON, streamed without a length (past what the server reads);
 * - `big`: 3.5 MiB of JSON, under the bound: the largest answer the server parses;
 * - `slow`: JSON at one byte a second;
 * - `moved`: a redirect to 127.0.0.1 on another port (the "elsewhere" server);
 * plus whatever a test serves with `serve(path, json)` (template samples).
 * Every request is recorded, headers included, so tests assert what the server sent.
 */
export interface CustomApiFake {
  url: string;
  /** The other server the redirects lead to; it answers the same stats, no secret asked. */
  elsewhereUrl: string;
  secretHeader: string;
  secret: string;
  requests: { method: string; path: string; headers: IncomingHttpHeaders }[];
  /** Requests to `path` (without the query) so far. */
  count(path: string): number;
  serve(path: string, json: unknown): void;
  /** What /api/stats and /public/stats answer; tests change it to see a refresh. */
  stats: Record<string, unknown>;
  /** While set, stats answers 503 with a proxy's HTML error page. */
  failing: boolean;
  close(): Promise<void>;
}

export const FAKE_STATS = () => ({
  status: "ok",
  version: "2.4.1",
  uptime: 93_784,
  updated: "2026-11-28T09:30:00.000Z",
  cpu: { total: 12.5, cores: 4 },
  memory: { used: 3_221_225_472, total: 8_589_934_592, percent: 37.5 },
  "disk-usage": { "/": 0.61 },
  healthy: true,
  services: [
    { name: "web", state: "running", uptime: 3600, port: 80 },
    { name: "db", state: "exited", uptime: 0, port: 5432 },
    { name: "cache", state: "running", uptime: 120, port: 6379 },
  ],
  nested: { deep: { list: [1, 2, 3] } },
});

const HUGE_BYTES = 5 * 1024 * 1024;

/** About 3.5 MiB: 30,000 services of FAKE_STATS' shape, and its numbers on top. */
const BIG = () => ({
  ...FAKE_STATS(),
  services: Array.from({ length: 30_000 }, (_, i) => ({
    name: `service-${i}`,
    state: i % 7 === 0 ? "exited" : "running",
    uptime: i * 60,
    port: 10_000 + i,
    note: "x".repeat(50),
  })),
});

function sendJson(res: ServerResponse, json: unknown, status = 200) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(json));
}

/** 5 MiB of one JSON document, in 64 KiB chunks, chunked (no content-length to refuse up front). */
function sendHuge(res: ServerResponse) {
  res.writeHead(200, { "content-type": "application/json" });
  const item = `{"name":"${"x".repeat(100)}"},`;
  const chunk = item.repeat(Math.floor((64 * 1024) / item.length));
  res.write('{"items":[');
  let sent = 10;
  const pump = () => {
    while (sent < HUGE_BYTES) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once("drain", pump);
    }
    res.end('{"name":"end"}]}');
  };
  res.on("close", () => {
    sent = HUGE_BYTES;
  });
  pump();
}

/** A tiny JSON document at one byte a second; stops when the client gives up. */
function sendSlow(res: ServerResponse) {
  res.writeHead(200, { "content-type": "application/json" });
  const body = '{"status":"ok","slow":true}';
  let at = 0;
  const timer = setInterval(() => {
    if (at >= body.length) {
      clearInterval(timer);
      res.end();
      return;
    }
    res.write(body[at++]!);
  }, 1000);
  res.on("close", () => clearInterval(timer));
}

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );

export async function startCustomApiFake(
  options: { secretHeader?: string; secret?: string } = {},
): Promise<CustomApiFake> {
  const served = new Map<string, unknown>();
  const elsewhere = createServer((_req, res) => sendJson(res, fake.stats));
  const elsewhereUrl = await listen(elsewhere);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    fake.requests.push({
      method: req.method ?? "GET",
      path: `${url.pathname}${url.search}`,
      headers: req.headers,
    });
    const [, area, ...rest] = url.pathname.split("/");
    const page = rest.join("/");
    if (area === "api" && req.headers[fake.secretHeader.toLowerCase()] !== fake.secret)
      return sendJson(res, { error: "unauthorized" }, 401);
    if (area !== "api" && area !== "public") return sendJson(res, { error: "not found" }, 404);
    if (served.has(url.pathname)) return sendJson(res, served.get(url.pathname));
    switch (page) {
      case "stats":
        if (fake.failing) {
          res.writeHead(503, { "content-type": "text/html" });
          return res.end("<html><body>502 Bad Gateway</body></html>");
        }
        return sendJson(res, fake.stats);
      case "page":
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return res.end("<!doctype html><html><body><form>Sign in</form></body></html>");
      case "huge":
        return sendHuge(res);
      case "big":
        return sendJson(res, BIG());
      case "slow":
        return sendSlow(res);
      case "moved":
        res.writeHead(302, { location: `${elsewhereUrl}/stats` });
        return res.end();
      case "echo":
        return sendJson(res, { query: Object.fromEntries(url.searchParams) });
      default:
        return sendJson(res, { error: "not found" }, 404);
    }
  });
  const url = await listen(server);
  const fake: CustomApiFake = {
    url,
    elsewhereUrl,
    secretHeader: options.secretHeader ?? "X-Api-Key",
    secret: options.secret ?? `fake-secret-${Math.random().toString(36).slice(2)}`,
    requests: [],
    count: (path) => fake.requests.filter((r) => r.path.split("?")[0] === path).length,
    serve: (path, json) => void served.set(path, json),
    stats: FAKE_STATS(),
    failing: false,
    async close() {
      for (const s of [server, elsewhere]) {
        s.closeAllConnections();
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
    },
  };
  return fake;
}
