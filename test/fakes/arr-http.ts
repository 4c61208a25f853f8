import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * What the fakes of Sonarr and Radarr (src/integrations/{sonarr,radarr}/fake.ts) share: both are
 * the same ASP.NET code (Sonarr.Http and Radarr.Http: ApiKeyAuthenticationHandler,
 * PagingResource, STJson, the QueueResource), so their fakes answer alike. The API key comes as
 * `?apikey=`, `X-Api-Key` or `Authorization: Bearer`; a missing or wrong one is 401 with an empty
 * body. Query values bind as ASP.NET binds them (names and booleans case-insensitive; a value that
 * does not bind is 400 with its validation problem). Each fake keeps its own data and what its
 * calendar and queue make of it.
 */

export interface ArrRequest {
  method: string;
  /** Below the URL base. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
}

/** Their instants: UTC, whole seconds, `Z` (STJUtcConverter). */
export const arrTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** .NET's TimeSpan "[-][d.]hh:mm:ss[.fffffff]" in ms, for sorting as they do; null for none. */
function timeSpanMs(value: string | null): number | null {
  const match = value ? /^(-)?(?:(\d+)\.)?(\d+):(\d+):(\d+)(?:\.\d+)?$/.exec(value) : null;
  if (!match) return null;
  const [, minus, days, hours, minutes, seconds] = match;
  const ms =
    ((Number(days ?? 0) * 24 + Number(hours)) * 60 + Number(minutes)) * 60_000 + Number(seconds) * 1000;
  return minus ? -ms : ms;
}

/** A query value that does not bind to its parameter's type. */
class Unbound extends Error {
  constructor(
    readonly parameter: string,
    readonly value: string,
  ) {
    super(`The value '${value}' is not valid.`);
  }
}

/** Query parameters as ASP.NET binds them. */
function queryReader(query: URLSearchParams) {
  const lower = new Map([...query].map(([key, value]) => [key.toLowerCase(), value]));
  const raw = (name: string) => lower.get(name.toLowerCase());
  return {
    bool(name: string): boolean {
      const value = raw(name);
      if (value === undefined || value === "") return false;
      if (/^true$/i.test(value)) return true;
      if (/^false$/i.test(value)) return false;
      throw new Unbound(name, value);
    },
    int(name: string, fallback: number): number {
      const value = raw(name);
      if (value === undefined || value === "") return fallback;
      if (!/^-?\d{1,9}$/.test(value.trim())) throw new Unbound(name, value);
      return Number(value);
    },
    date(name: string, fallback: number): number {
      const value = raw(name);
      if (value === undefined || value === "") return fallback;
      const ms = Date.parse(value);
      if (!Number.isFinite(ms)) throw new Unbound(name, value);
      return ms;
    },
    text: raw,
  };
}

export type QueryReader = ReturnType<typeof queryReader>;

/**
 * One page of `all` as PagingResource and the queue controllers make it: page 1 and 10 per page
 * by default; the sort key if allowed, else `timeleft`; *descending* when no direction is given
 * (PagingResource's default, `default` being ascending); ties by progress, most done first; a page
 * past the end answers the last one (computed with their integer division).
 */
export function queuePage<T extends ArrQueueSeed>(
  read: QueryReader,
  all: readonly T[],
  sortKeys: readonly string[],
  resource: (seed: T) => unknown,
) {
  const page = read.int("page", 1);
  const pageSize = read.int("pageSize", 10);
  const asked = read.text("sortKey");
  const sortKey = asked && sortKeys.some((k) => k.toLowerCase() === asked.toLowerCase()) ? asked : "timeleft";
  const direction = read.text("sortDirection");
  if (direction !== undefined && !/^(default|ascending|descending)$/i.test(direction))
    throw new Unbound("sortDirection", direction);
  const sortDirection =
    direction === undefined
      ? "descending"
      : /^default$/i.test(direction)
        ? "ascending"
        : direction.toLowerCase();
  const sign = sortDirection === "ascending" ? 1 : -1;
  const progress = (q: T) => (q.size === 0 ? 0 : 100 - (q.sizeleft / q.size) * 100);
  const ordered = [...all].sort((a, b) => {
    let by: number;
    if (sortKey.toLowerCase() === "timeleft") {
      const [x, y] = [timeSpanMs(a.timeleft), timeSpanMs(b.timeleft)];
      by = x === null && y === null ? 0 : x === null ? 1 : y === null ? -1 : x - y;
    } else by = a.title.localeCompare(b.title);
    return sign * by || progress(b) - progress(a);
  });
  let shown = page;
  let records = ordered.slice((page - 1) * pageSize, page * pageSize);
  if (records.length === 0 && page > 1) {
    shown = Math.max(Math.floor(all.length / pageSize), 1);
    records = ordered.slice((shown - 1) * pageSize, shown * pageSize);
  }
  return {
    page: shown,
    pageSize,
    sortKey,
    sortDirection,
    totalRecords: all.length,
    records: records.map(resource),
  };
}

/** A download in the queue as both fakes keep it; each adds what it was matched to. */
export interface ArrQueueSeed {
  id: number;
  title: string;
  size: number;
  sizeleft: number;
  /** TimeSpan as they write it; null while the client does not know. */
  timeleft: string | null;
  estimatedCompletionTime: string | null;
  status: string;
  trackedDownloadStatus: "ok" | "warning" | "error";
  trackedDownloadState: string;
  statusMessages: { title: string; messages: string[] }[];
  errorMessage?: string;
  downloadId: string;
  protocol: "torrent" | "usenet";
  downloadClient: string;
}

/**
 * The QueueResource both write, in its order: the app's own fields (`matched`: what the download
 * is for), its `quality`, then the download; `beforeSizeleft` is what the app writes there.
 */
export function queueResource(
  q: ArrQueueSeed,
  own: { matched: object; quality: object; beforeSizeleft?: object },
) {
  return {
    ...own.matched,
    languages: [{ id: 1, name: "English" }],
    quality: { quality: own.quality },
    customFormats: [],
    customFormatScore: 0,
    size: q.size,
    title: q.title,
    ...(q.estimatedCompletionTime ? { estimatedCompletionTime: q.estimatedCompletionTime } : {}),
    added: "2026-11-27T18:00:00Z",
    status: q.status,
    trackedDownloadStatus: q.trackedDownloadStatus,
    trackedDownloadState: q.trackedDownloadState,
    statusMessages: q.statusMessages,
    ...(q.errorMessage ? { errorMessage: q.errorMessage } : {}),
    downloadId: q.downloadId,
    protocol: q.protocol,
    downloadClient: q.downloadClient,
    downloadClientHasPostImportCategory: false,
    indexer: "Indexer",
    outputPath: `/downloads/${q.title}`,
    ...own.beforeSizeleft,
    sizeleft: q.sizeleft,
    ...(q.timeleft === null ? {} : { timeleft: q.timeleft }),
    id: q.id,
  };
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** The instant `days` after the start of `now`'s day (UTC), plus `hours`, as they write it. */
export const dayTime = (now: number, days: number, hours = 0) =>
  arrTime(Math.floor(now / DAY_MS) * DAY_MS + days * DAY_MS + hours * HOUR_MS);

/** The calendar's window and filter as both bind them: today to today + 2 days (UTC) unless asked. */
export interface CalendarQuery {
  start: number;
  end: number;
  unmonitored: boolean;
}

function calendarQuery(read: QueryReader, now: number): CalendarQuery {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  return {
    start: read.date("start", today),
    end: read.date("end", today + 2 * DAY_MS),
    unmonitored: read.bool("unmonitored"),
  };
}

function send(res: ServerResponse, status: number, body?: unknown) {
  if (body === undefined) {
    res.writeHead(status, { "content-length": "0" });
    res.end();
    return;
  }
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body, null, 2));
}

/** A route's answer: JSON, or undefined for their 404 with an empty body. */
type ArrRoute = (method: string, path: string, read: QueryReader) => unknown;

/**
 * Starts an *arr on 127.0.0.1 under `urlBase`, checking `apiKey()` on everything but `/ping`.
 * Answers `{url, close}`; every request is pushed to `requests`.
 */
async function serveArr(options: {
  urlBase: string;
  apiKey: () => string;
  requests: ArrRequest[];
  route: ArrRoute;
}) {
  const { urlBase, requests, route } = options;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const method = req.method ?? "GET";
    const path = url.pathname.startsWith(urlBase) ? url.pathname.slice(urlBase.length) || "/" : null;
    requests.push({ method, path: path ?? url.pathname, query: url.searchParams, headers: req.headers });
    req.resume();
    if (path === null) return send(res, 404);
    if (path === "/ping") return send(res, 200, { status: "OK" });
    const bearer = req.headers.authorization?.replace("Bearer ", "");
    const key = url.searchParams.get("apikey") ?? (req.headers["x-api-key"] as string | undefined) ?? bearer;
    if (key !== options.apiKey()) return send(res, 401);
    try {
      const answer = route(method, path, queryReader(url.searchParams));
      return answer === undefined ? send(res, 404) : send(res, 200, answer);
    } catch (error) {
      if (!(error instanceof Unbound)) throw error;
      return send(res, 400, {
        type: "https://tools.ietf.org/html/rfc9110#section-15.5.1",
        title: "One or more validation errors occurred.",
        status: 400,
        errors: { [error.parameter]: [error.message] },
      });
    }
  });
  const origin = await new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
  return {
    url: `${origin}${urlBase}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The system status both answer, by app and version. */
function systemStatus(appName: string, version: string, urlBase: string) {
  return {
    appName,
    instanceName: appName,
    version,
    buildTime: "2026-06-26T12:00:00Z",
    isDebug: false,
    isProduction: true,
    isAdmin: false,
    isUserInteractive: false,
    startupPath: `/app/${appName.toLowerCase()}/bin`,
    appData: "/config",
    osName: "ubuntu",
    osVersion: "24.04",
    isNetCore: true,
    isLinux: true,
    isOsx: false,
    isWindows: false,
    isDocker: true,
    mode: "console",
    branch: "main",
    authentication: "forms",
    migrationVersion: 217,
    urlBase,
    runtimeVersion: "8.0.12",
    runtimeName: ".NET",
    startTime: "2026-11-20T08:00:00Z",
    packageUpdateMechanism: "docker",
    databaseType: "sqLite",
    databaseVersion: "3.45.1",
  };
}

export interface ArrFakeOptions {
  apiKey?: string;
  urlBase?: string;
  version?: string;
  now?: () => number;
}

/** A running fake: tests read and change its key, version and data while it runs. */
export interface ArrFake {
  url: string;
  apiKey: string;
  version: string;
  requests: ArrRequest[];
  /** Requests to `path` (below the URL base, without a query) so far. */
  count(path: string): number;
  close(): Promise<void>;
}

/** What makes one app's fake: its name, its version unless asked, its data and its two resources. */
export interface ArrApp<Data extends object> {
  name: string;
  version: string;
  seeds(now: number): Data;
  /** `GET /api/v3/calendar`, `query` read first (with its defaults) and the rest from `read`. */
  calendar(fake: ArrFake & Data, query: CalendarQuery, read: QueryReader): unknown;
  /** `GET /api/v3/queue`. */
  queue(fake: ArrFake & Data, read: QueryReader): unknown;
}

/**
 * Starts the fake of `app`: `GET /api/v3/system/status` answers its status, the calendar and the
 * queue what `app` makes of its data (which tests change while it runs); anything else is 404.
 */
export async function startArrFake<Data extends object>(
  app: ArrApp<Data>,
  options: ArrFakeOptions,
): Promise<ArrFake & Data> {
  const now = options.now ?? Date.now;
  const urlBase = options.urlBase ?? "";
  const requests: ArrRequest[] = [];
  const server = await serveArr({
    urlBase,
    apiKey: () => fake.apiKey,
    requests,
    route(method, path, read) {
      if (method !== "GET") return undefined;
      if (path === "/api/v3/system/status") return systemStatus(app.name, fake.version, urlBase);
      if (path === "/api/v3/calendar") return app.calendar(fake, calendarQuery(read, now()), read);
      if (path === "/api/v3/queue") return app.queue(fake, read);
      return undefined;
    },
  });
  const fake: ArrFake & Data = {
    url: server.url,
    apiKey: options.apiKey ?? randomBytes(16).toString("hex"),
    version: options.version ?? app.version,
    ...app.seeds(now()),
    requests,
    count: (path) => requests.filter((r) => r.path === path).length,
    close: server.close,
  };
  return fake;
}
