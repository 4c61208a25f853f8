import type { FastifyInstance, InjectOptions } from "fastify";
import { TEST_ORIGIN } from "./config.js";
import { assertNoLeak, registerSecret } from "./secrets.js";

export interface TestResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: T;
  text: string;
  /** The body's bytes, for binary answers (images). */
  raw: Buffer;
}

let counter = 0;
export const uniqueEmail = (label = "user") => `${label}-${Date.now()}-${++counter}@example.test`;

/** What a response looks like to the client, whether it came over app.inject or real HTTP. */
interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  rawPayload: Buffer;
}

/** A request over real HTTP to a server process (the compiled one), shaped as app.inject's. */
async function overHttp(
  baseUrl: string,
  options: InjectOptions,
  headers: Record<string, string>,
): Promise<Answer> {
  const res = await fetch(new URL(String(options.url), baseUrl), {
    method: options.method ?? "GET",
    headers,
    body: options.payload === undefined ? undefined : String(options.payload),
    redirect: "manual",
  });
  const raw = Buffer.from(await res.arrayBuffer());
  const answered: Answer["headers"] = {};
  res.headers.forEach((value, name) => {
    if (name !== "set-cookie") answered[name] = value;
  });
  const cookies = res.headers.getSetCookie();
  if (cookies.length > 0) answered["set-cookie"] = cookies;
  return { statusCode: res.status, headers: answered, body: raw.toString("utf8"), rawPayload: raw };
}

/**
 * A browser-like client over app.inject, or over real HTTP when given a server's base URL (the
 * compiled server in its own process): it keeps the session cookie it is given, sends the server's
 * Origin on writes as a browser would, and checks every response for leaked secrets.
 */
export class TestClient {
  cookie: string | null = null;
  user: { id: string; email: string; name: string } | null = null;
  sessionToken: string | null = null;

  constructor(readonly app: FastifyInstance | string) {}

  private get origin() {
    return typeof this.app === "string" ? new URL(this.app).origin : TEST_ORIGIN;
  }

  async request<T = any>(options: InjectOptions & { json?: unknown }): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...(options.headers as Record<string, string>) };
    if (this.cookie && headers.cookie === undefined) headers.cookie = this.cookie;
    if (options.method && options.method !== "GET" && headers.origin === undefined)
      headers.origin = this.origin;
    let payload = options.payload;
    if (options.json !== undefined) {
      payload = JSON.stringify(options.json);
      headers["content-type"] ??= "application/json";
    }
    for (const key of Object.keys(headers)) if (headers[key] === "") delete headers[key];
    const res: Answer =
      typeof this.app === "string"
        ? await overHttp(this.app, { ...options, payload }, headers)
        : await this.app.inject({ ...options, headers, payload });
    assertNoLeak(`${options.method ?? "GET"} ${options.url} response body`, res.body);
    assertNoLeak(`${options.method ?? "GET"} ${options.url} response headers`, JSON.stringify(res.headers));
    const setCookie = res.headers["set-cookie"];
    for (const c of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const [pair] = String(c).split(";");
      if (pair?.startsWith("session=")) this.cookie = pair.endsWith("=") ? null : pair;
    }
    let body: unknown = res.body;
    const type = String(res.headers["content-type"] ?? "");
    if (type.includes("json") && res.body) body = JSON.parse(res.body);
    return {
      status: res.statusCode,
      headers: res.headers,
      body: body as T,
      text: res.body,
      raw: res.rawPayload,
    };
  }

  /** Everything the user can read of their own data: compare two to prove nothing was written. */
  async snapshot() {
    return {
      dashboards: (await this.get("/api/dashboards")).body,
      widgets: (await this.get("/api/widgets")).body,
      settings: (await this.get("/api/settings")).body,
      notifications: (await this.get("/api/notifications")).body,
      accounts: (await this.get("/api/accounts")).body,
    };
  }

  get<T = any>(url: string, headers?: Record<string, string>) {
    return this.request<T>({ method: "GET", url, headers });
  }
  post<T = any>(url: string, json?: unknown, headers?: Record<string, string>) {
    return this.request<T>({ method: "POST", url, json, headers });
  }
  put<T = any>(url: string, json?: unknown, headers?: Record<string, string>) {
    return this.request<T>({ method: "PUT", url, json, headers });
  }
  delete<T = any>(url: string, headers?: Record<string, string>) {
    return this.request<T>({ method: "DELETE", url, headers });
  }

  async signUp(name = "Ada", email = uniqueEmail(name.toLowerCase()), password = `pw-${email}-Secret1`) {
    const res = await this.trySignUp(name, email, { password });
    if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${res.text}`);
    return { ...(res.body.user as { id: string; email: string; name: string }), password };
  }

  /** A new dashboard of the user's holding one widget of `widgetType`; answers both ids. */
  async addWidget(widgetType: string, config: unknown, boardName = "Board") {
    const dashboard = await this.post("/api/dashboards", { name: boardName });
    if (dashboard.status !== 201) throw new Error(`dashboard: ${dashboard.status} ${dashboard.text}`);
    const res = await this.post("/api/widgets", {
      dashboardId: dashboard.body.id,
      widgetType,
      height: 300,
      width: 300,
      positionX: 0,
      positionY: 0,
      config,
    });
    if (res.status !== 201) throw new Error(`widget: ${res.status} ${res.text}`);
    return { dashboardId: dashboard.body.id as string, widgetId: res.body.id as string };
  }

  /** A sign-up that may be refused (sign-up modes, invites): the answer as it came. */
  async trySignUp(
    name: string,
    email = uniqueEmail(name.toLowerCase()),
    options: { password?: string; inviteToken?: string; origin?: string; acceptLanguage?: string } = {},
  ) {
    const password = options.password ?? `pw-${email}-Secret1`;
    registerSecret(password);
    const res = await this.post(
      "/api/auth/sign-up/email",
      { name, email, password, ...(options.inviteToken ? { inviteToken: options.inviteToken } : {}) },
      {
        ...(options.origin ? { origin: options.origin } : {}),
        ...(options.acceptLanguage ? { "accept-language": options.acceptLanguage } : {}),
      },
    );
    if (res.status === 200) {
      this.user = res.body.user;
      this.sessionToken = res.body.token;
    }
    return res;
  }
}

/** Signs up a fresh user on the app and returns a client holding their session. */
export async function signedInClient(app: FastifyInstance | string, name = "Ada") {
  const client = new TestClient(app);
  await client.signUp(name);
  return client;
}
