import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "../../../../test/support/client.js";
import { upstreamConfig } from "../../../../test/support/config.js";
import { MODES, type ModeEnv, prepareMode } from "../../../../test/support/modes.js";
import { expectProblem } from "../../../../test/support/problems.js";
import { registerSecret } from "../../../../test/support/secrets.js";
import type { BuiltApp } from "../../../server/app.js";
import { type CustomApiFake, FAKE_STATS, startCustomApiFake } from "../fake.js";

/**
 * The Custom API widget through the API, as a browser uses it: an integration saved with
 * POST /api/integrations, a dashboard, a widget, and GET /api/widgets/data?id=. The service is
 * the fake on 127.0.0.1, which records what we send.
 */

const STATS_FIELDS = [
  { id: "cpu", label: "CPU", query: "cpu.total", format: "percent" },
  { id: "mem", label: "Memory", query: "memory.used", format: "bytes" },
  { id: "disk", label: "Disk", query: '"disk-usage"."/"', format: "number", unit: "of 1" },
  { id: "up", label: "Up", query: "healthy", format: "status" },
];
const SERVICES_LIST = {
  query: "services",
  columns: [
    { id: "name", label: "Name", query: "name", format: "text" },
    { id: "state", label: "State", query: "state", format: "status" },
  ],
};

for (const modeName of MODES) {
  describe(`Custom API widget (${modeName})`, { timeout: 120_000 }, () => {
    let mode: ModeEnv;
    let built: BuiltApp;
    let fake: CustomApiFake;
    let admin: TestClient;
    let member: TestClient;
    let other: TestClient;
    let instanceId: string;
    const time = { now: Date.parse("2026-11-28T10:00:00.000Z") };

    beforeAll(async () => {
      fake = await startCustomApiFake();
      registerSecret(fake.secret);
      mode = await prepareMode(modeName);
      built = await mode.start(
        {
          rateLimitEnabled: false,
          // `localhost` (the fake, by name) is open to plain addresses; 127.0.0.1 itself is not,
          // so a redirect from it to 127.0.0.1 shows the guard at work. Short deadline: the slow path.
          upstream: upstreamConfig({ allowPrivate: ["localhost"], timeoutMs: 1500 }),
        },
        { clock: () => time.now },
      );
      admin = new TestClient(built.app);
      await admin.signUp("Admin");
      member = new TestClient(built.app);
      await member.signUp("Member");
      other = new TestClient(built.app);
      await other.signUp("Other");
      const saved = await admin.post("/api/integrations", {
        kind: "custom",
        name: "Homelab",
        url: `${fake.url}/api`,
        owner: "instance",
        allowPrivate: true,
        secrets: { [fake.secretHeader]: fake.secret },
      });
      expect(saved.status, saved.text).toBe(201);
      instanceId = saved.body.id;
    });
    afterAll(async () => {
      await mode?.teardown();
      await fake?.close();
    });

    const widget = async (client: TestClient, config: object) =>
      (await client.addWidget("Custom API", config)).widgetId;
    const data = (client: TestClient, id: string) => client.get(`/api/widgets/data?id=${id}`);

    it("answers the picked values, with the secret sent as its header and never answered", async () => {
      const id = await widget(member, {
        integrationId: instanceId,
        path: "/stats",
        display: "table",
        fields: STATS_FIELDS,
        list: SERVICES_LIST,
      });
      const before = fake.requests.length;
      const res = await data(member, id);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toEqual({
        fields: [
          { id: "cpu", label: "CPU", value: 12.5, format: "percent", unit: null },
          { id: "mem", label: "Memory", value: 3_221_225_472, format: "bytes", unit: null },
          { id: "disk", label: "Disk", value: 0.61, format: "number", unit: "of 1" },
          { id: "up", label: "Up", value: true, format: "status", unit: null },
        ],
        rows: [
          { name: "web", state: "running" },
          { name: "db", state: "exited" },
          { name: "cache", state: "running" },
        ],
        rowsTotal: 3,
      });
      expect(res.body).toMatchObject({ fetchedAt: new Date(time.now).toISOString(), stale: false });
      const sent = fake.requests.slice(before);
      expect(sent.map((r) => r.path)).toEqual(["/api/stats"]);
      expect(sent[0]!.headers[fake.secretHeader.toLowerCase()]).toBe(fake.secret);
      // Only what the queries picked: not the rest of the body.
      expect(res.text).not.toContain("2.4.1");
      expect(res.text).not.toContain("nested");
    });

    it("asks the service again only when the widget's refresh has passed", async () => {
      const id = await widget(member, {
        integrationId: instanceId,
        path: "/stats?fresh=1",
        refreshSeconds: 30,
        fields: [{ id: "v", label: "Version", query: "version" }],
      });
      const asked = () => fake.requests.filter((r) => r.path === "/api/stats?fresh=1").length;
      expect((await data(member, id)).body.data.fields[0].value).toBe("2.4.1");
      expect((await data(member, id)).body.data.fields[0].value).toBe("2.4.1");
      expect(asked()).toBe(1);
      fake.stats = { ...FAKE_STATS(), version: "2.5.0" };
      time.now += 29_000;
      expect((await data(member, id)).body.data.fields[0].value).toBe("2.4.1");
      time.now += 2_000;
      expect((await data(member, id)).body.data.fields[0].value).toBe("2.5.0");
      expect(asked()).toBe(2);
      fake.stats = FAKE_STATS();
    });

    it("keeps nothing wrong as good: a failing service is an error until it answers again", async () => {
      const id = await widget(member, {
        integrationId: instanceId,
        path: "/stats?flaky=1",
        refreshSeconds: 10,
        fields: [{ id: "v", label: "Version", query: "version" }],
      });
      expect((await data(member, id)).status).toBe(200);
      fake.failing = true;
      try {
        time.now += 11_000;
        const failed = await data(member, id);
        expectProblem(failed, 502, "upstream_failed");
        expect(failed.body.detail).toContain("Homelab answered 503");
        // The failure is remembered for a while (the service is not hammered), never replaced by the old value.
        expectProblem(await data(member, id), 502, "upstream_failed");
      } finally {
        fake.failing = false;
      }
      time.now += 11_000;
      expect((await data(member, id)).body).toMatchObject({
        data: { fields: [{ value: "2.4.1" }] },
        stale: false,
      });
    });

    it("refuses a query that cannot run when the widget is saved, naming it", async () => {
      const board = await member.post("/api/dashboards", { name: "Bad queries" });
      const bad = await member.post("/api/widgets", {
        dashboardId: board.body.id,
        widgetType: "Custom API",
        height: 200,
        width: 200,
        positionX: 0,
        positionY: 0,
        config: { integrationId: instanceId, fields: [{ id: "a", label: "A", query: "cpu.[" }] },
      });
      expectProblem(bad, 400, "validation_failed");
      expect(bad.body.errors).toEqual([
        { path: "/config/fields/0/query", message: expect.stringContaining("is not a JMESPath expression") },
      ]);
      const good = { integrationId: instanceId, path: "/stats", fields: STATS_FIELDS };
      const id = await widget(member, good);
      const update = await member.put("/api/widgets", {
        id,
        config: {
          ...good,
          list: { query: "services", columns: [{ id: "x", label: "X", query: "nope(@)" }] },
        },
      });
      expectProblem(update, 400, "validation_failed");
      expect(update.body.errors).toEqual([
        { path: "/config/list/columns/0/query", message: "calls an unknown function: nope()" },
      ]);
    });

    it("says a query that fails at run time in its field, and still answers the others", async () => {
      const id = await widget(member, {
        integrationId: instanceId,
        path: "/stats",
        fields: [
          { id: "bad", label: "Bad", query: "abs(status)" },
          { id: "ok", label: "OK", query: "cpu.cores", format: "number" },
        ],
      });
      const res = await data(member, id);
      expect(res.status).toBe(200);
      expect(res.body.data.fields[0]).toMatchObject({ value: null, error: expect.stringContaining("abs()") });
      expect(res.body.data.fields[1]).toMatchObject({ value: 4 });
    });

    it("is 404 for another user's personal integration, and for a deleted one", async () => {
      const personal = await member.post("/api/integrations", {
        kind: "custom",
        name: "Mine",
        url: `${fake.url.replace("127.0.0.1", "localhost")}/api`,
        secrets: { [fake.secretHeader]: fake.secret },
      });
      expect(personal.status, personal.text).toBe(201);
      const config = { integrationId: personal.body.id, path: "/stats", fields: STATS_FIELDS };
      const mine = await widget(member, config);
      expect((await data(member, mine)).status).toBe(200);

      const theirs = await widget(other, config);
      const refused = await data(other, theirs);
      expectProblem(refused, 404, "not_found");
      expect(refused.body.detail).toBe("This integration is gone or not yours");

      expect((await member.delete(`/api/integrations/${personal.body.id}`)).status).toBe(204);
      const gone = await data(member, mine);
      expectProblem(gone, 404, "not_found");
      expect(gone.body.detail).toBe("This integration is gone or not yours");
    });

    it("says clearly when the service answers HTML, too much, too slowly or with a redirect", async () => {
      const at = async (path: string) =>
        data(member, await widget(member, { integrationId: instanceId, path, fields: STATS_FIELDS }));
      const html = await at("/page");
      expectProblem(html, 502, "upstream_failed");
      expect(html.body.detail).toBe("Homelab answered 200 but not with JSON (text/html)");

      const huge = await at("/huge");
      expectProblem(huge, 502, "upstream_failed");
      expect(huge.body.detail).toBe("Homelab sent an oversized body for the widget's data");

      const slow = await at("/slow");
      expectProblem(slow, 504, "upstream_timeout");
      expect(slow.body.detail).toBe("Homelab did not answer within 1.5 s for the widget's data");

      // The secret would travel with a followed redirect: an integration's are answered as errors.
      const moved = await at("/moved");
      expectProblem(moved, 502, "upstream_failed");
      expect(moved.body.detail).toBe(
        `Homelab redirects to ${fake.elsewhereUrl}/stats: save that address instead`,
      );
      expect(fake.requests.some((r) => r.path === "/stats")).toBe(false);
    });

    it("shows visitors of a public dashboard the values, never the typed address", async () => {
      const local = fake.url.replace("127.0.0.1", "localhost");
      const address = `${local}/public/stats?token=visible-to-nobody`;
      const { dashboardId, widgetId } = await member.addWidget(
        "Custom API",
        { url: address, fields: STATS_FIELDS },
        "Shown",
      );
      const published = await member.put("/api/dashboards", {
        id: dashboardId,
        name: "Shown",
        isPublic: true,
      });
      expect(published.status, published.text).toBe(200);
      const visitor = new TestClient(member.app);
      const page = await visitor.get(`/api/public/dashboards/${dashboardId}`);
      expect(page.status, page.text).toBe(200);
      expect(page.text).not.toContain("visible-to-nobody");
      const shown = await visitor.get(`/api/public/dashboards/${dashboardId}/widgets/${widgetId}/data`);
      expect(shown.status, shown.text).toBe(200);
      expect(shown.body.data.fields[0].value).toBe(12.5);
      expect(shown.text).not.toContain("visible-to-nobody");
    });

    it("reads a plain address through the address guard, without secrets", async () => {
      const local = fake.url.replace("127.0.0.1", "localhost");
      const before = fake.requests.length;
      const id = await widget(member, { url: `${local}/public/stats`, fields: STATS_FIELDS });
      const res = await data(member, id);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.fields[0].value).toBe(12.5);
      const sent = fake.requests.slice(before);
      expect(sent.map((r) => r.path)).toEqual(["/public/stats"]);
      expect(sent[0]!.headers[fake.secretHeader.toLowerCase()]).toBeUndefined();

      // A redirect is followed hop by hop, and this one leads to 127.0.0.1, which is not allowed.
      const moved = await data(
        member,
        await widget(member, { url: `${local}/public/moved`, fields: STATS_FIELDS }),
      );
      expectProblem(moved, 400, "address_not_allowed");
      // 127.0.0.1 by its address is refused too, before anything is sent.
      const direct = await data(
        member,
        await widget(member, { url: `${fake.url}/public/stats`, fields: STATS_FIELDS }),
      );
      expectProblem(direct, 400, "address_not_allowed");
      expect(
        (await data(member, await widget(member, { url: `${local}/public/page`, fields: STATS_FIELDS }))).body
          .detail,
      ).toBe(`${new URL(local).host} answered 200 but not with JSON (text/html)`);
    });

    if (modeName === "embedded")
      it("measures a widget against a 5 MiB answer, a 1 byte/s answer and a 3.5 MiB one it reads", async () => {
        const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
        const measure = async (label: string, path: string, list?: object) => {
          const id = await widget(member, { integrationId: instanceId, path, fields: STATS_FIELDS, list });
          const before = process.memoryUsage();
          const peak = { heapUsed: before.heapUsed, arrayBuffers: before.arrayBuffers, rss: before.rss };
          const sample = () => {
            const now = process.memoryUsage();
            for (const key of ["heapUsed", "arrayBuffers", "rss"] as const)
              peak[key] = Math.max(peak[key], now[key]);
          };
          const sampler = setInterval(sample, 2);
          const started = performance.now();
          const res = await data(member, id);
          const ms = performance.now() - started;
          clearInterval(sampler);
          sample();
          console.log(
            `[custom-api] ${label}: ${res.status} ${res.body.code ?? "ok"} in ${ms.toFixed(0)} ms; peak over before: heap +${mib(peak.heapUsed - before.heapUsed)}, buffers +${mib(peak.arrayBuffers - before.arrayBuffers)}, rss +${mib(peak.rss - before.rss)}; answer ${res.text.length} bytes`,
          );
          return { res, ms, heapPeak: peak.heapUsed - before.heapUsed };
        };
        const huge = await measure("5 MiB answer", "/huge?measure=1");
        expect(huge.res.status).toBe(502);
        // Refused at 4 MiB while streaming: never the whole body, never its parse.
        expect(huge.heapPeak).toBeLessThan(64 * 1024 * 1024);
        const slow = await measure("1 byte/s answer", "/slow?measure=1");
        expect(slow.res.status).toBe(504);
        expect(slow.ms).toBeGreaterThanOrEqual(1400);
        expect(slow.ms).toBeLessThan(5000);
        const big = await measure("3.5 MiB answer, 30,000 rows", "/big?measure=1", SERVICES_LIST);
        expect(big.res.status).toBe(200);
        expect(big.res.body.data.rows).toHaveLength(100);
        expect(big.res.body.data.rowsTotal).toBe(30_000);
        // What is answered (and cached) is the picked values, not the body.
        expect(big.res.text.length).toBeLessThan(16 * 1024);
      });
  });
}
