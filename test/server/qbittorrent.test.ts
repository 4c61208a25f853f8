import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type QbittorrentFake, startQbittorrentFake } from "../../src/integrations/qbittorrent/fake.js";
import type { BuiltApp } from "../../src/server/app.js";
import { TestClient } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";
import { expectProblem } from "../support/problems.js";
import { registerSecret } from "../support/secrets.js";

/**
 * The qBittorrent widget through the API, as a browser uses it: an admin saves the integration
 * with the WebUI's user name and password, people put the widget on dashboards and read it with
 * GET /api/widgets/data?id=. qBittorrent is the fake on 127.0.0.1 (5.1.2, Web API 2.11.4; one
 * test 5.2.3), which answers 403 without a session, `Fails.` to a wrong password, bans the address
 * after five of them, forgets a session unused for an hour and refuses a foreign Origin or Referer.
 */

const HOUR = 3_600_000;

for (const modeName of MODES) {
  describe(`qBittorrent widget (${modeName})`, { timeout: 120_000 }, () => {
    let mode: ModeEnv;
    let built: BuiltApp;
    let qb: QbittorrentFake;
    let admin: TestClient;
    let member: TestClient;
    let other: TestClient;
    let box: string;
    const time = { now: Date.parse("2026-11-28T10:00:00.000Z") };

    beforeAll(async () => {
      qb = await startQbittorrentFake({ now: () => time.now });
      registerSecret(qb.password);
      mode = await prepareMode(modeName);
      built = await mode.start({ rateLimitEnabled: false }, { clock: () => time.now });
      admin = new TestClient(built.app);
      await admin.signUp("Admin");
      member = new TestClient(built.app);
      await member.signUp("Member");
      other = new TestClient(built.app);
      await other.signUp("Other");
      box = await save("Seedbox", { username: qb.username, password: qb.password });
    });
    afterAll(async () => {
      await mode?.teardown();
      await qb?.close();
    });

    async function save(name: string, secrets: Record<string, string>, url = qb.url) {
      const res = await admin.post("/api/integrations", {
        kind: "qbittorrent",
        name,
        url,
        owner: "instance",
        allowPrivate: true,
        secrets,
      });
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    }
    const widget = (client: TestClient, config: object) => client.addWidget("qBittorrent", config);
    const data = (client: TestClient, id: string) => client.get(`/api/widgets/data?id=${id}`);

    it("answers speeds, counts and the active torrents, downloads first, signed in once with the session cookie", async () => {
      const { widgetId } = await widget(member, { integrationId: box, torrentsShown: 3 });
      const before = qb.requests.length;
      const res = await data(member, widgetId);
      expect(res.status, res.text).toBe(200);
      const MiB = 1024 * 1024;
      expect(res.body.data.transfer).toEqual({
        downloadSpeed: Math.round(5.8 * MiB),
        uploadSpeed: Math.round(1.3 * MiB),
        downloaded: Math.round(12.4 * 1024 * MiB),
        uploaded: Math.round(3.1 * 1024 * MiB),
        downloadLimit: null,
        uploadLimit: 2 * MiB,
        connection: "connected",
      });
      // Active: moving data now; the stalled and the stopped torrent are not.
      expect(res.body.data.counts).toEqual({ active: 4, downloading: 2, seeding: 2 });
      expect(res.body.data.countsAtLeast).toBe(false);
      expect(res.body.data.torrents).toEqual([
        {
          hash: "01".repeat(20),
          name: "debian-13.2.0-amd64-netinst.iso",
          progress: 0.42,
          downloadSpeed: Math.round(4.2 * MiB),
          uploadSpeed: 310 * 1024,
          eta: 105,
          size: 754 * MiB,
          state: "downloading",
          group: "downloading",
        },
        expect.objectContaining({ name: "ubuntu-26.04-desktop-amd64.iso", eta: 520, group: "downloading" }),
        // Seeding: no ETA (qBittorrent's 8640000 means none).
        expect.objectContaining({
          name: "Big.Buck.Bunny.2008.2160p.60fps",
          eta: null,
          state: "uploading",
          group: "seeding",
        }),
      ]);

      const sent = qb.requests.slice(before);
      const login = sent.find((r) => r.path === "/api/v2/auth/login")!;
      expect(login.method).toBe("POST");
      expect(login.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/);
      expect(Object.fromEntries(new URLSearchParams(login.body))).toEqual({
        username: qb.username,
        password: qb.password,
      });
      expect(qb.logins).toBe(1);
      const calls = sent.filter((r) => r.path !== "/api/v2/auth/login");
      expect(calls.map((r) => r.path).sort()).toEqual(["/api/v2/torrents/info", "/api/v2/transfer/info"]);
      for (const call of calls) expect(call.headers.cookie).toMatch(/^SID=[\w-]+$/);
      const list = calls.find((r) => r.path === "/api/v2/torrents/info")!;
      expect(Object.fromEntries(list.query)).toEqual({
        filter: "active",
        sort: "dlspeed",
        reverse: "true",
        limit: "500",
      });
      // qBittorrent's CSRF check passes requests without Origin and Referer: none are sent.
      for (const request of sent) {
        expect(request.headers.origin).toBeUndefined();
        expect(request.headers.referer).toBeUndefined();
      }
      expect(res.text).not.toContain(qb.password);
    });

    it("keeps one session for every widget, and signs in again once when qBittorrent forgot it", async () => {
      const a = await widget(member, { integrationId: box });
      const b = await widget(other, { integrationId: box, torrentsShown: 1 });
      const logins = qb.logins;
      time.now += 10_000;
      expect((await data(member, a.widgetId)).body.data.torrents).toHaveLength(4);
      expect((await data(other, b.widgetId)).body.data.torrents).toHaveLength(1);
      // Both widgets share one answer for 5 s and one session for as long as it lives.
      expect(qb.count("/api/v2/transfer/info")).toBeGreaterThan(0);
      const asked = qb.count("/api/v2/transfer/info");
      time.now += 4_000;
      await data(member, a.widgetId);
      expect(qb.count("/api/v2/transfer/info")).toBe(asked);
      time.now += 2_000;
      await data(member, a.widgetId);
      expect(qb.count("/api/v2/transfer/info")).toBe(asked + 1);
      expect(qb.logins).toBe(logins);

      // An hour unused: qBittorrent answers 403; one new sign-in, the call asked again.
      time.now += HOUR + 60_000;
      const refused = qb.requests.length;
      const after = await data(member, a.widgetId);
      expect(after.status, after.text).toBe(200);
      expect(qb.logins).toBe(logins + 1);
      const statuses = qb.requests.slice(refused).map((r) => r.path);
      expect(statuses.filter((p) => p === "/api/v2/auth/login")).toHaveLength(1);

      // A restart of qBittorrent forgets every session: the same again.
      qb.endSessions();
      time.now += 6_000;
      expect((await data(member, a.widgetId)).status).toBe(200);
      expect(qb.logins).toBe(logins + 2);
    });

    it("stops signing in after qBittorrent refuses the password, so it never bans the server", async () => {
      const wrong = await save("Wrong password", { username: qb.username, password: "not-the-password" });
      const { widgetId } = await widget(member, { integrationId: wrong });
      const failed = qb.failedLogins;
      const first = await data(member, widgetId);
      expectProblem(first, 502, "upstream_failed");
      expect(first.body.detail).toContain("qBittorrent refused the user name or password");
      expect(qb.failedLogins - failed).toBe(1);
      for (let i = 0; i < 8; i++) {
        time.now += 60_000;
        expectProblem(await data(member, widgetId), 502, "upstream_failed");
      }
      expect(qb.failedLogins - failed).toBe(1);
      // An hour on, the credentials are tried once more (someone may have changed them in qBittorrent).
      time.now += 53 * 60_000;
      await data(member, widgetId);
      expect(qb.failedLogins - failed).toBe(2);
      expect(qb.banned()).toBe(false);

      // Corrected credentials are tried at once.
      const fixed = await admin.put(`/api/integrations/${wrong}`, { secrets: { password: qb.password } });
      expect(fixed.status, fixed.text).toBe(200);
      expect((await data(member, widgetId)).status).toBe(200);
      expect(qb.banned()).toBe(false);
    });

    it("says when qBittorrent has banned the server's address, and waits", async () => {
      const strict = await startQbittorrentFake({ banAfter: 1, now: () => time.now });
      registerSecret(strict.password);
      try {
        const id = await save("Strict", { username: strict.username, password: "wrong" }, strict.url);
        const { widgetId } = await widget(member, { integrationId: id });
        expect((await data(member, widgetId)).body.detail).toContain("refused the user name or password");
        expect(strict.banned()).toBe(true);
        // New credentials are tried at once; qBittorrent still bans the address.
        const changed = await admin.put(`/api/integrations/${id}`, { secrets: { password: "still wrong" } });
        expect(changed.status, changed.text).toBe(200);
        const res = await data(member, widgetId);
        expectProblem(res, 502, "upstream_failed");
        expect(res.body.detail).toContain("qBittorrent has banned this server's address");
        const signIns = () => strict.requests.filter((r) => r.path === "/api/v2/auth/login").length;
        const tried = signIns();
        time.now += 30 * 60_000;
        expectProblem(await data(member, widgetId), 502, "upstream_failed");
        expect(signIns()).toBe(tried);
      } finally {
        await strict.close();
      }
    });

    it("tests the saved connection by signing in and naming the version", async () => {
      const check = await admin.post("/api/integrations/test", { id: box });
      expect(check.body).toMatchObject({ ok: true, detail: "qBittorrent v5.1.2" });
      const unsaved = await admin.post("/api/integrations/test", {
        kind: "qbittorrent",
        url: qb.url,
        allowPrivate: true,
        secrets: { username: qb.username, password: "nope-nope" },
      });
      expect(unsaved.body).toMatchObject({ ok: false });
      expect(unsaved.body.detail).toContain("qBittorrent refused the user name or password");
    });

    it("reads qBittorrent 5.2: the QBT_SID_<port> cookie, or an API key without signing in", async () => {
      const next = await startQbittorrentFake({ version: "5.2.3", now: () => time.now });
      registerSecret(next.password);
      registerSecret(next.apiKey);
      try {
        const byPassword = await save("5.2", { username: next.username, password: next.password }, next.url);
        const one = await widget(member, { integrationId: byPassword });
        expect((await data(member, one.widgetId)).status).toBe(200);
        const port = new URL(next.url).port;
        const cookies = next.requests
          .filter((r) => r.path === "/api/v2/transfer/info")
          .map((r) => r.headers.cookie);
        expect(cookies).toEqual([expect.stringMatching(new RegExp(`^QBT_SID_${port}=`))]);

        const byKey = await save("5.2 key", { apiKey: next.apiKey }, next.url);
        const two = await widget(member, { integrationId: byKey });
        const logins = next.logins;
        const before = next.requests.length;
        expect((await data(member, two.widgetId)).status).toBe(200);
        expect(next.logins).toBe(logins);
        const sent = next.requests.slice(before);
        expect(sent.every((r) => r.headers.authorization === `Bearer ${next.apiKey}`)).toBe(true);
        expect(sent.some((r) => r.path === "/api/v2/auth/login")).toBe(false);

        // 5.2 answers a wrong password 401: refused all the same.
        const wrong = await save("5.2 wrong", { username: next.username, password: "wrong" }, next.url);
        const three = await widget(member, { integrationId: wrong });
        const refused = await data(member, three.widgetId);
        expect(refused.body.detail).toContain("qBittorrent refused the sign-in (401)");
      } finally {
        await next.close();
      }
    });

    it("refuses a count out of range, naming the key; is 404 for integrations not the owner's or of another kind", async () => {
      const board = await member.post("/api/dashboards", { name: "Bad torrents" });
      const bad = await member.post("/api/widgets", {
        dashboardId: board.body.id,
        widgetType: "qBittorrent",
        height: 200,
        width: 200,
        positionX: 0,
        positionY: 0,
        config: { integrationId: box, torrentsShown: 51 },
      });
      expectProblem(bad, 400, "validation_failed");
      expect(bad.body.errors).toEqual([
        { path: "/config/torrentsShown", message: "must be a whole number of torrents from 1 to 50" },
      ]);

      const mine = await admin.post("/api/integrations", {
        kind: "qbittorrent",
        name: "Admin's own",
        url: qb.url,
        allowPrivate: true,
        secrets: { username: qb.username, password: qb.password },
      });
      const borrowed = await widget(member, { integrationId: mine.body.id });
      const refused = await data(member, borrowed.widgetId);
      expectProblem(refused, 404, "not_found");
      expect(refused.body.detail).toBe("This qBittorrent integration is gone or not yours");
      const kuma = await admin.post("/api/integrations", {
        kind: "uptimekuma",
        name: "Kuma",
        url: qb.url,
        owner: "instance",
        allowPrivate: true,
      });
      expectProblem(
        await data(member, (await widget(member, { integrationId: kuma.body.id })).widgetId),
        404,
        "not_found",
      );
      expectProblem(await data(member, (await widget(member, {})).widgetId), 404, "not_found");
    });

    it("shows visitors of a public dashboard the torrents, never the credentials", async () => {
      const { dashboardId, widgetId } = await widget(member, { integrationId: box });
      const published = await member.put("/api/dashboards", { id: dashboardId, name: "Box", isPublic: true });
      expect(published.status, published.text).toBe(200);
      const visitor = new TestClient(built.app);
      const seen = await visitor.get(`/api/public/dashboards/${dashboardId}/widgets/${widgetId}/data`);
      expect(seen.status, seen.text).toBe(200);
      expect(seen.body.data.counts.active).toBe(4);
      expect(seen.text).not.toContain(qb.password);
      expect(seen.text).not.toContain("SID=");
    });
  });
}
