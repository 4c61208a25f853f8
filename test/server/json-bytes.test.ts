import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { JsonBytes } from "../../src/server/http/json-bytes.js";
import { signedInClient, type TestClient } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";

describe("large cached answers sent as bytes encoded once", () => {
  it("encodes a large answer once and leaves a small one as text", () => {
    const bytes = new JsonBytes(1024 * 1024);
    const small = JSON.stringify({ name: "small" });
    expect(bytes.of(small)).toBe(small);
    const large = JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ i, text: "Grüße 🚀" })));
    const first = bytes.of(large);
    expect(Buffer.isBuffer(first)).toBe(true);
    expect((first as Buffer).equals(Buffer.from(large, "utf8"))).toBe(true);
    expect(bytes.of(large)).toBe(first);
  });
});

describe.each(MODES)("a large widget list over HTTP (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let user: TestClient;
  let dashboardId: string;

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    built = await mode.start();
    user = await signedInClient(built.app, "Large");
    dashboardId = (await user.post("/api/dashboards", { name: "Große Übersicht 🚀" })).body.id;
    for (let i = 0; i < 40; i++) {
      const res = await user.post("/api/widgets", {
        dashboardId,
        widgetType: "Todo",
        height: 100,
        width: 100,
        positionX: i,
        positionY: 0,
        config: {
          todos: Array.from({ length: 4 }, (_, t) => ({
            id: `t${i}-${t}`,
            text: `Grüße ${i}/${t} 🚀 ${"x".repeat(40)}`,
            done: false,
            createdAt: new Date(0).toISOString(),
          })),
        },
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(() => mode.teardown());

  it("answers the same UTF-8 bytes every time, with their length", async () => {
    const answers = [];
    for (let i = 0; i < 3; i++) {
      const res = await user.get(`/api/widgets?dashboardId=${dashboardId}`);
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(Number(res.headers["content-length"])).toBe(res.raw.length);
      answers.push(res.raw);
    }
    // Large enough to be sent as bytes, and the same bytes from the cache as from the database.
    expect(answers[0]!.length).toBeGreaterThan(16 * 1024);
    expect(answers[1]!.equals(answers[0]!)).toBe(true);
    expect(answers[2]!.equals(answers[0]!)).toBe(true);
    const widgets = JSON.parse(answers[0]!.toString("utf8"));
    expect(widgets).toHaveLength(40);
    expect(widgets[7].config.todos[3].text).toBe(`Grüße 7/3 🚀 ${"x".repeat(40)}`);
  });
});
