import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  kumaTime,
  startUptimeKumaFake,
  type UptimeKumaFake,
} from "../../src/integrations/uptimekuma/fake.js";
import type { BuiltApp } from "../../src/server/app.js";
import { TestClient } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";
import { expectProblem } from "../support/problems.js";
import { registerSecret } from "../support/secrets.js";

/**
 * The Uptime Kuma widget through the API: integrations saved by an admin, widgets on a member's
 * dashboard, GET /api/widgets/data?id=. Three fakes on 127.0.0.1 answer as Uptime Kuma 2.5
 * (`incidents`, uptime ratios in the metrics), 2.0 (`incident`) and 1.23 (`incident`, no
 * `monitor_id` label), each checking the API key on /metrics as Kuma does.
 */

const basicPassword = (header: string | string[] | undefined) =>
  Buffer.from(String(header).replace(/^Basic /, ""), "base64")
    .toString("utf8")
    .replace(/^[^:]*:/, "");

for (const modeName of MODES) {
  describe(`Uptime Kuma widget (${modeName})`, { timeout: 120_000 }, () => {
    let mode: ModeEnv;
    let built: BuiltApp;
    let kuma: UptimeKumaFake;
    let kuma20: UptimeKumaFake;
    let kuma1: UptimeKumaFake;
    let open: UptimeKumaFake;
    let admin: TestClient;
    let member: TestClient;
    const ids: Record<string, string> = {};
    const time = { now: Date.parse("2026-11-28T10:00:00.000Z") };

    beforeAll(async () => {
      const now = () => time.now;
      [kuma, kuma20, kuma1, open] = await Promise.all([
        startUptimeKumaFake({ version: "2.5", now }),
        startUptimeKumaFake({ version: "2.0", now }),
        startUptimeKumaFake({ version: "1.23", now }),
        startUptimeKumaFake({ version: "2.5", apiKey: null, now }),
      ]);
      for (const fake of [kuma, kuma20, kuma1]) registerSecret(fake.apiKey!);
      mode = await prepareMode(modeName);
      built = await mode.start({ rateLimitEnabled: false }, { clock: now });
      admin = new TestClient(built.app);
      await admin.signUp("Admin");
      member = new TestClient(built.app);
      await member.signUp("Member");
      const save = async (name: string, fake: UptimeKumaFake, apiKey?: string) => {
        const res = await admin.post("/api/integrations", {
          kind: "uptimekuma",
          name,
          url: fake.url,
          owner: "instance",
          allowPrivate: true,
          ...(apiKey ? { secrets: { apiKey } } : {}),
        });
        expect(res.status, res.text).toBe(201);
        ids[name] = res.body.id;
      };
      await save("Kuma", kuma, kuma.apiKey!);
      await save("Kuma 2.0", kuma20, kuma20.apiKey!);
      await save("Kuma 1", kuma1);
      await save("Kuma without key", kuma);
      await save("Kuma wrong key", kuma, "uk9_not-the-key");
      await save("Kuma open", open);
    });
    afterAll(async () => {
      await mode?.teardown();
      await Promise.all([kuma, kuma20, kuma1, open].map((fake) => fake?.close()));
    });

    const widget = async (config: object) => (await member.addWidget("Uptime Kuma", config)).widgetId;
    const data = async (config: object) => member.get(`/api/widgets/data?id=${await widget(config)}`);
    const beat = (ago: number) => new Date(time.now - ago).toISOString();

    it("shows a status page's monitors by group with their last beat, response time and 24 h uptime (2.1+: incidents)", async () => {
      const before = kuma.requests.length;
      const res = await data({ integrationId: ids.Kuma, slug: "home" });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toEqual({
        source: "status-page",
        title: "Home services",
        summary: { up: 2, down: 1, pending: 1, maintenance: 1, unknown: 0 },
        monitors: [
          {
            id: "1",
            name: "Jellyfin",
            group: "Media",
            type: "http",
            status: "up",
            responseTimeMs: 42,
            uptime24h: 0.9987,
            lastBeatAt: beat(60_000),
          },
          {
            id: "2",
            name: "Home Assistant",
            group: "House",
            type: "http",
            status: "up",
            responseTimeMs: 18,
            uptime24h: 1,
            lastBeatAt: beat(60_000),
          },
          expect.objectContaining({
            id: "3",
            name: "NAS",
            status: "down",
            responseTimeMs: null,
            uptime24h: 0.875,
          }),
          expect.objectContaining({ id: "4", name: "Nightly backup", status: "pending" }),
          expect.objectContaining({ id: "5", name: "Printer", status: "maintenance", responseTimeMs: 5 }),
        ],
        monitorsTotal: 5,
        incidents: [
          {
            title: "NAS disk replaced",
            content: "The array is rebuilding.",
            style: "warning",
            updatedAt: beat(600_000),
          },
        ],
        maintenance: [{ title: "Printer firmware" }],
      });
      // Both public endpoints, nothing else; Kuma's time without a zone was read as UTC.
      expect(
        kuma.requests
          .slice(before)
          .map((r) => r.path)
          .sort(),
      ).toEqual(["/api/status-page/heartbeat/home", "/api/status-page/home"]);
      expect(kumaTime(time.now - 60_000)).toBe("2026-11-28 09:59:00.000");
    });

    it("reads the single `incident` of Uptime Kuma 1.x and 2.0 the same way", async () => {
      for (const name of ["Kuma 2.0", "Kuma 1"]) {
        const res = await data({ integrationId: ids[name], slug: "home" });
        expect(res.status, res.text).toBe(200);
        expect(res.body.data.incidents).toEqual([
          expect.objectContaining({ title: "NAS disk replaced", style: "warning" }),
        ]);
        expect(res.body.data.summary).toEqual({ up: 2, down: 1, pending: 1, maintenance: 1, unknown: 0 });
      }
      kuma20.pages[0]!.incident = null;
      kuma20.pages[0]!.slug = "calm";
      const calm = await data({ integrationId: ids["Kuma 2.0"], slug: "calm" });
      expect(calm.body.data.incidents).toEqual([]);
    });

    it("takes the slug as typed, in any case, and says when there is no such page", async () => {
      const board = await member.post("/api/dashboards", { name: "Slugs" });
      const created = await member.post("/api/widgets", {
        dashboardId: board.body.id,
        widgetType: "Uptime Kuma",
        height: 200,
        width: 200,
        positionX: 0,
        positionY: 0,
        config: { integrationId: ids.Kuma, slug: " Home " },
      });
      expect(created.status, created.text).toBe(201);
      const read = await member.get(`/api/widgets/data?id=${created.body.id}`);
      expect(read.body.data.title).toBe("Home services");

      const missing = await data({ integrationId: ids.Kuma, slug: "nowhere" });
      expectProblem(missing, 404, "not_found");
      expect(missing.body.detail).toBe(
        'Kuma has no status page "nowhere" (the slug is the last part of its address, /status/nowhere)',
      );
      const bad = await member.post("/api/widgets", {
        dashboardId: board.body.id,
        widgetType: "Uptime Kuma",
        height: 200,
        width: 200,
        positionX: 0,
        positionY: 0,
        config: { integrationId: ids.Kuma, slug: "../metrics" },
      });
      expectProblem(bad, 400, "validation_failed");
      expect(bad.body.errors).toEqual([{ path: "/config/slug", message: expect.stringContaining("slug") }]);
    });

    it("lists every monitor from the metrics with the API key as Basic auth's password", async () => {
      const before = kuma.requests.length;
      const res = await data({ integrationId: ids.Kuma });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toMatchObject({
        source: "metrics",
        title: null,
        // The monitor without a heartbeat yet has no series in Kuma's metrics.
        summary: { up: 2, down: 1, pending: 1, maintenance: 1, unknown: 0 },
        monitorsTotal: 5,
        incidents: [],
      });
      expect(res.body.data.monitors[0]).toEqual({
        id: "1",
        name: "Jellyfin",
        group: null,
        type: "http",
        status: "up",
        responseTimeMs: 42,
        uptime24h: 0.9987,
        lastBeatAt: null,
      });
      expect(res.body.data.monitors[2]).toMatchObject({ name: "NAS", status: "down", responseTimeMs: null });
      const sent = kuma.requests.slice(before);
      expect(sent.map((r) => r.path)).toEqual(["/metrics"]);
      expect(basicPassword(sent[0]!.headers.authorization)).toBe(kuma.apiKey);

      // 2.0 has ids but no uptime ratios; 1.x neither: its monitors are known by name.
      const v2 = await data({ integrationId: ids["Kuma 2.0"] });
      expect(v2.body.data.monitors[0]).toMatchObject({ id: "1", uptime24h: null, responseTimeMs: 42 });
      // A Kuma with auth disabled answers without a key.
      const unguarded = await data({ integrationId: ids["Kuma open"] });
      expect(unguarded.status, unguarded.text).toBe(200);
      expect(unguarded.body.data.summary.up).toBe(2);
    });

    it("says clearly when the metrics want a key, or refuse the one saved", async () => {
      const none = await data({ integrationId: ids["Kuma without key"] });
      expectProblem(none, 502, "upstream_failed");
      expect(none.body.detail).toBe(
        "Kuma without key wants an API key for its monitors (401): add one to the integration (Uptime Kuma: Settings, API Keys), or name a status page in the widget",
      );
      const wrong = await data({ integrationId: ids["Kuma wrong key"] });
      expectProblem(wrong, 502, "upstream_failed");
      expect(wrong.body.detail).toBe(
        "Kuma wrong key refused the API key (401): make a new one in Uptime Kuma (Settings, API Keys) and save it in the integration",
      );
      // Status pages need no key.
      expect((await data({ integrationId: ids["Kuma without key"], slug: "home" })).status).toBe(200);
      // A key saved now is used at once.
      const fixed = await admin.put(`/api/integrations/${ids["Kuma wrong key"]}`, {
        secrets: { apiKey: kuma.apiKey },
      });
      expect(fixed.status, fixed.text).toBe(200);
      expect((await data({ integrationId: ids["Kuma wrong key"] })).status).toBe(200);
    });

    it("asks Uptime Kuma at most every 30 s, however many widgets and readers", async () => {
      const asked = () => kuma.count("/api/status-page/heartbeat/home");
      const a = await widget({ integrationId: ids.Kuma, slug: "home" });
      const b = await widget({ integrationId: ids.Kuma, slug: "home" });
      time.now += 31_000;
      const start = asked();
      for (const id of [a, b, a, b])
        expect((await member.get(`/api/widgets/data?id=${id}`)).status).toBe(200);
      expect(asked()).toBe(start + 1);
      kuma.monitors[2]!.status = 1;
      time.now += 29_000;
      expect((await member.get(`/api/widgets/data?id=${a}`)).body.data.summary.down).toBe(1);
      time.now += 2_000;
      expect((await member.get(`/api/widgets/data?id=${a}`)).body.data.summary.down).toBe(0);
      expect(asked()).toBe(start + 2);
      kuma.monitors[2]!.status = 0;
    });

    it("tests a connection by its metrics, counting the monitors Kuma reports", async () => {
      const check = async (name: string) =>
        (await admin.post("/api/integrations/test", { id: ids[name] })).body as {
          ok: boolean;
          detail: string;
        };
      expect(await check("Kuma")).toMatchObject({ ok: true, detail: "Uptime Kuma with 5 monitors" });
      expect(await check("Kuma 1")).toMatchObject({
        ok: false,
        detail:
          "Uptime Kuma answered 401: its metrics need an API key (Settings, API Keys); status pages work without one",
      });
      expect(await check("Kuma open")).toMatchObject({ ok: true, detail: "Uptime Kuma with 5 monitors" });
    });

    it("is 404 for an integration of another kind, and asks for nothing without one", async () => {
      const ha = await admin.post("/api/integrations", {
        kind: "homeassistant",
        name: "HA",
        url: kuma.url,
        owner: "instance",
        allowPrivate: true,
        secrets: { token: "some-long-lived-token" },
      });
      const wrongKind = await data({ integrationId: ha.body.id });
      expectProblem(wrongKind, 404, "not_found");
      expect(wrongKind.body.detail).toBe("This Uptime Kuma integration is gone or not yours");
      expectProblem(await data({ slug: "home" }), 404, "not_found");
    });
  });
}
