import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Pi-hole v6's REST API for tests, on 127.0.0.1, as FTL v6.4.1 answers it (src/api/auth.c,
 * dns.c, api.c and the OpenAPI specs under src/api/docs):
 * - `POST /api/auth` `{"password"}`: the web or app password opens a session in a free seat of
 *   `maxSessions` (expired ones are freed first) and answers `{session:{valid, totp, sid, csrf,
 *   validity, message}, took}`; no free seat is 429 `api_seats_exceeded`; a wrong password 401
 *   with `valid:false`; no JSON body or no password 400 `bad_request`. Without a password set,
 *   every sign-in is `valid:true` with `sid:null`.
 * - Every other endpoint wants the session id (header `X-FTL-SID` or `sid`, or `?sid=`): an
 *   unknown or expired one is 401 `{"error":{"key":"unauthorized","message":"Unauthorized",
 *   "hint":null},"took"}`. Each call moves the session's expiry `sessionTimeoutSeconds` ahead.
 * - `GET /api/stats/summary`, `GET /api/info/version`, `GET /api/dns/blocking` →
 *   `{blocking:"enabled"|"disabled", timer: seconds left | null}`, `POST /api/dns/blocking`
 *   `{blocking, timer?}` (seconds; blocking flips back when it runs out) answers as the GET does;
 *   `GET/DELETE /api/auth` check and end a session.
 * - An unknown path is 404 `not_found`, before any session check, as FTL's router does.
 * Every request is recorded for tests to assert what was sent.
 */
export interface PiholeRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Seat {
  sid: string;
  validUntil: number;
  app: boolean;
}

export interface PiholeFake {
  url: string;
  /** The web password; "" when Pi-hole has none. */
  password: string;
  /** An app password (works as the web password does, without two-factor). */
  appPassword: string;
  requests: PiholeRequest[];
  /** Sign-ins that opened a session. */
  logins: number;
  /** Sign-ins refused (wrong password, or no seat). */
  refusedLogins: number;
  /** Sessions open now. */
  sessions(): Seat[];
  /** Ends every session, as making a new app password does. */
  endSessions(): void;
  blocking: "enabled" | "disabled";
  /** When a pause ends, epoch ms; null without a timer. */
  timerEndsAt: number | null;
  /** What `/api/stats/summary` counts. */
  stats: { total: number; blocked: number; domainsBlocked: number };
  /** The `blocking` and `timer` bodies POSTed, in order. */
  blockingCalls: { blocking: unknown; timer: unknown; sid: string | undefined }[];
  count(path: string, method?: string): number;
  close(): Promise<void>;
}

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );

const took = () => Math.round(Math.random() * 1000) / 1e6;

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ ...(body as object), took: took() }));
}

const error = (
  res: ServerResponse,
  status: number,
  key: string,
  message: string,
  hint: string | null = null,
) => send(res, status, { error: { key, message, hint } });

/** FTL's session ids: 16 random bytes in base64, as generateSID() makes them. */
const newSid = () => randomBytes(16).toString("base64");

export async function startPiholeFake(
  options: {
    password?: string;
    appPassword?: string;
    maxSessions?: number;
    sessionTimeoutSeconds?: number;
    now?: () => number;
  } = {},
): Promise<PiholeFake> {
  const now = options.now ?? Date.now;
  const maxSessions = options.maxSessions ?? 16;
  const timeoutMs = (options.sessionTimeoutSeconds ?? 1800) * 1000;
  const seats: (Seat | null)[] = Array.from({ length: maxSessions }, () => null);
  /** What blocking becomes when the timer runs out. */
  let timerTarget: "enabled" | "disabled" = "enabled";

  /** The blocking state now: a pause that ran out has flipped back. */
  function settle() {
    if (fake.timerEndsAt !== null && fake.timerEndsAt <= now()) {
      fake.blocking = timerTarget;
      fake.timerEndsAt = null;
    }
  }
  const blockingBody = () => {
    settle();
    return {
      blocking: fake.blocking,
      timer: fake.timerEndsAt === null ? null : (fake.timerEndsAt - now()) / 1000,
    };
  };

  function sessionOf(sid: string | undefined): Seat | null {
    if (!sid) return null;
    const seat = seats.find((s) => s?.sid === sid) ?? null;
    if (!seat || seat.validUntil < now()) return null;
    seat.validUntil = now() + timeoutMs;
    return seat;
  }

  const sessionBody = (seat: Seat | null, message: string) =>
    seat
      ? {
          valid: true,
          totp: false,
          sid: seat.sid,
          csrf: newSid(),
          validity: Math.round((seat.validUntil - now()) / 1000),
          message,
        }
      : fake.password === ""
        ? { valid: true, totp: false, sid: null, validity: -1, message: "no password set" }
        : { valid: false, totp: false, sid: null, validity: -1, message };

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://fake");
    const path = url.pathname;
    const method = req.method ?? "GET";
    fake.requests.push({ method, path: `${path}${url.search}`, headers: req.headers, body });
    const headerSid = req.headers["x-ftl-sid"] ?? req.headers.sid;
    const sid =
      (Array.isArray(headerSid) ? headerSid[0] : headerSid) ?? url.searchParams.get("sid") ?? undefined;
    let json: Record<string, unknown> | null = null;
    try {
      json = body ? JSON.parse(body) : null;
    } catch {
      json = null;
    }

    if (path === "/api/auth") {
      if (method === "POST") {
        if (json === null) return error(res, 400, "bad_request", "No request body data");
        if (!("password" in json)) return error(res, 400, "bad_request", "No password found in JSON payload");
        if (typeof json.password !== "string")
          return error(res, 400, "bad_request", "Field password has to be of type 'string'");
        if (fake.password === "") return send(res, 200, { session: sessionBody(null, "no password set") });
        const app = json.password === fake.appPassword && fake.appPassword !== "";
        if (json.password !== fake.password && !app) {
          fake.refusedLogins++;
          return send(res, 401, { session: sessionBody(null, "password incorrect") });
        }
        const free = seats.findIndex((s) => s === null || s.validUntil < now());
        if (free === -1) {
          fake.refusedLogins++;
          return error(
            res,
            429,
            "api_seats_exceeded",
            "API seats exceeded",
            "increase webserver.api.max_sessions",
          );
        }
        const seat = { sid: newSid(), validUntil: now() + timeoutMs, app };
        seats[free] = seat;
        fake.logins++;
        return send(res, 200, {
          session: sessionBody(seat, app ? "app-password correct" : "password correct"),
        });
      }
      const seat = sessionOf(sid);
      if (method === "DELETE") {
        if (!seat) return send(res, 401, { session: sessionBody(null, "session unknown") });
        seats[seats.indexOf(seat)] = null;
        res.writeHead(204);
        return res.end();
      }
      if (method === "GET")
        return send(res, seat || fake.password === "" ? 200 : 401, {
          session: sessionBody(seat, seat ? "correct password" : "session unknown"),
        });
    }

    const known: Record<string, string[]> = {
      "/api/stats/summary": ["GET"],
      "/api/dns/blocking": ["GET", "POST"],
      "/api/info/version": ["GET"],
    };
    if (!known[path]?.includes(method)) return error(res, 404, "not_found", "Not found", path);
    if (fake.password !== "" && !sessionOf(sid)) return error(res, 401, "unauthorized", "Unauthorized");

    if (path === "/api/stats/summary") {
      const { total, blocked, domainsBlocked } = fake.stats;
      return send(res, 200, {
        queries: {
          total,
          blocked,
          percent_blocked: total === 0 ? 0 : (blocked / total) * 100,
          unique_domains: 445,
          forwarded: Math.round((total - blocked) * 0.6),
          cached: Math.round((total - blocked) * 0.4),
          frequency: 1.1,
          types: {
            A: Math.round(total * 0.6),
            AAAA: Math.round(total * 0.3),
            OTHER: Math.round(total * 0.1),
          },
          status: { GRAVITY: blocked, FORWARDED: Math.round((total - blocked) * 0.6) },
          replies: { IP: total - blocked, NODATA: 0, NXDOMAIN: 0 },
        },
        clients: { active: 9, total: 14 },
        gravity: { domains_being_blocked: domainsBlocked, last_update: 1764201600 },
      });
    }
    if (path === "/api/info/version")
      return send(res, 200, {
        version: {
          core: {
            local: { branch: "master", version: "v6.2.3", hash: "a1b2c3d4" },
            remote: { version: "v6.2.3" },
          },
          web: {
            local: { branch: "master", version: "v6.3", hash: "e5f6a7b8" },
            remote: { version: "v6.3" },
          },
          ftl: {
            local: { branch: "master", version: "v6.4.1", hash: "8d1add8d" },
            remote: { version: "v6.4.1" },
          },
        },
      });
    if (method === "GET") return send(res, 200, blockingBody());
    // POST /api/dns/blocking
    if (json === null) return error(res, 400, "bad_request", "No request body data");
    fake.blockingCalls.push({ blocking: json.blocking, timer: json.timer, sid });
    if (typeof json.blocking !== "boolean")
      return error(res, 400, "body_error", 'No "blocking" boolean in body data');
    settle();
    const target = json.blocking ? "enabled" : "disabled";
    const seconds = typeof json.timer === "number" && json.timer > 0 ? json.timer : null;
    // As FTL's set_blocking(): a change starts a timer back to the other state; asking for the
    // state it is in (re)starts one that ends enabled. No timer keeps the state.
    timerTarget = target === fake.blocking ? "enabled" : target === "enabled" ? "disabled" : "enabled";
    fake.blocking = target;
    fake.timerEndsAt = seconds === null ? null : now() + seconds * 1000;
    return send(res, 200, blockingBody());
  });
  const url = await listen(server);
  const fake: PiholeFake = {
    url,
    password: options.password ?? `pihole-${randomBytes(6).toString("hex")}`,
    appPassword: options.appPassword ?? "",
    requests: [],
    logins: 0,
    refusedLogins: 0,
    sessions: () => seats.filter((s): s is Seat => s !== null && s.validUntil >= now()),
    endSessions: () => seats.fill(null),
    blocking: "enabled",
    timerEndsAt: null,
    stats: { total: 48_213, blocked: 6_873, domainsBlocked: 312_405 },
    blockingCalls: [],
    count: (path, method) =>
      fake.requests.filter((r) => r.path.split("?")[0] === path && (!method || r.method === method)).length,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
