import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { signedInClient, type TestClient, uniqueEmail } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";

/**
 * Input that used to reach a 500 (issue 10): NUL and lone surrogates in any string of a body or
 * query, bodies nested thousands of levels deep (our routes and better-auth's), `null` as
 * settings config, and URLs that are not valid percent-encoding. Each is decided once, at the
 * validation layer, for every route.
 */
describe.each(MODES)("hostile input (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let user: TestClient;
  let dashboardId: string;
  let widgetId: string;
  let settingsId: string;

  const snapshot = () => user.snapshot();

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    built = await mode.start({ rateLimitEnabled: false });
    user = await signedInClient(built.app, "Hostile");
    dashboardId = (await user.post("/api/dashboards", { name: "Target" })).body.id;
    widgetId = (
      await user.post("/api/widgets", {
        dashboardId,
        widgetType: "Kanban",
        height: 100,
        width: 100,
        positionX: 0,
        positionY: 0,
        config: { columns: [] },
      })
    ).body.id;
    settingsId = (await user.get("/api/settings")).body[0].id;
  });
  afterAll(() => mode.teardown());

  /** Sends raw JSON text, so lone surrogates survive exactly as a hostile client writes them. */
  const raw = (method: "POST" | "PUT", url: string, payload: string, client = user) =>
    client.request({ method, url, payload, headers: { "content-type": "application/json" } });

  const expectRefused = (res: { status: number; headers: any; body: any }, label: string, path?: string) => {
    expect(res.status, label).toBe(400);
    expect(res.headers["content-type"], label).toMatch(/application\/problem\+json/);
    expect(res.body.code, label).toBe("validation_failed");
    if (path)
      expect(
        res.body.errors.map((e: { path: string }) => e.path),
        label,
      ).toContain(path);
  };

  it("refuses NUL and lone surrogates in every stored string with 400 naming the JSON path", async () => {
    const before = await snapshot();
    const cases: [method: "POST" | "PUT", url: string, body: string, path: string][] = [
      ["POST", "/api/dashboards", `{"name":"a\\u0000b"}`, "/name"],
      ["POST", "/api/dashboards", `{"name":"a\\ud800b"}`, "/name"],
      ["POST", "/api/dashboards", `{"name":"\\udfff"}`, "/name"],
      ["PUT", "/api/dashboards", `{"id":"${dashboardId}","name":"x\\u0000"}`, "/name"],
      ["POST", "/api/notifications", `{"type":"message","message":"hi\\u0000"}`, "/message"],
      ["POST", "/api/notifications", `{"type":"message","message":"\\ud83d"}`, "/message"],
      [
        "PUT",
        "/api/widgets",
        `{"id":"${widgetId}","config":{"columns":[{"id":"c","title":"x\\u0000","cards":[]}]}}`,
        "/config/columns/0/title",
      ],
      [
        "PUT",
        "/api/widgets",
        `{"id":"${widgetId}","config":{"columns":[{"id":"c","title":"\\ud800","cards":[]}]}}`,
        "/config/columns/0/title",
      ],
      [
        "POST",
        "/api/widgets",
        `{"dashboardId":"${dashboardId}","widgetType":"Clock","height":1,"width":1,"positionX":0,"positionY":0,"config":{"timezone":"\\u0000"}}`,
        "/config/timezone",
      ],
      ["PUT", "/api/settings", `{"id":"${settingsId}","config":{"theme":"\\u0000"}}`, "/config/theme"],
      ["PUT", "/api/settings", `{"id":"${settingsId}","config":["ok","\\ud800"]}`, "/config/1"],
      ["PUT", "/api/settings", `{"id":"${settingsId}","config":"\\u0000"}`, "/config"],
      ["PUT", "/api/settings", `{"id":"${settingsId}","config":{"a\\u0000b":1}}`, "/config/a\\u0000b"],
      [
        "PUT",
        "/api/settings",
        `{"id":"${settingsId}","config":{"a/b~":{"\\ud800":1}}}`,
        "/config/a~1b~0/\ufffd",
      ],
      ["PUT", "/api/accounts", `{"provider":"suite","refreshToken":"t\\u0000"}`, "/refreshToken"],
    ];
    for (const [method, url, body, path] of cases) {
      expectRefused(await raw(method, url, body), `${method} ${url} ${body}`, path);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("refuses NUL and lone surrogates in sign-up and sign-in before better-auth sees them", async () => {
    const anonymous = signedOut();
    const email = uniqueEmail("nul");
    const cases: [string, string, string][] = [
      [
        "/api/auth/sign-up/email",
        `{"name":"N\\u0000","email":"${email}","password":"long-enough-1"}`,
        "/name",
      ],
      [
        "/api/auth/sign-up/email",
        `{"name":"N","email":"${email}","password":"pw\\ud800-long-enough"}`,
        "/password",
      ],
      ["/api/auth/sign-in/email", `{"email":"a\\u0000@example.test","password":"whatever-it-is"}`, "/email"],
    ];
    for (const [url, body, path] of cases) expectRefused(await raw("POST", url, body, anonymous), url, path);
    // Nothing was created: the same email signs up fine afterwards.
    const ok = await anonymous.post("/api/auth/sign-up/email", {
      name: "N",
      email,
      password: "long-enough-1",
    });
    expect(ok.status).toBe(200);
  });

  it("refuses NUL and lone surrogates in query strings and path parameters", async () => {
    const cases: [string, string][] = [
      ["/api/weather/search?q=a%00b", "/q"],
      ["/api/providers/notes/pages?q=%00", "/q"],
      ["/api/providers/suite/mail/messages/ab%00cd", "/id"],
      ["/api/exchange/prices?pairs=BTC-USD%00", "/pairs"],
      ["/api/dashboards?id=%00", "/id"],
      ["/api/widgets?x%00y=1", "/x\\u0000y"],
    ];
    for (const [url, path] of cases) {
      const res = await user.get(url);
      // A NUL that a stricter schema refuses first is still a 400 validation_failed on that field.
      expect(res.status, url).toBe(400);
      expect(res.body.code, url).toBe("validation_failed");
      if (!url.startsWith("/api/dashboards") && !url.startsWith("/api/exchange"))
        expect(
          res.body.errors.map((e: { path: string }) => e.path),
          url,
        ).toContain(path);
    }
  });

  it("caps nesting depth before anything walks the body, on every route including /api/auth/*", async () => {
    const before = await snapshot();
    const anonymous = signedOut();
    for (const depth of [5_000, 10_000]) {
      const arrays = `${"[".repeat(depth)}${"]".repeat(depth)}`;
      const objects = `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
      const targets: [
        method: "POST" | "PUT",
        url: string,
        body: (deep: string) => string,
        client: TestClient,
      ][] = [
        ["POST", "/api/dashboards", (d) => `{"name":"x","extra":${d}}`, user],
        ["PUT", "/api/dashboards", (d) => `{"id":"${dashboardId}","name":"x","extra":${d}}`, user],
        ["PUT", "/api/widgets", (d) => `{"id":"${widgetId}","config":{"deep":${d}}}`, user],
        [
          "POST",
          "/api/widgets",
          (d) =>
            `{"dashboardId":"${dashboardId}","widgetType":"Clock","height":1,"width":1,"positionX":0,"positionY":0,"config":{"x":${d}}}`,
          user,
        ],
        ["PUT", "/api/settings", (d) => `{"id":"${settingsId}","config":${d}}`, user],
        ["POST", "/api/notifications", (d) => `{"type":"message","message":"x","extra":${d}}`, user],
        ["PUT", "/api/accounts", (d) => `{"provider":"suite","refreshToken":"t","extra":${d}}`, user],
        [
          "POST",
          "/api/auth/sign-up/email",
          (d) => `{"name":"Deep","email":"${uniqueEmail("deep")}","password":"long-enough-1","image":${d}}`,
          anonymous,
        ],
        ["POST", "/api/auth/sign-in/email", (d) => `{"email":${d},"password":"whatever-it-is"}`, anonymous],
        ["POST", "/api/auth/sign-out", (d) => d, user],
      ];
      for (const [method, url, body, client] of targets) {
        for (const deep of [arrays, objects]) {
          const res = await raw(method, url, body(deep), client);
          expectRefused(res, `${method} ${url} depth ${depth}`, "/");
          expect(res.body.detail).toMatch(/deeper than \d+ levels/);
        }
      }
    }
    expect(await snapshot()).toEqual(before);
    // Reasonable nesting is fine.
    const nested = JSON.parse(`${'{"a":'.repeat(30)}1${"}".repeat(30)}`);
    const ok = await user.put("/api/widgets", { id: widgetId, config: { nested } });
    expect(ok.status).toBe(200);
    expect(ok.body.config.nested).toEqual(nested);
  });

  it("stores any JSON value as settings config, null included", async () => {
    for (const config of [null, 0, "text", [1, { a: null }], true, { theme: "dark" }]) {
      const put = await user.put("/api/settings", { id: settingsId, config });
      expect(put.status, JSON.stringify(config)).toBe(200);
      expect(put.body.config).toEqual(config);
      expect((await user.get("/api/settings")).body[0].config).toEqual(config);
    }
  });

  it("answers URLs that are not valid percent-encoding with problem+json", async () => {
    for (const url of ["/api/%ff", "/api/%", "/api/dashboards/%E0%A4%A", "/%c0%af"]) {
      const res = await user.get(url);
      expect(res.status, url).toBe(400);
      expect(res.headers["content-type"], url).toMatch(/application\/problem\+json/);
      expect(res.body.code, url).toBe("validation_failed");
      expect(res.headers["x-request-id"], url).toBeDefined();
    }
  });

  function signedOut() {
    return new (user.constructor as typeof TestClient)(built.app);
  }
});
