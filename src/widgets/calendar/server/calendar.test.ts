import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeServer } from "../../../../test/fakes/oauth-http.js";
import { randomToken } from "../../../../test/fakes/oauth-http.js";
import { TestClient } from "../../../../test/support/client.js";
import { upstreamConfig } from "../../../../test/support/config.js";
import { MODES, type ModeEnv, prepareMode } from "../../../../test/support/modes.js";
import { watchPassOn } from "../../../../test/support/watch-pass.js";
import type { BuiltApp } from "../../../server/app.js";
import type { CalendarData } from "../contract.js";
import { FEEDS, startFakeCalendars } from "../fake.js";
import { calendarReminderWatcher } from "./reminders.js";

const MINUTE = 60_000;

/**
 * Calendar widgets through GET /api/widgets/data (DESIGN sections 15, 16): feeds at typed
 * addresses (guarded) and through `ical` integrations (Basic auth), every quirk of the big
 * publishers expanded, a failing source named beside the others, and reminders before events.
 */
describe.each(MODES)("Calendar widget data (%s)", { timeout: 120_000 }, (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let feeds: FakeServer;
  let owner: TestClient;
  let stranger: TestClient;
  let dashboardId: string;
  let integrationId: string;
  let strangersIntegration: string;
  // A Monday in winter: Europe/Berlin is UTC+1 all week, New York UTC-5.
  const time = { now: Date.parse("2026-11-30T06:00:00.000Z") };
  const appPassword = randomToken("nextcloud-app-password");

  beforeAll(async () => {
    feeds = await startFakeCalendars({
      clock: () => time.now,
      accounts: { anna: appPassword, viewer: "open-sesame" },
    });
    mode = await prepareMode(modeName);
    built = await mode.start(
      { rateLimitEnabled: false, upstream: upstreamConfig({ allowPrivate: ["127.0.0.1/32"] }) },
      { clock: () => time.now },
    );
    // The first user is the instance's admin, who may save an integration on the home network.
    owner = new TestClient(built.app);
    await owner.signUp("Owner");
    stranger = new TestClient(built.app);
    await stranger.signUp("Stranger");
    dashboardId = (await owner.post("/api/dashboards", { name: "Family" })).body.id;
    const nextcloud = await owner.post("/api/integrations", {
      kind: "ical",
      name: "Nextcloud",
      url: `${feeds.url}${FEEDS.nextcloud}`,
      allowPrivate: true,
      secrets: { username: "anna", password: appPassword },
    });
    expect(nextcloud.status, nextcloud.text).toBe(201);
    integrationId = nextcloud.body.id;
    const theirs = await stranger.post("/api/integrations", {
      kind: "ical",
      name: "Theirs",
      url: "https://calendar.example/theirs.ics",
    });
    expect(theirs.status, theirs.text).toBe(201);
    strangersIntegration = theirs.body.id;
  }, 180_000);
  afterAll(async () => {
    await mode.teardown();
    await feeds.close();
  });

  const place = async (config: object, client = owner, board = dashboardId) => {
    const res = await client.post("/api/widgets", {
      dashboardId: board,
      widgetType: "Calendar",
      height: 400,
      width: 300,
      positionX: 0,
      positionY: 0,
      config,
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };
  const data = async (widgetId: string, client = owner) => {
    const res = await client.get(`/api/widgets/data?id=${widgetId}`);
    expect(res.status, res.text).toBe(200);
    return res.body.data as CalendarData;
  };
  const typed = (path: string) => `${feeds.url}${path}`;

  it("expands Google, Nextcloud and Outlook feeds into one agenda, earliest first", async () => {
    const widgetId = await place({
      sources: [
        { id: "family", name: "Family", url: typed(FEEDS.google), color: "#ef4444" },
        { id: "work", name: "Work", url: typed(FEEDS.outlook) },
        { id: "personal", name: "Personal", integrationId },
      ],
      days: 7,
    });
    const { events, errors, truncated } = await data(widgetId);
    expect(errors).toEqual([]);
    expect(truncated).toEqual([]);
    expect(events.map((e) => [e.sourceId, e.title, e.start, e.end])).toEqual([
      // Yesterday's too: the start of yesterday in UTC is the earliest any reader's today begins.
      ["family", "Standup", "2026-11-29T08:30:00.000Z", "2026-11-29T08:45:00.000Z"],
      ["family", "Standup", "2026-11-30T08:30:00.000Z", "2026-11-30T08:45:00.000Z"],
      ["family", "Dentist", "2026-11-30T15:00:00.000Z", "2026-11-30T15:45:00.000Z"],
      ["family", "Anna's birthday", "2026-12-01", "2026-12-02"],
      ["family", "Standup", "2026-12-01T08:30:00.000Z", "2026-12-01T08:45:00.000Z"],
      // "(UTC-05:00) Eastern Time (US & Canada)", 10:00.
      ["work", "Call with New York", "2026-12-01T15:00:00.000Z", "2026-12-01T15:30:00.000Z"],
      ["personal", "Yoga", "2026-12-01T17:00:00.000Z", "2026-12-01T18:00:00.000Z"],
      // Floating 19:00, in the calendar's X-WR-TIMEZONE.
      ["family", "Dinner at Rosa's", "2026-12-01T18:00:00.000Z", "2026-12-01T20:30:00.000Z"],
      // The override Google wrote before its series: 09:30 moved to 11:00.
      ["family", "Standup (moved)", "2026-12-02T10:00:00.000Z", "2026-12-02T10:15:00.000Z"],
      // "W. Europe Standard Time", 14:00.
      ["work", "Quarterly review", "2026-12-02T13:00:00.000Z", "2026-12-02T14:30:00.000Z"],
      ["personal", "Conference", "2026-12-03", "2026-12-06"],
      // Thursday's is cancelled, Friday's an EXDATE.
      ["family", "Standup", "2026-12-05T08:30:00.000Z", "2026-12-05T08:45:00.000Z"],
      ["family", "Standup", "2026-12-06T08:30:00.000Z", "2026-12-06T08:45:00.000Z"],
    ]);
    expect(events.find((e) => e.title === "Quarterly review")).toMatchObject({
      allDay: false,
      location: "Room 4.12",
    });
    expect(events.find((e) => e.title === "Conference")).toMatchObject({
      allDay: true,
      location: "Messe Berlin, Hall 7",
    });
    // The integration's secrets went to Nextcloud as Basic auth, and nowhere else.
    const asked = feeds.calls("/remote.php/");
    expect(asked.at(-1)!.headers.authorization).toBe(
      `Basic ${Buffer.from(`anna:${appPassword}`).toString("base64")}`,
    );
    expect(feeds.calls("/calendar/").every((r) => r.headers.authorization === undefined)).toBe(true);
  });

  it("answers the days the widget asks for, a day or two months", async () => {
    const oneDay = await data(
      await place({ sources: [{ id: "f", name: "F", url: typed(FEEDS.google) }], days: 1 }),
    );
    expect(oneDay.events.map((e) => e.start)).toEqual([
      "2026-11-29T08:30:00.000Z",
      "2026-11-30T08:30:00.000Z",
      "2026-11-30T15:00:00.000Z",
      "2026-12-01",
    ]);
    const long = await data(
      await place({ sources: [{ id: "f", name: "F", url: typed(FEEDS.google) }], days: 60 }),
    );
    expect(long.events.filter((e) => e.title.startsWith("Standup")).length).toBe(59);
  });

  it("names each failing source, and why, beside the events of the others", async () => {
    const widgetId = await place({
      sources: [
        { id: "good", name: "Good", url: typed(FEEDS.outlook) },
        { id: "page", name: "Page", url: typed(FEEDS.login) },
        { id: "missing", name: "Missing", url: typed(FEEDS.missing) },
        { id: "huge", name: "Huge", url: typed(FEEDS.huge) },
        { id: "locked", name: "Locked", url: typed(FEEDS.nextcloud) },
        { id: "theirs", name: "Theirs", integrationId: strangersIntegration },
        { id: "moved", name: "Moved", url: typed(FEEDS.moved) },
      ],
    });
    const { events, errors } = await data(widgetId);
    expect(new Set(events.map((e) => e.sourceId))).toEqual(new Set(["good", "moved"]));
    const host = new URL(feeds.url).host;
    expect(errors.map((e) => [e.sourceId, e.reason])).toEqual([
      ["page", "not_calendar"],
      ["missing", "not_found"],
      ["huge", "too_large"],
      ["locked", "refused"],
      ["theirs", "integration"],
    ]);
    for (const error of errors.filter((e) => e.sourceId !== "theirs")) expect(error.detail).toContain(host);
    expect(errors[0]!.detail).toMatch(/web page/);
  });

  it("sends a user name and password typed into the address as Basic auth", async () => {
    const address = `${feeds.url.replace("http://", "http://viewer:open-sesame@")}${FEEDS.nextcloud}`;
    const { events, errors } = await data(await place({ sources: [{ id: "nc", name: "NC", url: address }] }));
    expect(errors).toEqual([]);
    expect(events.map((e) => e.title)).toContain("Yoga");
    expect(feeds.calls("/remote.php/").at(-1)!.headers.authorization).toBe(
      `Basic ${Buffer.from("viewer:open-sesame").toString("base64")}`,
    );
  });

  it("reads a feed once per freshness window, however many widgets show it", async () => {
    const config = { sources: [{ id: "w", name: "Work", url: typed(`${FEEDS.outlook}?shared`) }] };
    const [a, b] = [await place(config), await place(config)];
    const before = feeds.requests.length;
    await Promise.all([data(a), data(b), data(a)]);
    expect(feeds.requests.length - before).toBe(1);
    time.now += 10 * MINUTE + 1000;
    try {
      await data(b);
      expect(feeds.requests.length - before).toBe(2);
    } finally {
      time.now -= 10 * MINUTE + 1000;
    }
  });

  it("keeps typed addresses off the server's own network without an allow-list", async () => {
    const guarded = await mode.start({
      rateLimitEnabled: false,
      upstream: upstreamConfig({ allowPrivate: [] }),
    });
    const client = new TestClient(guarded.app);
    await client.signUp("Guarded");
    const board = (await client.post("/api/dashboards", { name: "Guarded" })).body.id;
    const widgetId = await place(
      { sources: [{ id: "x", name: "X", url: typed(FEEDS.google) }] },
      client,
      board,
    );
    const before = feeds.requests.length;
    const { events, errors } = await data(widgetId, client);
    expect(events).toEqual([]);
    expect(errors).toMatchObject([{ sourceId: "x", reason: "blocked" }]);
    expect(feeds.requests.length).toBe(before);
  });

  it("is 404 to someone who may not read the dashboard", async () => {
    const widgetId = await place({ sources: [{ id: "f", name: "F", url: typed(FEEDS.google) }] });
    expect((await stranger.get(`/api/widgets/data?id=${widgetId}`)).status).toBe(404);
    const empty = await place({});
    expect((await owner.get(`/api/widgets/data?id=${empty}`)).status).toBe(404);
  });

  it("shows visitors of a public dashboard the events, never the feeds' addresses", async () => {
    const board = (await owner.post("/api/dashboards", { name: "Club" })).body.id;
    const widgetId = await place(
      {
        sources: [
          { id: "secret", name: "Family", url: typed(FEEDS.google) },
          { id: "saved", name: "Personal", integrationId },
        ],
      },
      owner,
      board,
    );
    await owner.put("/api/dashboards", { id: board, name: "Club", isPublic: true });
    const visitor = new TestClient(built.app);
    const page = await visitor.get(`/api/public/dashboards/${board}`);
    expect(page.status, page.text).toBe(200);
    expect(page.text).not.toContain(FEEDS.google);
    const shown = page.body.widgets.find((w: { id: string }) => w.id === widgetId);
    expect(shown.config.sources).toEqual([
      { id: "secret", name: "Family" },
      { id: "saved", name: "Personal", integrationId },
    ]);
    const res = await visitor.get(`/api/public/dashboards/${board}/widgets/${widgetId}/data`);
    expect(res.status, res.text).toBe(200);
    expect(res.text).not.toContain(feeds.url);
    const { events, errors } = res.body.data as CalendarData;
    expect(errors).toEqual([]);
    expect(new Set(events.map((e) => e.sourceId))).toEqual(new Set(["secret", "saved"]));
    const legacy = await visitor.get(`/api/public/dashboards/${board}/widgets/${widgetId}/calendar`);
    expect(legacy.status).toBe(200);
    expect(legacy.body.events.length).toBe(events.length);
  });

  it("reminds before each timed event once, and never of all-day events", async () => {
    const widgetId = await place({
      sources: [
        { id: "family", name: "Family", url: typed(FEEDS.google) },
        { id: "work", name: "Work", url: typed(FEEDS.outlook) },
      ],
      remindMinutesBefore: 15,
    });
    const pass = async () => {
      const { fired } = await watchPassOn(built, [calendarReminderWatcher(built.ctx)]);
      return fired.filter((n) => n.userId === owner.user!.id).map((n) => n.message);
    };
    const start = time.now;
    try {
      // Today's standup is at 08:30Z: ten minutes to go.
      time.now = Date.parse("2026-11-30T08:20:00.000Z");
      expect(await pass()).toEqual(["Standup starts in 10 min"]);
      expect(await pass()).toEqual([]);
      time.now = Date.parse("2026-11-30T14:47:00.000Z");
      expect(await pass()).toEqual(["Dentist starts in 13 min"]);
      // Tomorrow's birthday begins at midnight, but an all-day event has no hour to remind before.
      time.now = Date.parse("2026-11-30T23:50:00.000Z");
      expect(await pass()).toEqual([]);
      const listed = await owner.get("/api/notifications");
      expect(listed.body.map((n: { message: string }) => n.message)).toEqual(
        expect.arrayContaining(["Standup starts in 10 min", "Dentist starts in 13 min"]),
      );
      // Switched off: nothing is watched.
      const off = await owner.put("/api/widgets", {
        id: widgetId,
        config: { sources: [{ id: "family", name: "Family", url: typed(FEEDS.google) }] },
      });
      expect(off.status, off.text).toBe(200);
      time.now = Date.parse("2026-12-02T08:20:00.000Z");
      expect(await pass()).toEqual([]);
    } finally {
      time.now = start;
    }
  });
});
