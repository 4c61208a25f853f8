import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RadarrFake, startRadarrFake } from "../../src/integrations/radarr/fake.js";
import { type SonarrFake, startSonarrFake } from "../../src/integrations/sonarr/fake.js";
import type { BuiltApp } from "../../src/server/app.js";
import { TestClient } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";
import { expectProblem } from "../support/problems.js";
import { registerSecret } from "../support/secrets.js";

/**
 * Sonarr and Radarr through the API (issue 33): an admin saves the integrations (tested against
 * the service), people read the Upcoming Media widget with GET /api/widgets/data?id= and put the
 * same integrations into a Calendar widget as sources. The services are the fakes on 127.0.0.1
 * (Sonarr v4 and Radarr v6 answering API v3), which check `X-Api-Key`, page and sort the queue as
 * the real ones do (descending unless told), and record every call.
 */

const DAY = 86_400_000;
const START = Date.parse("2026-11-28T10:00:00.000Z");

for (const modeName of MODES) {
  describe(`Sonarr and Radarr (${modeName})`, { timeout: 120_000 }, () => {
    let mode: ModeEnv;
    let built: BuiltApp;
    let sonarr: SonarrFake;
    let radarr: RadarrFake;
    /** Sonarr under a URL base, as behind a reverse proxy's /sonarr. */
    let based: SonarrFake;
    let admin: TestClient;
    let member: TestClient;
    let other: TestClient;
    const ids: Record<string, string> = {};
    const time = { now: START };

    beforeAll(async () => {
      const now = () => time.now;
      [sonarr, radarr, based] = await Promise.all([
        startSonarrFake({ now }),
        startRadarrFake({ now }),
        startSonarrFake({ now, urlBase: "/sonarr" }),
      ]);
      for (const fake of [sonarr, radarr, based]) registerSecret(fake.apiKey);
      mode = await prepareMode(modeName);
      built = await mode.start({ rateLimitEnabled: false }, { clock: now });
      admin = new TestClient(built.app);
      await admin.signUp("Admin");
      member = new TestClient(built.app);
      await member.signUp("Member");
      other = new TestClient(built.app);
      await other.signUp("Other");
      const save = async (name: string, kind: string, url: string, apiKey: string) => {
        const res = await admin.post("/api/integrations", {
          kind,
          name,
          url,
          owner: "instance",
          allowPrivate: true,
          secrets: { apiKey },
        });
        expect(res.status, res.text).toBe(201);
        ids[name] = res.body.id;
      };
      await save("Sonarr", "sonarr", sonarr.url, sonarr.apiKey);
      await save("Radarr", "radarr", radarr.url, radarr.apiKey);
      await save("Sonarr (old key)", "sonarr", sonarr.url, "0123456789abcdef0123456789abcdef");
      await save("Sonarr behind /sonarr", "sonarr", based.url, based.apiKey);
      await save("Sonarr without its base", "sonarr", based.url.replace(/\/sonarr$/, ""), based.apiKey);
    });
    afterAll(async () => {
      await mode?.teardown();
      await Promise.all([sonarr, radarr, based].map((fake) => fake?.close()));
    });

    /** Past every answer kept so far (calendars are kept five minutes, failures remembered less). */
    const later = () => {
      time.now += 10 * 60_000;
    };
    const widget = async (config: object, client = member) =>
      (await client.addWidget("Upcoming Media", config)).widgetId;
    const data = (id: string, client = member) => client.get(`/api/widgets/data?id=${id}`);
    const since = (fake: SonarrFake | RadarrFake, before: number) => fake.requests.slice(before);

    it("lists both kinds with their API key, and tests a connection by Sonarr's and Radarr's status", async () => {
      const kinds = await member.get("/api/integrations/kinds");
      for (const kind of ["sonarr", "radarr"]) {
        const found = kinds.body.find((k: { kind: string }) => k.kind === kind);
        expect(found.secrets).toEqual([
          expect.objectContaining({
            name: "apiKey",
            required: true,
            help: expect.stringContaining("Settings > General > Security"),
          }),
        ]);
      }
      const before = sonarr.requests.length;
      const check = async (id: string) => (await admin.post("/api/integrations/test", { id })).body;
      expect(await check(ids.Sonarr!)).toMatchObject({ ok: true, detail: "Sonarr 4.0.19.2979" });
      expect(await check(ids.Radarr!)).toMatchObject({ ok: true, detail: "Radarr 6.0.3.10276" });
      expect(await check(ids["Sonarr behind /sonarr"]!)).toMatchObject({ ok: true });
      const [asked] = since(sonarr, before);
      expect(asked).toMatchObject({ method: "GET", path: "/api/v3/system/status" });
      // The key travels in the header only, never in the address (where proxies log it).
      expect(asked!.headers["x-api-key"]).toBe(sonarr.apiKey);
      expect(asked!.query.has("apikey")).toBe(false);

      const refused = await check(ids["Sonarr (old key)"]!);
      expect(refused).toMatchObject({ ok: false });
      expect(refused.detail).toContain("401");
      expect(refused.detail).toContain("credentials were refused");
      const noBase = await check(ids["Sonarr without its base"]!);
      expect(noBase.detail).toContain("URL Base");
      // Radarr's address saved as Sonarr: said so, with what to do.
      const mixed = await admin.post("/api/integrations/test", {
        kind: "sonarr",
        url: radarr.url,
        allowPrivate: true,
        secrets: { apiKey: radarr.apiKey },
      });
      expect(mixed.body).toMatchObject({
        ok: false,
        detail: "This address is Radarr 6.0.3.10276, not Sonarr: save it as a Radarr integration",
      });
      // The key is required, and named so.
      const keyless = await admin.post("/api/integrations", {
        kind: "radarr",
        name: "No key",
        url: radarr.url,
        owner: "instance",
        allowPrivate: true,
      });
      expectProblem(keyless, 400, "validation_failed");
      expect(keyless.body.errors).toEqual([{ path: "/secrets/apiKey", message: "is required for Radarr" }]);
    });

    it("answers the calendar and the queues of both, asking as the services document", async () => {
      const id = await widget({ integrationIds: [ids.Sonarr, ids.Radarr] });
      const [s, r] = [sonarr.requests.length, radarr.requests.length];
      const res = await data(id);
      expect(res.status, res.text).toBe(200);
      const { sources, calendar, queue } = res.body.data;
      expect(sources).toEqual([
        {
          integrationId: ids.Sonarr,
          name: "Sonarr",
          kind: "sonarr",
          error: null,
          calendarTruncated: false,
          queueTotal: 4,
          queueMore: 0,
        },
        {
          integrationId: ids.Radarr,
          name: "Radarr",
          kind: "radarr",
          error: null,
          calendarTruncated: false,
          queueTotal: 2,
          queueMore: 0,
        },
      ]);
      // Yesterday's (for readers west of UTC) to 14 days ahead; unmonitored ones left out.
      expect(calendar.map((e: { type: string; id: string }) => `${e.type[0]}${e.id}`)).toEqual([
        "e101",
        "e102",
        "m12",
        "e201",
        "e301",
        "e401",
        "m11",
        "m13",
      ]);
      expect(calendar[1]).toEqual({
        type: "episode",
        integrationId: ids.Sonarr,
        id: "102",
        series: "Severance",
        seasonNumber: 2,
        episodeNumber: 10,
        title: "Cold Harbor",
        airDateUtc: "2026-11-29T02:00:00.000Z",
        runtimeMinutes: 76,
        hasFile: false,
        finaleType: "season",
      });
      // No runtime of its own: the series'.
      expect(calendar[3]).toMatchObject({ id: "201", runtimeMinutes: 30 });
      // Every release day as Radarr has it; listed on the first within the window.
      expect(calendar[2]).toEqual({
        type: "movie",
        integrationId: ids.Radarr,
        id: "12",
        title: "Mickey 17",
        year: 2025,
        day: "2026-11-30",
        inCinemas: "2026-05-12",
        digitalRelease: "2026-11-30",
        physicalRelease: "2026-12-28",
        hasFile: false,
      });

      expect(queue.map((q: { series: string | null; movie: string | null }) => q.series ?? q.movie)).toEqual([
        "Slow Horses",
        "Severance",
        "The Bear",
        "Mickey 17",
        "Paddington in Peru",
      ]);
      // A season pack is one download with its episodes.
      expect(queue[0]).toMatchObject({
        id: "SABnzbd_nzo_p86tgx",
        episodes: [
          { seasonNumber: 5, episodeNumber: 3 },
          { seasonNumber: 5, episodeNumber: 4 },
        ],
        episodeTitle: null,
        progress: 1,
        timeLeftSeconds: 0,
        state: "importBlocked",
        health: "warning",
        messages: ["Episode has a TBA title and recently aired"],
      });
      expect(queue[1]).toEqual({
        integrationId: ids.Sonarr,
        id: "A1B2C3D4E5F60718293A4B5C6D7E8F9012345678",
        title: "Severance.S02E09.The.After.Hours.2160p.ATVP.WEB-DL.DDP5.1.Atmos.H.265-FLUX",
        series: "Severance",
        episodes: [{ seasonNumber: 2, episodeNumber: 9 }],
        episodeTitle: "The After Hours",
        movie: null,
        year: null,
        progress: 0.6,
        timeLeftSeconds: 750,
        estimatedCompletion: new Date(START + 750_000).toISOString(),
        state: "downloading",
        health: "ok",
        messages: [],
        downloadClient: "qBittorrent",
      });
      expect(queue[2]).toMatchObject({
        state: "failed",
        health: "error",
        progress: 0,
        timeLeftSeconds: null,
        messages: ["Download failed: not enough repair blocks"],
      });
      // More than a day left: .NET's "1.02:03:04".
      expect(queue[3]).toMatchObject({
        movie: "Mickey 17",
        year: 2025,
        progress: 0.25,
        timeLeftSeconds: 93_784,
      });
      expect(queue[4]).toMatchObject({ state: "paused", health: "warning" });

      const sonarrCalls = since(sonarr, s);
      const calendarCalls = sonarrCalls.filter((c) => c.path === "/api/v3/calendar");
      // Fifteen and a half days, in steps of fourteen: each step's episodes carry their whole series.
      expect(calendarCalls.map((c) => Object.fromEntries(c.query))).toEqual([
        {
          start: "2026-11-27T00:00:00.000Z",
          end: "2026-12-11T00:00:00.000Z",
          unmonitored: "false",
          includeSeries: "true",
        },
        {
          start: "2026-12-11T00:00:00.000Z",
          end: "2026-12-12T10:00:00.000Z",
          unmonitored: "false",
          includeSeries: "true",
        },
      ]);
      const sonarrQueue = sonarrCalls.find((c) => c.path === "/api/v3/queue")!;
      expect(Object.fromEntries(sonarrQueue.query)).toEqual({
        page: "1",
        pageSize: "50",
        sortKey: "timeleft",
        sortDirection: "ascending",
        includeUnknownSeriesItems: "false",
        includeSeries: "true",
        includeEpisode: "true",
      });
      const radarrCalls = since(radarr, r);
      expect(radarrCalls.map((c) => c.path).sort()).toEqual(["/api/v3/calendar", "/api/v3/queue"]);
      expect(Object.fromEntries(radarrCalls.find((c) => c.path === "/api/v3/queue")!.query)).toMatchObject({
        includeUnknownMovieItems: "false",
        includeMovie: "true",
        sortDirection: "ascending",
      });
      for (const call of [...sonarrCalls, ...radarrCalls]) {
        expect(call.headers["x-api-key"]).toBeDefined();
        expect(call.query.has("apikey")).toBe(false);
      }
      expect(res.text).not.toContain(sonarr.apiKey);
    });

    it("keeps a queue 15 seconds and a calendar 5 minutes, shared by widgets of the same integration", async () => {
      later();
      const a = await widget({ integrationIds: [ids.Sonarr] });
      const b = await widget({ integrationIds: [ids.Sonarr] }, other);
      const count = () => [sonarr.count("/api/v3/calendar"), sonarr.count("/api/v3/queue")];
      const before = count();
      expect((await data(a)).status).toBe(200);
      expect((await data(b, other)).status).toBe(200);
      expect(count()).toEqual([before[0]! + 2, before[1]! + 1]);
      sonarr.queue[0]!.sizeleft = 0;
      time.now += 16_000;
      const fresh = await data(a);
      expect(fresh.body.data.queue.find((q: { series: string }) => q.series === "Severance").progress).toBe(
        1,
      );
      expect(count()).toEqual([before[0]! + 2, before[1]! + 2]);
      sonarr.queue[0]!.sizeleft = 2_400_000_000;
    });

    it("reads one page of a long queue, and sixty days of calendar in steps", async () => {
      later();
      const extra = Array.from({ length: 80 }, (_, i) => ({
        ...sonarr.queue[0]!,
        id: 1_800_000_000 + i,
        downloadId: `extra-${i}`,
        title: `Severance.Extra.${i}`,
        timeleft: `0${Math.floor(i / 60)}:${String(i % 60).padStart(2, "0")}:00`,
      }));
      sonarr.queue.push(...extra);
      try {
        const before = sonarr.count("/api/v3/queue");
        const res = await data(await widget({ integrationIds: [ids.Sonarr], days: 60 }));
        expect(res.status, res.text).toBe(200);
        expect(sonarr.count("/api/v3/queue")).toBe(before + 1);
        const { sources, queue, calendar } = res.body.data;
        expect(sources[0]).toMatchObject({ queueTotal: 84, queueMore: 34 });
        // The page holds the 50 closest to done; the pack's two records are one entry.
        expect(queue).toHaveLength(49);
        expect(calendar.map((e: { id: string }) => e.id)).toEqual([
          "101",
          "102",
          "201",
          "301",
          "401",
          "302",
          "303",
        ]);
      } finally {
        sonarr.queue.splice(-extra.length);
      }
    });

    it("asks only for what `show` names", async () => {
      later();
      const [c, q] = [sonarr.count("/api/v3/calendar"), sonarr.count("/api/v3/queue")];
      const onlyQueue = await data(await widget({ integrationIds: [ids.Sonarr], show: "queue" }));
      expect(onlyQueue.body.data.calendar).toEqual([]);
      expect(onlyQueue.body.data.sources[0].queueTotal).toBe(4);
      expect(sonarr.count("/api/v3/calendar")).toBe(c);
      later();
      const onlyCalendar = await data(await widget({ integrationIds: [ids.Sonarr], show: "calendar" }));
      expect(onlyCalendar.body.data.queue).toEqual([]);
      expect(onlyCalendar.body.data.sources[0].queueTotal).toBeNull();
      expect(sonarr.count("/api/v3/queue")).toBe(q + 1);
    });

    it("names each integration that fails, and why, beside the others' data", async () => {
      later();
      const mine = await admin.post("/api/integrations", {
        kind: "sonarr",
        name: "Admin's own",
        url: sonarr.url,
        allowPrivate: true,
        secrets: { apiKey: sonarr.apiKey },
      });
      const kuma = await admin.post("/api/integrations", {
        kind: "uptimekuma",
        name: "Kuma",
        url: sonarr.url,
        owner: "instance",
        allowPrivate: true,
      });
      const gone = "0198d2a4-0000-7000-8000-000000000000";
      const res = await data(
        await widget({
          integrationIds: [
            ids["Sonarr (old key)"],
            ids["Sonarr without its base"],
            mine.body.id,
            kuma.body.id,
            ids.Radarr,
          ],
        }),
      );
      expect(res.status, res.text).toBe(200);
      const errors = res.body.data.sources.map((s: { name: string | null; error: unknown }) => [
        s.name,
        s.error,
      ]);
      expect(errors).toEqual([
        [
          "Sonarr (old key)",
          {
            reason: "refused",
            detail:
              "Sonarr (old key) refused the API key (401): copy it again from Sonarr, Settings > General > Security, into the integration",
          },
        ],
        ["Sonarr without its base", { reason: "not_found", detail: expect.stringContaining("URL Base") }],
        [null, { reason: "integration", detail: expect.stringContaining("gone, or not one") }],
        [null, { reason: "integration", detail: expect.stringContaining("gone, or not one") }],
        ["Radarr", null],
      ]);
      expect(res.body.data.queue.map((q: { movie: string }) => q.movie)).toEqual([
        "Mickey 17",
        "Paddington in Peru",
      ]);
      const unknown = await data(await widget({ integrationIds: [gone] }));
      expect(unknown.body.data.sources[0].error.reason).toBe("integration");

      // A refused key is not asked again by every refresh.
      const refusedBefore = sonarr.requests.filter((r) => r.headers["x-api-key"] !== sonarr.apiKey).length;
      await data(await widget({ integrationIds: [ids["Sonarr (old key)"]] }));
      expect(sonarr.requests.filter((r) => r.headers["x-api-key"] !== sonarr.apiKey).length).toBe(
        refusedBefore,
      );
      // Behind its URL base, the same Sonarr answers.
      const based = await data(await widget({ integrationIds: [ids["Sonarr behind /sonarr"]] }));
      expect(based.body.data.sources[0].error).toBeNull();
      expect(based.body.data.calendar.length).toBeGreaterThan(0);
    });

    it("refuses configs the parser would silently repair, naming the key", async () => {
      const board = await member.post("/api/dashboards", { name: "Bad" });
      const post = (config: object) =>
        member.post("/api/widgets", {
          dashboardId: board.body.id,
          widgetType: "Upcoming Media",
          height: 300,
          width: 300,
          positionX: 0,
          positionY: 0,
          config,
        });
      const bad = await post({ integrationIds: ["sonarr", ids.Sonarr], days: 61, show: "everything" });
      expectProblem(bad, 400, "validation_failed");
      expect(bad.body.errors).toEqual([
        { path: "/config/integrationIds/0", message: "must be the id of a Sonarr or Radarr integration" },
        { path: "/config/days", message: "must be a whole number of days from 1 to 60" },
        { path: "/config/show", message: "must be one of calendar, queue, both" },
      ]);
      const many = await post({ integrationIds: Array.from({ length: 6 }, () => ids.Sonarr) });
      expectProblem(many, 400, "validation_failed");
      expect(many.body.errors).toEqual([
        { path: "/config/integrationIds", message: "must hold at most 5 integrations" },
      ]);
      expectProblem(await post({ days: 0 }), 400, "validation_failed");
      // Without an integration the widget asks for nothing yet.
      expectProblem(await data(await widget({})), 404, "not_found");
    });

    it("shows visitors of a public dashboard the same, without a key", async () => {
      const { dashboardId, widgetId } = await member.addWidget("Upcoming Media", {
        integrationIds: [ids.Sonarr, ids.Radarr],
      });
      const published = await member.put("/api/dashboards", {
        id: dashboardId,
        name: "Media",
        isPublic: true,
      });
      expect(published.status, published.text).toBe(200);
      const visitor = new TestClient(built.app);
      const seen = await visitor.get(`/api/public/dashboards/${dashboardId}/widgets/${widgetId}/data`);
      expect(seen.status, seen.text).toBe(200);
      expect(seen.body.data.calendar.length).toBeGreaterThan(0);
      const bare = await visitor.get(
        `/api/public/dashboards/${dashboardId}/widgets/${widgetId}/upcoming-media`,
      );
      expect(bare.status, bare.text).toBe(200);
      expect(bare.body.queue).toHaveLength(5);
      for (const text of [seen.text, bare.text]) {
        expect(text).not.toContain(sonarr.apiKey);
        expect(text).not.toContain(radarr.apiKey);
      }
    });

    it("feeds a Calendar widget: episodes at their air time, each release day of a movie all day", async () => {
      later();
      const calendarCalls = () =>
        sonarr.requests.filter(
          (r) => r.path === "/api/v3/calendar" && r.headers["x-api-key"] === sonarr.apiKey,
        ).length;
      const before = calendarCalls();
      const { widgetId } = await member.addWidget("Calendar", {
        days: 14,
        sources: [
          { id: "tv", name: "TV", integrationId: ids.Sonarr },
          { id: "films", name: "Films", integrationId: ids.Radarr },
          { id: "old", name: "Old key", integrationId: ids["Sonarr (old key)"] },
          { id: "theirs", name: "Theirs", integrationId: "0198d2a4-0000-7000-8000-000000000001" },
        ],
      });
      const res = await member.get(`/api/widgets/data?id=${widgetId}`);
      expect(res.status, res.text).toBe(200);
      const { events, errors } = res.body.data;
      const tv = events.filter((e: { sourceId: string }) => e.sourceId === "tv");
      expect(tv[0]).toEqual({
        sourceId: "tv",
        id: "sonarr-episode-101",
        title: "Severance - 2x09 - The After Hours",
        start: "2026-11-27T02:00:00.000Z",
        end: "2026-11-27T02:48:00.000Z",
        allDay: false,
      });
      expect(tv.map((e: { title: string }) => e.title)).toEqual([
        "Severance - 2x09 - The After Hours",
        "Severance - 2x10 - Cold Harbor",
        "The Bear - 4x01 - Groundhog",
        "Slow Horses - 5x03 - Missing Persons",
        // Daily shows by date, as Sonarr's own feed names them.
        "The Daily Show - December 3, 2026",
      ]);
      const films = events.filter((e: { sourceId: string }) => e.sourceId === "films");
      expect(films).toEqual([
        {
          sourceId: "films",
          id: "radarr-movie-12-digitalRelease",
          title: "Mickey 17 (Digital Release)",
          start: "2026-11-30",
          end: "2026-12-01",
          allDay: true,
        },
        expect.objectContaining({ title: "Dune: Part Three (Theatrical Release)", start: "2026-12-03" }),
        expect.objectContaining({ title: "Paddington in Peru (Physical Release)", start: "2026-12-08" }),
      ]);
      expect(errors).toEqual([
        { sourceId: "old", reason: "refused", detail: expect.stringContaining("refused the API key (401)") },
        { sourceId: "theirs", reason: "integration", detail: expect.any(String) },
      ]);
      // The calendar's whole horizon (61 days ahead), in Sonarr's steps, once for every widget.
      expect(calendarCalls()).toBe(before + 5);
      expect((await member.get(`/api/widgets/data?id=${widgetId}`)).status).toBe(200);
      expect(calendarCalls()).toBe(before + 5);
    });

    it("answers as Sonarr does: 401 without the key, a default page of 10 sorted descending, 400 on junk", async () => {
      const get = (path: string, headers: Record<string, string> = { "x-api-key": sonarr.apiKey }) =>
        fetch(`${sonarr.url}${path}`, { headers });
      const refused = await get("/api/v3/queue", {});
      expect(refused.status).toBe(401);
      expect(await refused.text()).toBe("");
      expect((await get("/ping", {})).status).toBe(200);
      const page = await (await get("/api/v3/queue")).json();
      expect(page).toMatchObject({ page: 1, pageSize: 10, sortKey: "timeleft", sortDirection: "descending" });
      // Descending by time left: the unknown one (no time) first, as .NET sorts nulls.
      expect(page.records[0].title).toBe("The.Bear.S04E01.1080p.WEB.h264-ETHEL");
      expect(page.records[0].series).toBeUndefined();
      const past = await (await get("/api/v3/queue?page=9&pageSize=2")).json();
      expect(past.page).toBe(2);
      const junk = await get("/api/v3/queue?pageSize=lots");
      expect(junk.status).toBe(400);
      expect((await junk.json()).errors).toEqual({ pageSize: ["The value 'lots' is not valid."] });
      const window = await (await get(`/api/v3/calendar?start=${new Date(time.now).toISOString()}`)).json();
      expect(
        window.every((e: { airDateUtc: string }) => Date.parse(e.airDateUtc) <= time.now + 2 * DAY),
      ).toBe(true);
    });
  });
}
