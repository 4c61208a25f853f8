import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AdGuardFake, startAdGuardFake } from "../../src/integrations/adguard/fake.js";
import { type PiholeFake, startPiholeFake } from "../../src/integrations/pihole/fake.js";
import type { BuiltApp } from "../../src/server/app.js";
import { TestClient } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";
import { expectProblem } from "../support/problems.js";
import { registerSecret } from "../support/secrets.js";

/**
 * The Ad Blocking widget through the API, as a browser uses it: an admin saves Pi-hole (v6) and
 * AdGuard Home integrations (POST /api/integrations), people put the widget on dashboards, read it
 * with GET /api/widgets/data?id= and pause or resume blocking with POST /api/widgets/action. Both
 * services are fakes on 127.0.0.1 that check auth as the real ones do: Pi-hole's sessions (a
 * limited number of seats, 429 past them; 401 for an unknown or expired session id) and AdGuard
 * Home's Basic auth (401, and a 15-minute block after five wrong passwords).
 */

const HOUR = 3_600_000;
const sumOf = (values: number[]) => values.reduce((a, b) => a + b, 0);

for (const modeName of MODES) {
  describe(`Ad Blocking widget (${modeName})`, { timeout: 120_000 }, () => {
    let mode: ModeEnv;
    let built: BuiltApp;
    let pihole: PiholeFake;
    let adguard: AdGuardFake;
    let admin: TestClient;
    let member: TestClient;
    let viewer: TestClient;
    let other: TestClient;
    /** The instance's Pi-hole and AdGuard Home, actions allowed; and the same without. */
    let pi: string;
    let piReadOnly: string;
    let ag: string;
    let agReadOnly: string;
    const time = { now: Date.parse("2026-11-28T10:00:00.000Z") };

    const save = async (body: Record<string, unknown>) => {
      const res = await admin.post("/api/integrations", { owner: "instance", allowPrivate: true, ...body });
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    };
    const savePihole = (name: string, allowActions: boolean, password = pihole.password, url = pihole.url) =>
      save({ kind: "pihole", name, url, allowActions, secrets: password ? { password } : {} });
    const saveAdguard = (name: string, allowActions: boolean, password = adguard.password) =>
      save({
        kind: "adguard",
        name,
        url: adguard.url,
        allowActions,
        secrets: { username: adguard.username, password },
      });

    beforeAll(async () => {
      pihole = await startPiholeFake({ now: () => time.now });
      adguard = await startAdGuardFake({ now: () => time.now });
      registerSecret(pihole.password);
      registerSecret(adguard.password);
      mode = await prepareMode(modeName);
      built = await mode.start({ rateLimitEnabled: false }, { clock: () => time.now });
      admin = new TestClient(built.app);
      await admin.signUp("Admin");
      member = new TestClient(built.app);
      await member.signUp("Member");
      viewer = new TestClient(built.app);
      await viewer.signUp("Viewer");
      other = new TestClient(built.app);
      await other.signUp("Other");
      pi = await savePihole("Pi-hole", true);
      piReadOnly = await savePihole("Pi-hole (read only)", false);
      ag = await saveAdguard("AdGuard", true);
      agReadOnly = await saveAdguard("AdGuard (read only)", false);
    });
    afterAll(async () => {
      await mode?.teardown();
      await pihole?.close();
      await adguard?.close();
    });

    const widget = (client: TestClient, config: object) => client.addWidget("Ad Blocking", config);
    const data = (client: TestClient, id: string) => client.get(`/api/widgets/data?id=${id}`);
    const pause = (client: TestClient, id: string, minutes: unknown) =>
      client.post("/api/widgets/action", { id, action: "pause", input: { minutes } });
    const resume = (client: TestClient, id: string) =>
      client.post("/api/widgets/action", { id, action: "resume" });
    /** Past the 10 s the server keeps an answer. */
    const later = () => {
      time.now += 11_000;
    };

    it("answers Pi-hole's counts, share and state, signed in once with the password and asked with the session id", async () => {
      const { widgetId } = await widget(member, { integrationId: pi });
      const before = pihole.requests.length;
      const res = await data(member, widgetId);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({
        data: {
          kind: "pihole",
          queries: 48_213,
          blocked: 6_873,
          blockedShare: 6_873 / 48_213,
          windowHours: 24,
          blocking: { state: "enabled", pausedUntil: null },
          actions: true,
        },
        fetchedAt: new Date(time.now).toISOString(),
        stale: false,
      });
      const sent = pihole.requests.slice(before);
      const signIn = sent.find((r) => r.path === "/api/auth")!;
      expect(signIn).toMatchObject({ method: "POST", body: JSON.stringify({ password: pihole.password }) });
      const sid = pihole.sessions().at(-1)!.sid;
      registerSecret(sid);
      const asked = sent.filter((r) => r.path !== "/api/auth");
      expect(asked.map((r) => r.path).sort()).toEqual(["/api/dns/blocking", "/api/stats/summary"]);
      expect(asked.every((r) => r.headers["x-ftl-sid"] === sid)).toBe(true);
    });

    it("answers AdGuard Home's last 24 hours and its protection, with the user over HTTP Basic", async () => {
      const { widgetId } = await widget(member, { integrationId: ag });
      const before = adguard.requests.length;
      const res = await data(member, widgetId);
      expect(res.status, res.text).toBe(200);
      const day = adguard.hours.slice(-24);
      expect(res.body.data).toEqual({
        kind: "adguard",
        queries: sumOf(day.map((h) => h.queries)),
        blocked: sumOf(day.map((h) => h.blocked)),
        blockedShare: sumOf(day.map((h) => h.blocked)) / sumOf(day.map((h) => h.queries)),
        windowHours: 24,
        blocking: { state: "enabled", pausedUntil: null },
        actions: true,
      });
      const sent = adguard.requests.slice(before);
      expect(sent.map((r) => r.path)).toEqual(["/control/status", "/control/stats?recent=86400000"]);
      const basic = `Basic ${Buffer.from(`${adguard.username}:${adguard.password}`).toString("base64")}`;
      expect(sent.every((r) => r.headers.authorization === basic)).toBe(true);
    });

    it("counts AdGuard Home's last day whatever its statistics interval and version", async () => {
      const month = await startAdGuardFake({ intervalHours: 720, now: () => time.now });
      const legacy = await startAdGuardFake({ intervalHours: 720, ignoreRecent: true, now: () => time.now });
      const short = await startAdGuardFake({ intervalHours: 6, now: () => time.now });
      try {
        const read = async (fake: AdGuardFake) => {
          const id = await save({
            kind: "adguard",
            name: "AdGuard",
            url: fake.url,
            secrets: { username: fake.username, password: fake.password },
          });
          const { widgetId } = await widget(member, { integrationId: id });
          const res = await data(member, widgetId);
          expect(res.status, res.text).toBe(200);
          return res.body.data;
        };
        // v0.107.72 and later answer exactly the last 24 hours when asked.
        expect(await read(month)).toMatchObject({
          queries: sumOf(month.hours.slice(-24).map((h) => h.queries)),
          windowHours: 24,
        });
        // Older versions answer the month by day: the last day's bin, the hours of today (UTC) so far.
        const today = Math.floor(time.now / HOUR) % 24 || 24;
        const old = await read(legacy);
        expect(old.windowHours).toBe(today);
        expect(old.queries).toBe(sumOf(legacy.hours.slice(-today).map((h) => h.queries)));
        // A six-hour interval refuses a day (400): all of it is counted.
        expect(await read(short)).toMatchObject({
          queries: sumOf(short.hours.map((h) => h.queries)),
          windowHours: 6,
        });
        expect(short.requests.map((r) => r.path)).toContain("/control/stats");
      } finally {
        await Promise.all([month.close(), legacy.close(), short.close()]);
      }
    });

    it("keeps one Pi-hole session for every widget and viewer, and signs in again only when Pi-hole forgot it", async () => {
      // Two seats in all: signing in per load would run out at the third (429 api_seats_exceeded).
      const busy = await startPiholeFake({ maxSessions: 2, now: () => time.now });
      registerSecret(busy.password);
      try {
        const shared = await savePihole("Pi-hole (busy)", false, busy.password, busy.url);
        const readers = [member, other, admin];
        const boards = await Promise.all(readers.map((c) => widget(c, { integrationId: shared })));
        for (let round = 0; round < 10; round++) {
          const answers = await Promise.all(boards.map((b, i) => data(readers[i]!, b.widgetId)));
          for (const answer of answers) expect(answer.status, answer.text).toBe(200);
          later();
        }
        expect(busy.logins).toBe(1);
        expect(busy.refusedLogins).toBe(0);
        expect(busy.count("/api/stats/summary")).toBe(10);
        expect(busy.sessions()).toHaveLength(1);

        // Past Pi-hole's 30-minute idle timeout its session id is answered 401: one sign-in, one retry.
        time.now += 31 * 60_000;
        const expired = await data(member, boards[0]!.widgetId);
        expect(expired.status, expired.text).toBe(200);
        expect(busy.logins).toBe(2);
        // A new app password ends every session on Pi-hole: the same.
        busy.endSessions();
        later();
        expect((await data(other, boards[1]!.widgetId)).status).toBe(200);
        expect(busy.logins).toBe(3);
        later();
        expect((await data(admin, boards[2]!.widgetId)).status).toBe(200);
        expect(busy.logins).toBe(3);
        expect(busy.refusedLogins).toBe(0);
      } finally {
        await busy.close();
      }
    });

    it("reads a Pi-hole that has no password without a session", async () => {
      const open = await startPiholeFake({ password: "", now: () => time.now });
      try {
        const id = await savePihole("Open Pi-hole", false, "", open.url);
        const { widgetId } = await widget(member, { integrationId: id });
        const res = await data(member, widgetId);
        expect(res.status, res.text).toBe(200);
        expect(res.body.data.queries).toBe(48_213);
        const asked = open.requests.filter((r) => r.path !== "/api/auth");
        expect(asked.length).toBe(2);
        expect(asked.every((r) => r.headers["x-ftl-sid"] === undefined)).toBe(true);
      } finally {
        await open.close();
      }
    });

    it("pauses Pi-hole for the minutes asked (a timer in seconds) and resumes it; blocking comes back by itself", async () => {
      const { widgetId } = await widget(member, { integrationId: pi });
      expect((await data(member, widgetId)).body.data.blocking.state).toBe("enabled");
      const paused = await pause(member, widgetId, 5);
      expect(paused.status, paused.text).toBe(200);
      const until = new Date(time.now + 5 * 60_000).toISOString();
      expect(paused.body).toEqual({
        detail: `Paused blocking for 5 min through Pi-hole (Pi-hole): paused until ${until.slice(11, 16)} UTC`,
        result: { state: "paused", pausedUntil: until },
      });
      const sent = pihole.blockingCalls.at(-1)!;
      expect(sent).toMatchObject({ blocking: false, timer: 300 });
      expect(pihole.sessions().map((s) => s.sid)).toContain(sent.sid);
      // Without waiting for the cache: the pause forgot the kept answer.
      expect((await data(member, widgetId)).body.data.blocking).toEqual({
        state: "paused",
        pausedUntil: until,
      });
      time.now += 5 * 60_000 + 1_000;
      expect((await data(member, widgetId)).body.data.blocking.state).toBe("enabled");

      expect((await pause(member, widgetId, 60)).body.result.state).toBe("paused");
      const resumed = await resume(member, widgetId);
      expect(resumed.status, resumed.text).toBe(200);
      expect(resumed.body.result).toEqual({ state: "enabled", pausedUntil: null });
      expect(pihole.blockingCalls.at(-1)).toMatchObject({ blocking: true, timer: null });
      expect((await data(member, widgetId)).body.data.blocking.state).toBe("enabled");
    });

    it("pauses AdGuard Home's protection for the minutes asked (a duration in ms, exact JSON type) and resumes it", async () => {
      const { widgetId } = await widget(member, { integrationId: ag });
      const paused = await pause(member, widgetId, 10);
      expect(paused.status, paused.text).toBe(200);
      const until = new Date(time.now + 10 * 60_000).toISOString();
      expect(paused.body.result).toEqual({ state: "paused", pausedUntil: until });
      expect(adguard.protectionCalls.at(-1)).toEqual({
        body: { enabled: false, duration: 600_000 },
        contentType: "application/json",
      });
      expect((await data(member, widgetId)).body.data.blocking).toEqual({
        state: "paused",
        pausedUntil: until,
      });
      const resumed = await resume(member, widgetId);
      expect(resumed.body).toEqual({
        detail: "Resumed blocking through AdGuard (AdGuard Home): enabled",
        result: { state: "enabled", pausedUntil: null },
      });
      expect(adguard.protectionCalls.at(-1)!.body).toEqual({ enabled: true });
      expect(adguard.protectionEnabled).toBe(true);
    });

    it("lets editors act (viewers 403, anyone else 404, visitors 401), only with actions allowed and listed minutes", async () => {
      const { dashboardId, widgetId } = await widget(member, { integrationId: pi });
      const shared = await member.put("/api/dashboards/members", {
        id: dashboardId,
        members: [
          { type: "user", id: viewer.user!.id, role: "viewer" },
          { type: "user", id: admin.user!.id, role: "editor" },
        ],
      });
      expect(shared.status, shared.text).toBe(200);
      const calls = pihole.blockingCalls.length;

      expect((await data(viewer, widgetId)).status).toBe(200);
      expectProblem(await pause(viewer, widgetId, 5), 403, "forbidden");
      expectProblem(await resume(viewer, widgetId), 403, "forbidden");
      expectProblem(await data(other, widgetId), 404, "not_found");
      expectProblem(await pause(other, widgetId, 5), 404, "not_found");
      expectProblem(await pause(new TestClient(built.app), widgetId, 5), 401, "unauthenticated");
      // An editor of the shared dashboard may, through the owner's integration.
      const byEditor = await pause(admin, widgetId, 1);
      expect(byEditor.status, byEditor.text).toBe(200);
      expect(pihole.blockingCalls.length).toBe(calls + 1);
      expect((await resume(admin, widgetId)).status).toBe(200);

      for (const minutes of [7, "5", 0, null]) {
        const bad = await pause(member, widgetId, minutes);
        expectProblem(bad, 400, "validation_failed");
        expect(bad.body.errors[0].path).toBe("/input/minutes");
      }
      expectProblem(
        await member.post("/api/widgets/action", {
          id: widgetId,
          action: "pause",
          input: { minutes: 5, extra: 1 },
        }),
        400,
        "validation_failed",
      );

      for (const integrationId of [piReadOnly, agReadOnly]) {
        const off = await widget(member, { integrationId });
        expect((await data(member, off.widgetId)).body.data.actions).toBe(false);
        const refused = await pause(member, off.widgetId, 5);
        expectProblem(refused, 403, "forbidden");
        expect(refused.body.detail).toMatch(
          /^Actions through (Pi-hole|AdGuard) \(read only\) are off: an admin can turn them on/,
        );
        expectProblem(await resume(member, off.widgetId), 403, "forbidden");
      }
      expect(pihole.blockingCalls.length).toBe(calls + 2);
    });

    it("records every attempt in the audit log with its outcome, never a password", async () => {
      const { widgetId } = await widget(member, { integrationId: ag });
      const off = await widget(member, { integrationId: agReadOnly });
      expect((await pause(member, widgetId, 30)).status).toBe(200);
      expect((await pause(member, off.widgetId, 30)).status).toBe(403);
      expect((await resume(member, widgetId)).status).toBe(200);
      const audit = await admin.get("/api/admin/audit?limit=3");
      expect(audit.status, audit.text).toBe(200);
      expect(audit.body.events).toEqual([
        expect.objectContaining({
          action: "widget.action",
          target: `widget:${widgetId}`,
          actor: expect.objectContaining({ name: "Member" }),
          detail: {
            widgetType: "Ad Blocking",
            action: "resume",
            input: null,
            outcome: "done",
            detail: "Resumed blocking through AdGuard (AdGuard Home): enabled",
          },
        }),
        expect.objectContaining({
          target: `widget:${off.widgetId}`,
          detail: expect.objectContaining({
            action: "pause",
            input: { minutes: 30 },
            outcome: "failed",
            detail: expect.stringContaining("Actions through AdGuard (read only) are off"),
          }),
        }),
        expect.objectContaining({
          target: `widget:${widgetId}`,
          detail: expect.objectContaining({
            action: "pause",
            input: { minutes: 30 },
            outcome: "done",
            detail: expect.stringMatching(
              /^Paused blocking for 30 min through AdGuard \(AdGuard Home\): paused until \d\d:\d\d UTC$/,
            ),
          }),
        }),
      ]);
      expect(audit.text).not.toContain(adguard.password);
    });

    it("says clearly when Pi-hole refuses the password, and stops signing in with it", async () => {
      const wrong = await savePihole("Old password", true, "not-the-password");
      const none = await savePihole("No password", true, "");
      const { widgetId } = await widget(member, { integrationId: wrong });
      const refusedBefore = pihole.refusedLogins;
      const first = await data(member, widgetId);
      expectProblem(first, 502, "upstream_failed");
      expect(first.body.detail).toBe(
        "Pi-hole refused the password (401): save an app password from Pi-hole (Settings, Web interface / API) in the integration",
      );
      for (let i = 0; i < 4; i++) {
        time.now += 60_000;
        expectProblem(await data(member, widgetId), 502, "upstream_failed");
      }
      expectProblem(await pause(member, widgetId, 5), 502, "upstream_failed");
      expect(pihole.refusedLogins - refusedBefore).toBe(1);

      const missing = await widget(member, { integrationId: none });
      const asked = await data(member, missing.widgetId);
      expectProblem(asked, 502, "upstream_failed");
      expect(asked.body.detail).toMatch(/^Pi-hole wants a password \(401\)/);

      // A new password is tried at once.
      const fixed = await admin.put(`/api/integrations/${wrong}`, { secrets: { password: pihole.password } });
      expect(fixed.status, fixed.text).toBe(200);
      expect((await data(member, widgetId)).status).toBe(200);
      const check = await admin.post("/api/integrations/test", {
        kind: "pihole",
        url: pihole.url,
        allowPrivate: true,
        secrets: { password: "wrong" },
      });
      expect(check.body).toMatchObject({
        ok: false,
        detail: expect.stringContaining("refused the password"),
      });
    });

    it("ends the session a connection test signed in with, so testing before saving holds no Pi-hole seat", async () => {
      // One seat: a test that left its session behind would lock the next one out (429).
      const single = await startPiholeFake({ maxSessions: 1, now: () => time.now });
      registerSecret(single.password);
      try {
        for (let attempt = 0; attempt < 3; attempt++) {
          const check = await admin.post("/api/integrations/test", {
            kind: "pihole",
            url: single.url,
            allowPrivate: true,
            secrets: { password: single.password },
          });
          expect(check.body, check.text).toMatchObject({
            ok: true,
            detail: expect.stringMatching(/^Pi-hole /),
          });
          expect(single.sessions()).toHaveLength(0);
        }
        expect(single.logins).toBe(3);
        expect(single.refusedLogins).toBe(0);
      } finally {
        await single.close();
      }
    });

    it("says clearly when AdGuard Home refuses the user, and never lets it block this server", async () => {
      const wrong = await saveAdguard("Old user", true, "not-the-password");
      const { widgetId } = await widget(member, { integrationId: wrong });
      const refusedBefore = adguard.refusals;
      const first = await data(member, widgetId);
      expectProblem(first, 502, "upstream_failed");
      expect(first.body.detail).toContain("AdGuard Home refused the user name or password of Old user (401)");
      for (let i = 0; i < 6; i++) {
        time.now += 20_000;
        expectProblem(await data(member, widgetId), 502, "upstream_failed");
      }
      expectProblem(await resume(member, widgetId), 502, "upstream_failed");
      expect(adguard.refusals - refusedBefore).toBe(1);
      expect(adguard.blocked()).toBe(false);
      // The other AdGuard integrations on this server keep working.
      const good = await widget(member, { integrationId: ag });
      expect((await data(member, good.widgetId)).status).toBe(200);
    });

    it("tests connections: Pi-hole's and AdGuard Home's versions", async () => {
      const piCheck = await admin.post("/api/integrations/test", { id: pi });
      expect(piCheck.body).toMatchObject({ ok: true, detail: "Pi-hole v6.2.3 (FTL v6.4.1)" });
      const agCheck = await admin.post("/api/integrations/test", { id: ag });
      expect(agCheck.body).toMatchObject({ ok: true, detail: "AdGuard Home v0.107.79" });
    });

    it("is 404 for an integration that is gone, another user's, or of another kind", async () => {
      const theirs = await admin.post("/api/integrations", {
        kind: "pihole",
        name: "Admin's own",
        url: pihole.url,
        allowPrivate: true,
        secrets: { password: pihole.password },
      });
      expect(theirs.status, theirs.text).toBe(201);
      const borrowed = await widget(member, { integrationId: theirs.body.id });
      const refused = await data(member, borrowed.widgetId);
      expectProblem(refused, 404, "not_found");
      expect(refused.body.detail).toBe("This Pi-hole or AdGuard Home integration is gone or not yours");
      expectProblem(await pause(member, borrowed.widgetId, 5), 404, "not_found");

      const home = await save({
        kind: "homeassistant",
        name: "Home",
        url: pihole.url,
        secrets: { token: "t0ken-t0ken" },
      });
      const wrongKind = await widget(member, { integrationId: home });
      expectProblem(await data(member, wrongKind.widgetId), 404, "not_found");
      const empty = await widget(member, {});
      expectProblem(await data(member, empty.widgetId), 404, "not_found");
      expectProblem(await resume(member, empty.widgetId), 404, "not_found");
    });

    it("refuses a refresh out of range, naming the key", async () => {
      const board = await member.post("/api/dashboards", { name: "Bad refresh" });
      const bad = await member.post("/api/widgets", {
        dashboardId: board.body.id,
        widgetType: "Ad Blocking",
        height: 200,
        width: 200,
        positionX: 0,
        positionY: 0,
        config: { integrationId: pi, refreshSeconds: 2 },
      });
      expectProblem(bad, 400, "validation_failed");
      expect(bad.body.errors).toEqual([
        { path: "/config/refreshSeconds", message: expect.stringContaining("from 10 to 3600") },
      ]);
    });

    it("shows the numbers to visitors of a public dashboard, and never lets them pause", async () => {
      const { dashboardId, widgetId } = await widget(member, { integrationId: ag });
      const published = await member.put("/api/dashboards", { id: dashboardId, name: "DNS", isPublic: true });
      expect(published.status, published.text).toBe(200);
      const visitor = new TestClient(built.app);
      const seen = await visitor.get(`/api/public/dashboards/${dashboardId}/widgets/${widgetId}/data`);
      expect(seen.status, seen.text).toBe(200);
      expect(seen.body.data).toMatchObject({ kind: "adguard", windowHours: 24 });
      expectProblem(await resume(visitor, widgetId), 401, "unauthenticated");
      time.now += HOUR;
    });
  });
}
