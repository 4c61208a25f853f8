import http from "node:http";
import type { AddressInfo } from "node:net";
import { asc, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { account, dashboards, settings, widgets } from "../../src/server/db/schema.js";
import { providersConfig, seedAccount } from "../fakes/oauth-accounts.js";
import { TokenAuthority } from "../fakes/oauth-http.js";
import { TestClient } from "../support/client.js";
import { TEST_ORIGIN } from "../support/config.js";
import { fromSchema, KNOWN_ID, type Schema } from "../support/fuzz/arbitraries.js";
import {
  contentType,
  extraHeaders,
  hostileValue,
  rawHostileBody,
  rawHostileQuery,
  rawHostileQueryValue,
  rawHostileSegment,
  rawHostileValue,
} from "../support/fuzz/hostile.js";
import { type ModeEnv, type ModeName, prepareMode } from "../support/modes.js";

/**
 * Property-based fuzzing of every route of the OpenAPI document (plus better-auth's sign-up and
 * sign-in): bodies, query strings, path parameters and headers generated from the schemas and
 * from hostile generators. For every request:
 * - never a 5xx; the only exception is 502/504 from routes that call an upstream, all pointed at
 *   a closed port on 127.0.0.1 here (no real network), where that answer is the correct one;
 * - every 4xx is problem+json with a matching status and a code;
 * - the user's data is unchanged after every refused request (and after every GET), and another
 *   user's data is unchanged after every request at all.
 */

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 5200);
const UNREACHABLE = "http://127.0.0.1:1";
const THROTTLED_ROUTE = /^\/api\/(exchange\/|public\/.*\/prices$)/;
const UPSTREAM_ROUTE =
  /^\/api\/(exchange|weather|widgets\/data|providers\/(suite|codehost|notes)\/|public\/.*\/(prices|weather|data)$)/;

/** The value in one case out of `oneIn`, else null. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, oneIn: number) =>
  fc.oneof({ arbitrary: fc.constant(null), weight: oneIn - 1 }, { arbitrary, weight: 1 });

interface Operation {
  method: string;
  path: string;
  params: { in: string; name: string; schema: Schema; required?: boolean }[];
  body: Schema | null;
  upstream: boolean;
}

interface FuzzRequest {
  op: Operation;
  url: string;
  /** JSON text or raw text; undefined for no body. */
  payload?: string;
  headers: Record<string, string>;
}

interface Fixture {
  userId: string;
  cookie: string;
}

describe.each(["embedded", "postgres+redis"] as ModeName[])("fuzzing every route (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let port: number;
  let owner: Fixture;
  let other: Fixture;
  let ownerClient: TestClient;
  const authorities = {
    suite: new TokenAuthority("suite", "post"),
    codehost: new TokenAuthority("codehost", "post"),
    notes: new TokenAuthority("notes", "basic"),
  };

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    const fakes = {
      api: UNREACHABLE,
      token: UNREACHABLE,
    };
    built = await mode.start({
      rateLimitEnabled: false,
      exchange: { url: UNREACHABLE, clientId: null, clientSecret: null, passphrase: null },
      weatherApiUrl: UNREACHABLE,
      geocodingApiUrl: UNREACHABLE,
      providers: providersConfig({
        google: { ...fakes, authority: authorities.suite },
        github: { ...fakes, authority: authorities.codehost },
        notion: { ...fakes, authority: authorities.notes },
      }),
    });
    // Only /api/realtime is driven over a socket (its answer never ends); the rest uses inject.
    await built.app.listen({ port: 0, host: "127.0.0.1" });
    port = (built.app.server.address() as AddressInfo).port;
    // The first account is the admin, who may manage (delete, share, publish) anyone's dashboard:
    // the fuzzed user is a member, so anything it changes of the bystander's is a bug.
    await new TestClient(built.app).signUp("Admin");
    ownerClient = new TestClient(built.app);
    await ownerClient.signUp("Fuzzed");
    owner = { userId: ownerClient.user!.id, cookie: ownerClient.cookie! };
    const otherClient = new TestClient(built.app);
    await otherClient.signUp("Bystander");
    other = { userId: otherClient.user!.id, cookie: otherClient.cookie! };
    for (const client of [ownerClient, otherClient]) await seedData(client);
  });
  afterAll(() => mode.teardown());

  /** Dashboards (one public), a few widgets, notifications and linked accounts. */
  async function seedData(client: TestClient) {
    const { body: board } = await client.post("/api/dashboards", { name: "Board" });
    const { body: shared } = await client.post("/api/dashboards", { name: "Shared" });
    await client.put("/api/dashboards", { id: shared.id, name: "Shared", isPublic: true });
    for (const [dashboardId, widgetType, config] of [
      [board.id, "Clock", { timezone: "UTC" }],
      [shared.id, "Crypto", { pairs: ["BTC-USD"], timeframe: "24h" }],
      [shared.id, "Weather", { location: { name: "Oslo", latitude: 59.9, longitude: 10.7 } }],
    ] as const) {
      const res = await client.post("/api/widgets", {
        dashboardId,
        widgetType,
        config,
        height: 100,
        width: 100,
        positionX: 0,
        positionY: 0,
      });
      expect(res.status).toBe(201);
    }
    await client.post("/api/notifications", { type: "message", message: "hello" });
    await seedAccounts(client.user!.id);
  }

  async function seedAccounts(userId: string) {
    const linked = await built.ctx.database.db.select().from(account).where(eq(account.userId, userId));
    for (const provider of ["suite", "codehost", "notes"] as const) {
      if (!linked.some((row) => row.providerId === provider))
        await seedAccount(built, userId, provider, authorities[provider]);
    }
  }

  async function snapshot(userId: string) {
    const { db } = built.ctx.database;
    const [d, w, s, a, n] = await Promise.all([
      db.select().from(dashboards).where(eq(dashboards.userId, userId)).orderBy(asc(dashboards.id)),
      db.select().from(widgets).where(eq(widgets.userId, userId)).orderBy(asc(widgets.id)),
      db.select().from(settings).where(eq(settings.userId, userId)),
      db
        .select({
          id: account.id,
          providerId: account.providerId,
          accessToken: account.accessToken,
          refreshToken: account.refreshToken,
          updatedAt: account.updatedAt,
        })
        .from(account)
        .where(eq(account.userId, userId))
        .orderBy(asc(account.id)),
      built.ctx.notifications.store.latest(userId, 100),
    ]);
    return { dashboards: d, widgets: w, settings: s, accounts: a, notifications: n };
  }

  const TABLES = ["dashboards", "widgets", "settings", "account", "notifications"];
  const DIGEST = sql.raw(
    `SELECT u.id, md5(concat_ws('|', ${TABLES.map(
      (t) => `(SELECT string_agg(r::text, ',' ORDER BY r.id) FROM "${t}" r WHERE r.user_id = u.id)`,
    ).join(", ")})) AS digest FROM "user" u`,
  );

  /** Every row of both users in one query (and the Redis notification lists): cheap enough for each request. */
  async function digests(): Promise<{ owner: string; other: string }> {
    const result = await built.ctx.database.db.execute(
      sql`${DIGEST} WHERE u.id IN (${owner.userId}, ${other.userId}) ORDER BY u.id`,
    );
    const rows = (result as unknown as { rows: { id: string; digest: string }[] }).rows;
    const of = async (userId: string) => {
      const sql = rows.find((r) => r.id === userId)?.digest ?? "";
      // In PostgreSQL + Redis mode the notification list lives in Redis.
      const listed = built.ctx.redis
        ? JSON.stringify(await built.ctx.notifications.store.latest(userId, 100))
        : "";
      return sql + listed;
    };
    return { owner: await of(owner.userId), other: await of(other.userId) };
  }

  /** Ids that exist: the owner's first, then the bystander's, so generated ids hit real rows. */
  let known: string[] = [];
  async function refreshKnown(own: Awaited<ReturnType<typeof snapshot>>) {
    const theirs = await snapshot(other.userId);
    known = [
      ...own.dashboards.map((d) => d.id),
      ...own.widgets.map((w) => w.id),
      ...own.settings.map((s) => s.id),
      ...theirs.dashboards.map((d) => d.id),
      ...theirs.widgets.map((w) => w.id),
      ...theirs.settings.map((s) => s.id),
      owner.userId,
    ];
  }
  const withKnownIds = (text: string) =>
    text.replace(new RegExp(`${KNOWN_ID}(\\d+)`, "g"), (_m, n) => known[Number(n) % known.length] ?? "");

  it(`answers ${REQUESTS} generated and hostile requests with no 5xx, problem+json 4xx, and no partial write`, async () => {
    const doc = (await ownerClient.get("/api/openapi.json")).body;
    const resolve = (ref: string) => {
      const name = ref.split("/").pop()!;
      return doc.components.schemas[name] as Schema;
    };
    const operations: Operation[] = [];
    for (const [path, methods] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(methods)) {
        operations.push({
          method: method.toUpperCase(),
          path,
          params: op.parameters ?? [],
          body: op.requestBody?.content?.["application/json"]?.schema ?? null,
          upstream: UPSTREAM_ROUTE.test(path),
        });
      }
    }
    // better-auth's endpoints are hidden from the document; the two that anyone can reach are fuzzed too.
    const email = { type: "string", format: "email" };
    const password = { type: "string", minLength: 8, maxLength: 40 };
    operations.push(
      {
        method: "POST",
        path: "/api/auth/sign-in/email",
        params: [],
        body: {
          type: "object",
          required: ["email", "password"],
          properties: { email, password, rememberMe: { type: "boolean" } },
        },
        upstream: false,
      },
      {
        method: "POST",
        path: "/api/auth/sign-up/email",
        params: [],
        body: {
          type: "object",
          required: ["name", "email", "password"],
          properties: { name: { type: "string", minLength: 1, maxLength: 40 }, email, password },
        },
        upstream: false,
      },
    );
    expect(operations.length).toBeGreaterThan(30);

    const requestFor = (op: Operation): fc.Arbitrary<FuzzRequest> => {
      const valueArb = (schema: Schema) =>
        schema.format === "email" ? fc.emailAddress() : fromSchema(schema, resolve);
      const pathParams = op.params.filter((p) => p.in === "path");
      const queryParams = op.params.filter((p) => p.in === "query");
      const segments = fc.tuple(
        ...pathParams.map((p) =>
          fc.oneof(
            { arbitrary: valueArb(p.schema).map((v) => encodeURIComponent(String(v))), weight: 5 },
            { arbitrary: rawHostileSegment, weight: 1 },
          ),
        ),
      );
      const query = fc
        .tuple(
          fc.tuple(
            ...queryParams.map((p) =>
              fc.option(
                fc.oneof(
                  { arbitrary: valueArb(p.schema).map((v) => encodeURIComponent(String(v))), weight: 5 },
                  { arbitrary: rawHostileQueryValue, weight: 2 },
                ),
                { freq: 3 },
              ),
            ),
          ),
          sometimes(rawHostileQuery, 6),
        )
        .map(([values, extra]) =>
          [
            ...values.flatMap((v, i) => (v === null ? [] : [`${queryParams[i]!.name}=${v}`])),
            ...(extra ? [extra] : []),
          ].join("&"),
        );
      const body: fc.Arbitrary<string | undefined> = op.body
        ? bodyFor(op.body, valueArb)
        : fc.oneof(
            { arbitrary: fc.constant(undefined), weight: 10 },
            { arbitrary: rawHostileBody, weight: 1 },
          );
      return fc
        .record({
          segments,
          query,
          body,
          type: contentType,
          headers: sometimes(extraHeaders, 8),
        })
        .map(({ segments: values, query: q, body: payload, type, headers }) => {
          let i = 0;
          const path = op.path.replace(/\{[^}]+\}/g, () => values[i++] ?? "x");
          const all: Record<string, string> = { ...(headers ?? {}) };
          if (payload !== undefined && type) all["content-type"] = type;
          return { op, url: q ? `${path}?${q}` : path, payload, headers: all };
        });
    };

    /** Valid bodies, bodies with one field made hostile, raw hostile text, wrong shapes. */
    function bodyFor(
      schema: Schema,
      valueArb: (s: Schema) => fc.Arbitrary<unknown>,
    ): fc.Arbitrary<string | undefined> {
      const resolved = schema.$ref ? resolve(schema.$ref) : schema;
      const valid = valueArb(resolved);
      const keys = [...Object.keys(resolved.properties ?? {}), "extra", "__proto__", "constructor"];
      const asObject = (v: unknown) =>
        v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
      return fc.oneof(
        { arbitrary: valid.map((v) => JSON.stringify(v)), weight: 5 },
        {
          arbitrary: fc
            .tuple(valid, fc.constantFrom(...keys), hostileValue)
            .map(([v, key, bad]) => JSON.stringify({ ...asObject(v), [key]: bad })),
          weight: 4,
        },
        {
          arbitrary: fc
            .tuple(valid, fc.constantFrom(...keys), rawHostileValue)
            .map(([v, key, raw]) =>
              JSON.stringify({ ...asObject(v), [key]: "__RAW__" }).replace('"__RAW__"', raw),
            ),
          weight: 2,
        },
        {
          // Inside the free-form config, where nothing but the JSON layer checks.
          arbitrary: fc
            .tuple(valid, rawHostileValue)
            .map(([v, raw]) =>
              JSON.stringify({ ...asObject(v), config: { deep: "__RAW__" } }).replace('"__RAW__"', raw),
            ),
          weight: 1,
        },
        { arbitrary: rawHostileBody, weight: 1 },
        { arbitrary: hostileValue.map((v) => JSON.stringify(v) ?? "null"), weight: 1 },
        { arbitrary: fc.constant(undefined), weight: 1 },
      );
    }

    // One arbitrary per operation, built once (building them is the costly part).
    // The exchange's routes wait on its real throttle (3 requests a second for the whole instance,
    // each slot held a second even when the call fails at once), so each of their requests costs up
    // to a second here: two thirds of this test's time when drawn as often as the rest. Drawn a
    // quarter as often, they still get about fifty requests per mode, hostile ones included.
    const requests = fc.oneof(
      ...operations.map((op) => ({
        arbitrary: requestFor(op),
        weight: THROTTLED_ROUTE.test(op.path) ? 1 : 4,
      })),
    );

    const statuses: Record<string, number> = {};
    const upstreamAnswers: Record<string, number> = {};
    let sent = 0;
    let refused = 0;
    const first = await digests();
    let baseline = first.owner;
    const bystander = first.other;
    await refreshKnown(await snapshot(owner.userId));

    const send = async (request: FuzzRequest) => {
      const url = withKnownIds(request.url);
      const payload = request.payload === undefined ? undefined : withKnownIds(request.payload);
      const headers: Record<string, string> = { cookie: owner.cookie, ...request.headers };
      if (request.op.method !== "GET") headers.origin ??= TEST_ORIGIN;
      if (request.op.path === "/api/realtime") return overSocket(url, headers);
      const res = await built.app.inject({ method: request.op.method as "GET", url, headers, payload });
      return {
        status: res.statusCode,
        type: String(res.headers["content-type"] ?? ""),
        body: res.body,
        url,
        payload,
      };
    };

    /** The SSE stream answers headers and then stays open: read the status, then hang up. */
    const overSocket = (url: string, headers: Record<string, string>) =>
      new Promise<{ status: number; type: string; body: string; url: string; payload?: string }>(
        (done, fail) => {
          const req = http.request({ host: "127.0.0.1", port, path: url, method: "GET", headers }, (res) => {
            const type = String(res.headers["content-type"] ?? "");
            if (res.statusCode === 200) {
              res.destroy();
              return done({ status: 200, type, body: "", url });
            }
            let body = "";
            res.setEncoding("utf8");
            res.on("data", (chunk) => (body += chunk));
            res.on("end", () => done({ status: res.statusCode!, type, body, url }));
          });
          req.on("error", fail);
          req.end();
        },
      );

    const started = Date.now();
    const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
    await fc.assert(
      fc.asyncProperty(requests, async (request) => {
        const res = await send(request);
        sent++;
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        const label = `${request.op.method} ${res.url} ${res.payload?.slice(0, 300) ?? ""} -> ${res.status} ${res.body.slice(0, 300)}`;
        if (res.status >= 500) {
          const fromUpstream = request.op.upstream && (res.status === 502 || res.status === 504);
          if (!fromUpstream) throw new Error(`5xx: ${label}`);
          upstreamAnswers[res.status] = (upstreamAnswers[res.status] ?? 0) + 1;
        }
        if (res.status >= 400) {
          refused++;
          if (!res.type.startsWith("application/problem+json")) throw new Error(`not problem+json: ${label}`);
          const problem = JSON.parse(res.body);
          if (problem.status !== res.status || typeof problem.code !== "string")
            throw new Error(`malformed problem: ${label}`);
        }
        const after = await digests();
        const wrote = res.status < 400 && request.op.method !== "GET";
        if (!wrote && after.owner !== baseline)
          throw new Error(`data changed by a refused request: ${label}`);
        if (after.other !== bystander) throw new Error(`another user's data changed: ${label}`);
        if (wrote) {
          await restock(await snapshot(owner.userId));
          await refreshKnown(await snapshot(owner.userId));
          baseline = (await digests()).owner;
        }
      }),
      { numRuns: REQUESTS, seed, endOnFailure: true },
    );

    const seconds = (Date.now() - started) / 1000;
    console.log(
      `[fuzz ${modeName}] ${sent} requests over ${operations.length} operations in ${seconds.toFixed(1)} s (seed ${seed}): ` +
        `statuses ${JSON.stringify(statuses)}; refused ${refused}; 5xx accepted only as upstream 502/504: ${JSON.stringify(upstreamAnswers)}`,
    );
    expect(sent).toBeGreaterThanOrEqual(5000);
  }, 600_000);

  /** Puts back what successful deletes took away, so later requests still reach real rows. */
  async function restock(current: Awaited<ReturnType<typeof snapshot>>): Promise<boolean> {
    let changed = false;
    if (current.dashboards.length === 0) {
      await ownerClient.post("/api/dashboards", { name: "Again" });
      changed = true;
    }
    if (current.widgets.length === 0) {
      const [board] = (await snapshot(owner.userId)).dashboards;
      await ownerClient.post("/api/widgets", {
        dashboardId: board!.id,
        widgetType: "Clock",
        height: 100,
        width: 100,
        positionX: 0,
        positionY: 0,
      });
      changed = true;
    }
    if (current.accounts.length < 3) {
      await seedAccounts(owner.userId);
      changed = true;
    }
    return changed;
  }
});
