import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type JellyfinFake, jellyfinId, startJellyfinFake } from "../../src/integrations/jellyfin/fake.js";
import type { BuiltApp } from "../../src/server/app.js";
import { TestClient } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";
import { expectProblem } from "../support/problems.js";
import { registerSecret } from "../support/secrets.js";

/**
 * The Jellyfin widget through the API, as a browser uses it: an admin saves the integration with
 * an API key, people put the widget on dashboards, read it with GET /api/widgets/data?id= and load
 * its posters from our server. Jellyfin is the fake on 127.0.0.1 (10.11.11), which wants the key
 * in `Authorization: MediaBrowser Token="…"` (401 otherwise), answers /Sessions, /Users and
 * /Items/Latest (for a user: keys belong to none) and serves pictures without a key.
 */

const PNG = [0x89, 0x50, 0x4e, 0x47];

for (const modeName of MODES) {
  describe(`Jellyfin widget (${modeName})`, { timeout: 120_000 }, () => {
    let mode: ModeEnv;
    let built: BuiltApp;
    let jf: JellyfinFake;
    let admin: TestClient;
    let member: TestClient;
    let other: TestClient;
    let media: string;
    const time = { now: Date.parse("2026-11-28T20:00:00.000Z") };

    beforeAll(async () => {
      jf = await startJellyfinFake({ now: () => time.now });
      registerSecret(jf.apiKey);
      mode = await prepareMode(modeName);
      built = await mode.start({ rateLimitEnabled: false }, { clock: () => time.now });
      admin = new TestClient(built.app);
      await admin.signUp("Admin");
      member = new TestClient(built.app);
      await member.signUp("Member");
      other = new TestClient(built.app);
      await other.signUp("Other");
      media = await save("Media", jf.apiKey);
    });
    afterAll(async () => {
      await mode?.teardown();
      await jf?.close();
    });

    async function save(name: string, apiKey: string) {
      const res = await admin.post("/api/integrations", {
        kind: "jellyfin",
        name,
        url: jf.url,
        owner: "instance",
        allowPrivate: true,
        secrets: { apiKey },
      });
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    }
    const widget = (client: TestClient, config: object) => client.addWidget("Jellyfin", config);
    const data = (client: TestClient, id: string) => client.get(`/api/widgets/data?id=${id}`);

    it("answers who plays what with progress, and the first administrator's latest additions, the key in the header only", async () => {
      const { widgetId } = await widget(member, { integrationId: media });
      const before = jf.requests.length;
      const res = await data(member, widgetId);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.nowPlaying).toEqual([
        {
          id: jellyfinId("session:anna-tv"),
          user: "anna",
          device: "Living room TV",
          client: "Jellyfin Android TV",
          title: "Severance",
          episode: { season: 2, number: 3, name: "Who Is Alive?" },
          artist: null,
          type: "Episode",
          positionSeconds: 900,
          runtimeSeconds: 2640,
          progress: 900 / 2640,
          paused: false,
          transcoding: false,
        },
        {
          id: jellyfinId("session:ben-web"),
          user: "ben",
          device: "Firefox",
          client: "Jellyfin Web",
          title: "Dune: Part Two",
          episode: null,
          artist: null,
          type: "Movie",
          positionSeconds: 5400,
          runtimeSeconds: 9960,
          progress: 5400 / 9960,
          paused: true,
          transcoding: true,
        },
      ]);
      // The iPad has the app open and plays nothing.
      expect(res.body.data.playingTotal).toBe(2);
      expect(res.body.data.latestFor).toBe("anna");
      expect(res.body.data.latest).toEqual([
        {
          id: jellyfinId("movie:dune2"),
          name: "Dune: Part Two",
          type: "Movie",
          seriesName: null,
          year: 2024,
          season: null,
          number: null,
          count: null,
          poster: { itemId: jellyfinId("movie:dune2"), tag: "a1b2c3d4e5f60718293a4b5c6d7e8f90" },
        },
        // Two new episodes of one series come as the series.
        expect.objectContaining({
          id: jellyfinId("series:severance"),
          name: "Severance",
          type: "Series",
          count: 2,
          poster: { itemId: jellyfinId("series:severance"), tag: "0f1e2d3c4b5a69788796a5b4c3d2e1f0" },
        }),
        expect.objectContaining({ name: "Paddington in Peru" }),
        // No picture in Jellyfin: none here either.
        expect.objectContaining({ name: "Nosferatu", poster: null }),
        expect.objectContaining({ name: "The Wild Robot" }),
      ]);

      const sent = jf.requests.slice(before);
      expect(sent.map((r) => r.path).sort()).toEqual(["/Items/Latest", "/Sessions", "/Users"]);
      for (const request of sent) {
        expect(request.headers.authorization).toBe(`MediaBrowser Token="${jf.apiKey}"`);
        expect([...request.query.keys()].map((k) => k.toLowerCase())).not.toContain("apikey");
        expect([...request.query.keys()].map((k) => k.toLowerCase())).not.toContain("api_key");
        expect(request.headers["x-emby-token"]).toBeUndefined();
      }
      const latest = sent.find((r) => r.path === "/Items/Latest")!;
      expect(latest.query.get("userId")).toBe(jellyfinId("user:anna"));
      expect(latest.query.get("limit")).toBe("16");
      expect(latest.query.get("includeItemTypes")).toBe("Movie,Episode");
      expect(sent.find((r) => r.path === "/Sessions")!.query.get("activeWithinSeconds")).toBe("960");
    });

    it("shows the chosen user's additions (their parental limits apply), cut to the count, or none", async () => {
      const kids = await widget(member, {
        integrationId: media,
        userId: jellyfinId("user:kids"),
        latestCount: 3,
      });
      const res = await data(member, kids.widgetId);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.latestFor).toBe("kids");
      expect(res.body.data.latest.map((i: { name: string }) => i.name)).toEqual([
        "Dune: Part Two",
        "Severance",
        "Paddington in Peru",
      ]);
      const five = await widget(member, {
        integrationId: media,
        userId: jellyfinId("user:kids"),
        latestCount: 5,
      });
      expect(
        (await data(member, five.widgetId)).body.data.latest.map((i: { name: string }) => i.name),
      ).not.toContain("Nosferatu");

      const latestAsked = jf.count("/Items/Latest");
      const none = await widget(member, { integrationId: media, showLatest: false });
      const plain = await data(member, none.widgetId);
      expect(plain.body.data.latest).toBeNull();
      expect(plain.body.data.latestFor).toBeNull();
      expect(jf.count("/Items/Latest")).toBe(latestAsked);

      const gone = await widget(member, { integrationId: media, userId: "0".repeat(32) });
      const missing = await data(member, gone.widgetId);
      expectProblem(missing, 404, "not_found");
      expect(missing.body.detail).toBe(
        "Media has no user with this id any more: choose one in the widget's settings",
      );
    });

    it("keeps sessions 10 s and latest additions 5 minutes, shared by widgets of one integration", async () => {
      const a = await widget(member, { integrationId: media });
      const b = await widget(other, { integrationId: media });
      time.now += 60 * 60_000;
      const sessions = jf.count("/Sessions");
      const latest = jf.count("/Items/Latest");
      await data(member, a.widgetId);
      await data(other, b.widgetId);
      expect(jf.count("/Sessions")).toBe(sessions + 1);
      expect(jf.count("/Items/Latest")).toBe(latest + 1);
      jf.sessions[1]!.playing!.paused = false;
      time.now += 9_000;
      expect((await data(member, a.widgetId)).body.data.nowPlaying[1].paused).toBe(true);
      time.now += 2_000;
      expect((await data(member, a.widgetId)).body.data.nowPlaying[1].paused).toBe(false);
      expect(jf.count("/Sessions")).toBe(sessions + 2);
      expect(jf.count("/Items/Latest")).toBe(latest + 1);
    });

    it("serves the posters the widget shows from our origin, and no other picture", async () => {
      const { widgetId } = await widget(member, { integrationId: media });
      const shown = (await data(member, widgetId)).body.data.latest[0].poster;
      const url = `/api/jellyfin/posters/${widgetId}/${shown.itemId}?tag=${shown.tag}`;
      const poster = await member.get(url);
      expect(poster.status, poster.text).toBe(200);
      expect(poster.headers["content-type"]).toBe("image/png");
      expect(poster.headers["cache-control"]).toBe("private, max-age=86400");
      expect([...poster.raw.subarray(0, 4)]).toEqual(PNG);
      const asked = jf.requests.filter((r) => r.path === `/Items/${shown.itemId}/Images/Primary`);
      expect(asked).toHaveLength(1);
      expect(Object.fromEntries(asked[0]!.query)).toEqual({
        tag: shown.tag,
        maxHeight: "360",
        quality: "85",
      });
      // Kept: a second viewer costs Jellyfin nothing.
      expect((await member.get(url)).status).toBe(200);
      expect(jf.requests.filter((r) => r.path === `/Items/${shown.itemId}/Images/Primary`)).toHaveLength(1);

      // Only what the widget shows: another tag, an item it does not show, junk.
      const wrongTag = await member.get(
        `/api/jellyfin/posters/${widgetId}/${shown.itemId}?tag=${"0".repeat(32)}`,
      );
      expectProblem(wrongTag, 404, "not_found");
      const notShown = await member.get(
        `/api/jellyfin/posters/${widgetId}/${jellyfinId("episode:severance:2:3")}?tag=${"5e".repeat(15)}00`,
      );
      expectProblem(notShown, 404, "not_found");
      expectProblem(await member.get(`/api/jellyfin/posters/${widgetId}/../System?tag=ab`), 404, "not_found");
      expectProblem(
        await member.get(`/api/jellyfin/posters/${widgetId}/not-an-id?tag=${shown.tag}`),
        400,
        "validation_failed",
      );
      expectProblem(
        await member.get(`/api/jellyfin/posters/${widgetId}/${shown.itemId}`),
        400,
        "validation_failed",
      );
      // Someone who may not read the widget learns nothing.
      expectProblem(await other.get(url), 404, "not_found");
      expectProblem(await new TestClient(built.app).get(url), 401, "unauthenticated");
    });

    it("shows visitors of a public dashboard titles and posters, never who watches", async () => {
      const { dashboardId, widgetId } = await widget(member, { integrationId: media });
      const publicUrl = (itemId: string, tag: string) =>
        `/api/public/dashboards/${dashboardId}/widgets/${widgetId}/jellyfin-posters/${itemId}?tag=${tag}`;
      const visitor = new TestClient(built.app);
      const dune = { itemId: jellyfinId("movie:dune2"), tag: "a1b2c3d4e5f60718293a4b5c6d7e8f90" };
      // Not public yet.
      expectProblem(await visitor.get(publicUrl(dune.itemId, dune.tag)), 404, "not_found");
      const published = await member.put("/api/dashboards", {
        id: dashboardId,
        name: "Films",
        isPublic: true,
      });
      expect(published.status, published.text).toBe(200);
      const seen = await visitor.get(`/api/public/dashboards/${dashboardId}/widgets/${widgetId}/data`);
      expect(seen.status, seen.text).toBe(200);
      expect(seen.body.data.nowPlaying.map((p: { title: string }) => p.title)).toEqual([
        "Severance",
        "Dune: Part Two",
      ]);
      for (const playing of seen.body.data.nowPlaying) {
        expect(playing).toMatchObject({ user: null, device: null, client: null });
      }
      expect(seen.body.data.latestFor).toBeNull();
      expect(seen.text).not.toContain("anna");
      expect(seen.text).not.toContain("Living room TV");
      const poster = await visitor.get(publicUrl(dune.itemId, dune.tag));
      expect(poster.status, poster.text).toBe(200);
      expect([...poster.raw.subarray(0, 4)]).toEqual(PNG);
      expectProblem(await visitor.get(publicUrl(dune.itemId, "0".repeat(32))), 404, "not_found");
    });

    it("says when Jellyfin refuses the key, and tests a connection by its system information", async () => {
      const revoked = await save("Revoked", "0123456789abcdef0123456789abcdef");
      const { widgetId } = await widget(member, { integrationId: revoked });
      const res = await data(member, widgetId);
      expectProblem(res, 502, "upstream_failed");
      expect(res.body.detail).toContain("Jellyfin refused the API key of Revoked (401)");
      const bad = await admin.post("/api/integrations/test", { id: revoked });
      expect(bad.body).toMatchObject({ ok: false });
      expect(bad.body.detail).toContain("Jellyfin answered 401");
      const good = await admin.post("/api/integrations/test", { id: media });
      expect(good.body).toMatchObject({ ok: true, detail: "Jellyfin 10.11.11 (Media)" });
      expect(jf.requests.at(-1)!.path).toBe("/System/Info");
    });

    it("lists the integration's users for the settings, administrators first", async () => {
      const res = await member.get(`/api/jellyfin/users?integrationId=${media}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual([
        { id: jellyfinId("user:anna"), name: "anna", admin: true },
        { id: jellyfinId("user:ben"), name: "ben", admin: false },
        { id: jellyfinId("user:kids"), name: "kids", admin: false },
      ]);
      const own = await admin.post("/api/integrations", {
        kind: "jellyfin",
        name: "Admin's own",
        url: jf.url,
        allowPrivate: true,
        secrets: { apiKey: jf.apiKey },
      });
      expectProblem(await member.get(`/api/jellyfin/users?integrationId=${own.body.id}`), 404, "not_found");
      expectProblem(await member.get("/api/jellyfin/users?integrationId=nope"), 400, "validation_failed");
    });

    it("refuses configs the parser would silently repair, naming the key", async () => {
      const board = await member.post("/api/dashboards", { name: "Bad films" });
      const bad = await member.post("/api/widgets", {
        dashboardId: board.body.id,
        widgetType: "Jellyfin",
        height: 200,
        width: 200,
        positionX: 0,
        positionY: 0,
        config: { integrationId: media, userId: "anna", latestCount: 40 },
      });
      expectProblem(bad, 400, "validation_failed");
      expect(bad.body.errors).toEqual([
        { path: "/config/userId", message: "must be a Jellyfin user id: 32 hexadecimal digits" },
        { path: "/config/latestCount", message: "must be a whole number of items from 1 to 16" },
      ]);
      // A Guid with dashes, as some Jellyfin pages show it, is read as Jellyfin writes it.
      const id = jellyfinId("user:ben");
      const dashed = `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`;
      const ok = await widget(member, { integrationId: media, userId: dashed.toUpperCase() });
      expect((await data(member, ok.widgetId)).body.data.latestFor).toBe("ben");
    });
  });
}
