import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Home Assistant's REST API for tests, on 127.0.0.1, as core 2026.11 answers it
 * (homeassistant/components/api): every call needs `Authorization: Bearer <long-lived token>`,
 * else 401 with the text `401: Unauthorized`; with `banAfter` set (HA's
 * `login_attempts_threshold`), that many refusals ban the caller's address, which then gets 403
 * `403: Forbidden` whatever it sends, as HA's ip_ban does.
 * - `GET /api/` → `{"message":"API running."}`; `GET /api/config` → version and location;
 * - `GET /api/states` → every entity; `GET /api/states/<id>` → one, or 404
 *   `{"message":"Entity not found."}`;
 * - `POST /api/services/<domain>/<service>` `{"entity_id": …}`: `toggle`, `turn_on`, `turn_off` of
 *   the domains that have them change the state and answer the states that changed; an unknown
 *   service is 400 `400: Bad Request`; a body that is not JSON is 400 `{"message":"Data should
 *   be valid JSON."}`. With `reportChanges` off it answers `[]`, as HA does when a device
 *   reports its new state after the call returned.
 * States are strings; times are ISO 8601 with microseconds and `+00:00`, as HA writes them.
 * Every request is recorded (method, path, headers, body) for tests to assert what was sent.
 */
export interface HaState {
  entity_id: string;
  state: string;
  attributes: Record<string, unknown>;
  last_changed: string;
  last_updated: string;
}

export interface HaRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface HomeAssistantFake {
  url: string;
  token: string;
  requests: HaRequest[];
  /** Calls to /api/services/…: the service and the body, in order. */
  serviceCalls: { domain: string; service: string; body: unknown; authorization: string | undefined }[];
  /** Requests refused with 401 so far. */
  refusals: number;
  /** Whether the address is banned (403 for everything). */
  banned: boolean;
  /** When false, service calls answer `[]` (the device reports later). */
  reportChanges: boolean;
  /** The states, by entity id; tests change them. */
  states: Map<string, HaState>;
  set(entityId: string, state: string, attributes?: Record<string, unknown>): void;
  /** Requests to `path` (without a query) so far. */
  count(path: string): number;
  close(): Promise<void>;
}

/** HA writes datetimes with microseconds and an explicit UTC offset. */
export const haTime = (ms: number) => new Date(ms).toISOString().replace("Z", "000+00:00");

const SEED_AT = Date.parse("2026-11-27T20:01:02.123Z");

function seedStates(): HaState[] {
  const state = (entity_id: string, value: string, attributes: Record<string, unknown>, at = SEED_AT) => ({
    entity_id,
    state: value,
    attributes,
    last_changed: haTime(at),
    last_updated: haTime(at),
  });
  return [
    state("light.kitchen", "on", {
      friendly_name: "Kitchen",
      brightness: 180,
      color_mode: "brightness",
      supported_color_modes: ["brightness"],
    }),
    state("light.porch", "unavailable", { friendly_name: "Porch", restored: true }),
    state("switch.coffee_maker", "off", { friendly_name: "Coffee maker" }),
    state("input_boolean.guest_mode", "off", { friendly_name: "Guest mode", editable: true }),
    state("sensor.living_room_temperature", "21.5", {
      friendly_name: "Living room temperature",
      unit_of_measurement: "°C",
      device_class: "temperature",
      state_class: "measurement",
    }),
    state("binary_sensor.front_door", "off", { friendly_name: "Front door", device_class: "door" }),
    state("cover.garage_door", "closed", { friendly_name: "Garage door", device_class: "garage" }),
    state("person.ada", "home", { friendly_name: "Ada" }),
  ];
}

/** Domains whose on/off services the fake carries out (HA has many more). */
const ON_OFF_DOMAINS = new Set([
  "light",
  "switch",
  "input_boolean",
  "fan",
  "automation",
  "siren",
  "humidifier",
]);

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** aiohttp's own errors are plain text: "401: Unauthorized". */
function sendText(res: ServerResponse, status: number, text: string) {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8" });
  res.end(text);
}

export async function startHomeAssistantFake(
  options: { token?: string; banAfter?: number; now?: () => number } = {},
): Promise<HomeAssistantFake> {
  const now = options.now ?? Date.now;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://fake");
    const path = url.pathname;
    const method = req.method ?? "GET";
    fake.requests.push({ method, path: `${path}${url.search}`, headers: req.headers, body });

    if (fake.banned) return sendText(res, 403, "403: Forbidden");
    if (req.headers.authorization !== `Bearer ${fake.token}`) {
      fake.refusals++;
      if (options.banAfter !== undefined && fake.refusals >= options.banAfter) fake.banned = true;
      return sendText(res, 401, "401: Unauthorized");
    }

    if (method === "GET" && path === "/api/") return send(res, 200, { message: "API running." });
    if (method === "GET" && path === "/api/config")
      return send(res, 200, {
        version: "2026.11.2",
        location_name: "Home",
        time_zone: "Europe/Berlin",
        unit_system: { temperature: "°C" },
        components: ["api", "light", "switch"],
      });
    if (method === "GET" && path === "/api/states") return send(res, 200, [...fake.states.values()]);
    const one = /^\/api\/states\/([^/]+)$/.exec(path);
    if (method === "GET" && one) {
      const found = fake.states.get(decodeURIComponent(one[1]!));
      return found ? send(res, 200, found) : send(res, 404, { message: "Entity not found." });
    }
    const service = /^\/api\/services\/([a-z0-9_]+)\/([a-z0-9_]+)$/.exec(path);
    if (method === "POST" && service) {
      const [, domain, name] = service as unknown as [string, string, string];
      let data: { entity_id?: unknown };
      try {
        data = body ? JSON.parse(body) : {};
      } catch {
        return send(res, 400, { message: "Data should be valid JSON." });
      }
      fake.serviceCalls.push({ domain, service: name, body: data, authorization: req.headers.authorization });
      if (!ON_OFF_DOMAINS.has(domain) || !["toggle", "turn_on", "turn_off"].includes(name))
        return sendText(res, 400, "400: Bad Request");
      const ids = Array.isArray(data.entity_id) ? data.entity_id : [data.entity_id];
      const changed: HaState[] = [];
      for (const id of ids) {
        const entity = typeof id === "string" ? fake.states.get(id) : undefined;
        if (!entity || !id.startsWith(`${domain}.`) || entity.state === "unavailable") continue;
        const next =
          name === "toggle" ? (entity.state === "on" ? "off" : "on") : name === "turn_on" ? "on" : "off";
        if (next === entity.state) continue;
        const at = haTime(now());
        const updated = { ...entity, state: next, last_changed: at, last_updated: at };
        fake.states.set(id, updated);
        changed.push(updated);
      }
      return send(res, 200, fake.reportChanges ? changed : []);
    }
    return sendText(res, 404, "404: Not Found");
  });
  const url = await listen(server);
  const fake: HomeAssistantFake = {
    url,
    token: options.token ?? `ha-token-${Math.random().toString(36).slice(2)}`,
    requests: [],
    serviceCalls: [],
    refusals: 0,
    banned: false,
    reportChanges: true,
    states: new Map(seedStates().map((s) => [s.entity_id, s])),
    set(entityId, state, attributes) {
      const at = haTime(now());
      const before = fake.states.get(entityId);
      fake.states.set(entityId, {
        entity_id: entityId,
        state,
        attributes: attributes ?? before?.attributes ?? {},
        last_changed: before?.state === state ? before.last_changed : at,
        last_updated: at,
      });
    },
    count: (path) => fake.requests.filter((r) => r.path.split("?")[0] === path).length,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
