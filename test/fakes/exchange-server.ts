/**
 * The fake exchange itself, run in a worker thread so its clock and request log are not
 * skewed by the app's busy event loop. It behaves like the real exchange where the app can
 * tell: signature checks, a 300-candle cap, newest-first candles, its own rate limit.
 * Its state is module-level on purpose: every fake is a worker of its own.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { parentPort, workerData } from "node:worker_threads";
import type { FakeSettings, Fault, RecordedRequest } from "./exchange.js";
import { CURRENCIES, candleRow, GRANULARITIES, PRODUCTS } from "./exchange-market.js";

const { key, secret, passphrase } = workerData as { key: string; secret: string; passphrase: string };
const DEFAULTS: FakeSettings = {
  auth: "required",
  skewSeconds: 0,
  rate: { requests: 10, windowMs: 1000 },
  latencyMs: 0,
};

let settings: FakeSettings = { ...DEFAULTS };
let faults: { fault: Fault; remaining: number; path: string }[] = [];
let log: RecordedRequest[] = [];
let served: number[] = [];

const now = () => performance.timeOrigin + performance.now();

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
  return status;
}

/** The real exchange's checks, in its order; null when the request may pass. */
function authFailure(req: IncomingMessage): string | null {
  const header = (name: string) => req.headers[name.toLowerCase()] as string | undefined;
  const given = header("EX-ACCESS-KEY");
  if (given === undefined && settings.auth === "optional") return null;
  if (given !== key) return "invalid API key";
  if (header("EX-ACCESS-PASSPHRASE") !== passphrase) return "invalid passphrase";
  const timestamp = Number(header("EX-ACCESS-TIMESTAMP"));
  if (!Number.isFinite(timestamp) || Math.abs(now() / 1000 + settings.skewSeconds - timestamp) > 30)
    return "request timestamp expired";
  const expected = createHmac("sha256", Buffer.from(secret, "base64"))
    .update(`${header("EX-ACCESS-TIMESTAMP")}${req.method}${req.url}`)
    .digest();
  const sent = Buffer.from(header("EX-ACCESS-SIGN") ?? "", "base64");
  return sent.length === expected.length && timingSafeEqual(sent, expected) ? null : "invalid signature";
}

function parseTime(value: string): number {
  return /^\d+(\.\d+)?$/.test(value) ? Number(value) : Date.parse(value) / 1000;
}

function candles(res: ServerResponse, product: string, query: URLSearchParams) {
  if (!PRODUCTS.has(product)) return json(res, 404, { message: "NotFound" });
  const granularity = Number(query.get("granularity"));
  if (!GRANULARITIES.has(granularity)) return json(res, 400, { message: "Unsupported granularity" });
  const current = Math.floor(now() / 1000 / granularity) * granularity;
  let first = current - 299 * granularity;
  let last = current;
  const start = query.get("start");
  const end = query.get("end");
  // As documented: with only one of start and end, both are ignored.
  if (start !== null && end !== null) {
    const from = parseTime(start);
    const to = parseTime(end);
    if (!Number.isFinite(from) || !Number.isFinite(to) || to < from)
      return json(res, 400, { message: "Invalid start or end" });
    if (Math.floor((to - from) / granularity) + 1 > 300) {
      return json(res, 400, {
        message:
          "granularity too small for the requested time range. Count of aggregations requested exceeds 300",
      });
    }
    // The real exchange may answer a candle from before `start`; so does this one.
    first = Math.ceil(from / granularity) * granularity - granularity;
    last = Math.min(Math.floor(to / granularity) * granularity, current);
  }
  const rows: number[][] = [];
  const fixed = settings.prices?.[product];
  for (let t = last; t >= first; t -= granularity)
    rows.push(fixed === undefined ? candleRow(product, t, granularity) : [t, fixed, fixed, fixed, fixed, 1]);
  return json(res, 200, rows);
}

function route(req: IncomingMessage, res: ServerResponse): number {
  const url = new URL(req.url ?? "/", "http://fake");
  if (req.method === "GET" && url.pathname === "/currencies") return json(res, 200, CURRENCIES);
  const match = /^\/products\/([^/]+)\/candles$/.exec(url.pathname);
  if (req.method === "GET" && match) return candles(res, decodeURIComponent(match[1]!), url.searchParams);
  return json(res, 404, { message: "NotFound" });
}

function applyFault(fault: Fault, res: ServerResponse): number {
  switch (fault.kind) {
    case "status":
      return json(
        res,
        fault.status,
        { message: fault.message ?? "Fault" },
        fault.retryAfter === undefined ? {} : { "retry-after": String(fault.retryAfter) },
      );
    case "garbage":
      res.writeHead(200, { "content-type": fault.contentType ?? "application/json" }).end(fault.body);
      return 200;
    case "stall":
      return 0;
    case "stall-body":
      res.writeHead(200, { "content-type": "application/json" }).write("[[1700000000,");
      return 200;
  }
}

function handle(req: IncomingMessage, res: ServerResponse): number {
  const path = req.url ?? "/";
  const fault = faults.find((f) => f.remaining > 0 && path.startsWith(f.path));
  if (fault) {
    fault.remaining -= 1;
    return applyFault(fault.fault, res);
  }
  const t = now();
  served = served.filter((at) => at > t - settings.rate.windowMs);
  if (served.length >= settings.rate.requests)
    return json(res, 429, { message: "Public rate limit exceeded" });
  served.push(t);
  const refused = authFailure(req);
  if (refused) return json(res, 401, { message: refused });
  return route(req, res);
}

const server = createServer((req, res) => {
  const entry: RecordedRequest = {
    at: now(),
    method: req.method ?? "",
    url: req.url ?? "",
    status: 0,
    headers: Object.fromEntries(
      Object.entries(req.headers).filter(([name]) => name.startsWith("ex-") || name === "cache-control"),
    ) as Record<string, string>,
  };
  log.push(entry);
  req.resume();
  const respond = () => {
    entry.status = handle(req, res);
  };
  if (settings.latencyMs > 0) setTimeout(respond, settings.latencyMs);
  else respond();
});

type Command =
  | { op: "configure"; settings: Partial<FakeSettings> }
  | { op: "fail"; fault: Fault; times: number; path: string }
  | { op: "heal" }
  | { op: "requests" }
  | { op: "reset" }
  | { op: "close" };

function run(command: Command): unknown {
  switch (command.op) {
    case "configure":
      settings = { ...settings, ...command.settings };
      return null;
    case "fail":
      faults.push({ fault: command.fault, remaining: command.times, path: command.path });
      return null;
    case "heal":
      faults = [];
      return null;
    case "requests":
      return log;
    case "reset":
      settings = { ...DEFAULTS };
      faults = [];
      log = [];
      served = [];
      return null;
    case "close":
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve(null)));
  }
}

parentPort!.on("message", async ({ id, command }: { id: number; command: Command }) => {
  parentPort!.postMessage({ id, result: await run(command) });
});

server.listen(0, "127.0.0.1", () => {
  parentPort!.postMessage({ ready: (server.address() as AddressInfo).port });
});
