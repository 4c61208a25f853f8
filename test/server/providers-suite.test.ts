import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { FakeGoogle } from "../fakes/google.js";
import { providersConfig, seedAccount } from "../fakes/oauth-accounts.js";
import { signedInClient } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";

describe.each(MODES)("suite provider data (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let google: FakeGoogle;

  beforeAll(async () => {
    google = await FakeGoogle.start();
    mode = await prepareMode(modeName);
    built = await mode.start({
      providers: providersConfig({
        google: { api: google.url, token: google.url, authority: google.authority },
      }),
    });
  });
  afterAll(async () => {
    await mode.teardown();
    await google.server.close();
  });

  async function linked() {
    const client = await signedInClient(built.app);
    await seedAccount(built, client.user!.id, "suite", google.authority);
    return client;
  }

  it("answers 404 account_not_connected on every suite endpoint when nothing is linked", async () => {
    const client = await signedInClient(built.app);
    const urls = [
      "/api/providers/suite/mail/labels",
      "/api/providers/suite/mail/messages",
      `/api/providers/suite/mail/messages/${google.messages[0]!.id}`,
      "/api/providers/suite/calendars",
      "/api/providers/suite/events",
    ];
    for (const url of urls) {
      const res = await client.get(url);
      expect(res.status, url).toBe(404);
      expect(res.body.code, url).toBe("account_not_connected");
    }
    const post = await client.post("/api/providers/suite/events", {
      calendarId: "primary",
      title: "x",
      start: "2030-01-01T10:00:00.000Z",
      end: "2030-01-01T11:00:00.000Z",
    });
    expect(post.status).toBe(404);
    expect(post.body.code).toBe("account_not_connected");
  });

  it("lists labels", async () => {
    const client = await linked();
    const res = await client.get("/api/providers/suite/mail/labels");
    expect(res.status).toBe(200);
    expect(res.body).toContainEqual({ id: "Label_7", name: "Work Stuff", type: "user" });
    expect(res.body).toContainEqual({ id: "INBOX", name: "INBOX", type: "system" });
  });

  it("lists inbox messages page by page with sender, subject, snippet, date, unread and labels", async () => {
    const client = await linked();
    const inbox = google.messages.filter((m) => m.labels.includes("INBOX"));
    const first = await client.get("/api/providers/suite/mail/messages?pageSize=20");
    expect(first.status).toBe(200);
    expect(first.body.messages).toHaveLength(20);
    expect(first.body.resultSizeEstimate).toBe(inbox.length);
    expect(first.body.nextPageToken).toBe("o20");
    const m0 = first.body.messages[0];
    expect(m0).toEqual({
      id: inbox[0]!.id,
      threadId: inbox[0]!.id,
      from: { name: "", email: "ada0@example.test" },
      subject: "Subject 0",
      snippet: "Snippet 0 & more 'quoted'",
      date: new Date(inbox[0]!.internalDate).toISOString(),
      unread: true,
      labels: ["INBOX", "UNREAD"],
    });
    expect(first.body.messages[1].from).toEqual({ name: "Grace Hopper", email: "grace1@navy.test" });
    expect(first.body.messages[1].unread).toBe(false);

    const ids = new Set<string>(first.body.messages.map((m: { id: string }) => m.id));
    let token = first.body.nextPageToken;
    while (token) {
      const next = await client.get(`/api/providers/suite/mail/messages?pageSize=20&pageToken=${token}`);
      expect(next.status).toBe(200);
      for (const m of next.body.messages) ids.add(m.id);
      token = next.body.nextPageToken;
    }
    expect(ids.size).toBe(inbox.length);
    const metadataCall = google.server
      .calls("/gmail/v1/users/me/messages/")
      .find((r) => r.query.get("format") === "metadata");
    expect(metadataCall!.query.getAll("metadataHeaders")).toEqual(["From", "Subject", "Date"]);
  });

  it("shows the union of several labels through one search", async () => {
    const client = await linked();
    const res = await client.get("/api/providers/suite/mail/messages?labels=INBOX,Label_7&pageSize=50");
    expect(res.status).toBe(200);
    const expected = google.messages.filter(
      (m) => m.labels.includes("INBOX") || m.labels.includes("Label_7"),
    );
    expect(res.body.messages).toHaveLength(expected.length);
    const list = google.server
      .calls("/gmail/v1/users/me/messages")
      .filter((r) => r.path === "/gmail/v1/users/me/messages");
    expect(list.at(-1)!.query.get("q")).toBe("{in:inbox label:work-stuff}");

    const unknown = await client.get("/api/providers/suite/mail/messages?labels=INBOX,Label_999");
    expect(unknown.status).toBe(400);
  });

  it("rejects bad paging and label parameters before calling Google", async () => {
    const client = await linked();
    const before = google.server.requests.length;
    for (const url of [
      "/api/providers/suite/mail/messages?pageSize=0",
      "/api/providers/suite/mail/messages?pageSize=51",
      "/api/providers/suite/mail/messages?pageSize=ten",
      "/api/providers/suite/mail/messages?labels=INBOX%26q%3Dx",
      "/api/providers/suite/mail/messages?pageToken=a%20b",
      "/api/providers/suite/mail/messages/..%2Flabels",
      "/api/providers/suite/events?days=61",
      "/api/providers/suite/events?calendars=a%2Fb",
      // Dots alone would step out of the calendar's place in Google's URL, encoded or not.
      "/api/providers/suite/events?calendars=..",
      "/api/providers/suite/events?calendars=primary,.",
    ]) {
      const res = await client.get(url);
      expect(res.status, url).toBe(400);
      expect(res.body.code, url).toBe("validation_failed");
    }
    const dotted = await client.post("/api/providers/suite/events", {
      calendarId: "..",
      title: "x",
      start: new Date(Date.now() + 3_600_000).toISOString(),
      end: new Date(Date.now() + 7_200_000).toISOString(),
    });
    expect(dotted.status).toBe(400);
    expect(google.server.requests.length).toBe(before);
  });

  it("returns one message with its HTML body sanitized", async () => {
    const client = await linked();
    const res = await client.get(`/api/providers/suite/mail/messages/${google.messages[0]!.id}`);
    expect(res.status).toBe(200);
    const html: string = res.body.html;
    expect(html).toContain("<b>Ada</b>");
    expect(html).not.toMatch(
      /<script|alert\('x'\)|onerror|onclick|onmouseover|javascript:|<iframe|<form|<input|<style|url\(/i,
    );
    expect(html).not.toContain("http://insecure.test");
    expect(html).toContain('src="https://cdn.example.test/logo.png"');
    expect(html).toMatch(
      /<a href="https:\/\/example.test\/read" target="_blank" rel="noopener noreferrer">good link<\/a>/,
    );
    expect(html).toContain('style="color:red"');
    expect(res.body.to).toBe("me@example.test");
    expect(res.body.subject).toBe("Subject 0");

    const plain = await client.get(`/api/providers/suite/mail/messages/${google.messages[1]!.id}`);
    expect(plain.body.html).toBe("<p>Plain &lt;text&gt; body</p>\n<p>second paragraph</p>");

    const missing = await client.get("/api/providers/suite/mail/messages/ffffffffffffffff");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("not_found");
  });

  it("lists every calendar across pages", async () => {
    const client = await linked();
    const res = await client.get("/api/providers/suite/calendars");
    expect(res.status).toBe(200);
    expect(res.body.map((c: { id: string }) => c.id)).toEqual(["primary", "team@group.calendar.google.com"]);
    expect(res.body[0]).toMatchObject({
      primary: true,
      writable: true,
      color: "#9fe1e7",
      accessRole: "owner",
    });
    expect(res.body[1]).toMatchObject({ name: "Team", writable: false });
  });

  it("lists upcoming timed events across calendars, recurring ones expanded, all-day and past ones left out", async () => {
    const client = await linked();
    const res = await client.get("/api/providers/suite/events");
    expect(res.status).toBe(200);
    const titles = res.body.events.map((e: { title: string }) => e.title);
    expect(titles).toEqual(["Design review", "Standup", "Standup", "Standup"]);
    const starts = res.body.events.map((e: { start: string }) => e.start);
    expect([...starts].sort()).toEqual(starts);
    expect(res.body.events[0]).toMatchObject({
      calendarId: "team@group.calendar.google.com",
      meetUrl: "https://meet.google.com/aaa-bbbb-ccc",
      location: "Room 1",
    });
    const call = google.server.calls("/calendar/v3/calendars/primary/events").at(-1)!;
    expect(call.query.get("singleEvents")).toBe("true");
    expect(call.query.get("orderBy")).toBe("startTime");
    expect(Math.abs(Date.parse(call.query.get("timeMin")!) - Date.now())).toBeLessThan(60_000);

    const onlyPrimary = await client.get("/api/providers/suite/events?calendars=primary&limit=2");
    expect(onlyPrimary.body.events.map((e: { id: string }) => e.id)).toEqual(["standup_0", "standup_1"]);

    const soon = await client.get("/api/providers/suite/events?days=1");
    expect(soon.body.events.map((e: { id: string }) => e.id)).toEqual(["review", "standup_0"]);
  });

  it("creates an event with a Meet link, and the next listing shows it", async () => {
    const client = await linked();
    await client.get("/api/providers/suite/events?calendars=primary"); // cached now
    const start = new Date(Date.now() + 5 * 3_600_000).toISOString();
    const end = new Date(Date.now() + 6 * 3_600_000).toISOString();
    const res = await client.post("/api/providers/suite/events", {
      calendarId: "primary",
      title: "Pairing",
      start,
      end,
      location: "Online",
      meet: true,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: "Pairing",
      start,
      end,
      meetUrl: "https://meet.google.com/new-meet-xyz",
    });
    const sent = google.server
      .calls("/calendar/v3/calendars/primary/events")
      .filter((r) => r.method === "POST")
      .at(-1)!;
    expect(sent.query.get("conferenceDataVersion")).toBe("1");
    expect(sent.json().conferenceData.createRequest.conferenceSolutionKey).toEqual({ type: "hangoutsMeet" });

    const after = await client.get("/api/providers/suite/events?calendars=primary");
    expect(after.body.events.map((e: { title: string }) => e.title)).toContain("Pairing");

    const noMeet = await client.post("/api/providers/suite/events", {
      calendarId: "primary",
      title: "Solo",
      start,
      end,
    });
    expect(noMeet.status).toBe(201);
    expect(noMeet.body.meetUrl).toBeNull();
  });

  it("sends calendar ids to Google as one encoded path segment", async () => {
    const client = await linked();
    await client.get("/api/providers/suite/events?calendars=team%40group.calendar.google.com");
    expect(
      google.server.calls("/calendar/v3/calendars/team%40group.calendar.google.com/events").length,
    ).toBeGreaterThan(0);
    // Unencoded, `#` would end the path (the rest a fragment Google never sees) and `/` would add a step.
    const res = await client.post("/api/providers/suite/events", {
      calendarId: "x#holiday@group.v.calendar.google.com",
      title: "Holiday",
      start: "2030-01-01T10:00:00.000Z",
      end: "2030-01-01T11:00:00.000Z",
    });
    expect(res.status).toBe(201);
    const sent = google.server.requests.filter((r) => r.method === "POST").at(-1)!;
    expect(sent.path).toBe("/calendar/v3/calendars/x%23holiday%40group.v.calendar.google.com/events");
  });

  it("rejects an event that ends before it starts, and a cross-site create", async () => {
    const client = await linked();
    const posts = google.server.requests.filter((r) => r.method === "POST").length;
    const bad = await client.post("/api/providers/suite/events", {
      calendarId: "primary",
      title: "Backwards",
      start: "2030-01-01T11:00:00.000Z",
      end: "2030-01-01T10:00:00.000Z",
    });
    expect(bad.status).toBe(400);
    const cross = await client.post(
      "/api/providers/suite/events",
      {
        calendarId: "primary",
        title: "x",
        start: "2030-01-01T10:00:00.000Z",
        end: "2030-01-01T11:00:00.000Z",
      },
      { origin: "https://evil.example" },
    );
    expect(cross.status).toBe(403);
    expect(google.server.requests.filter((r) => r.method === "POST").length).toBe(posts);
  });

  it("serves repeated and concurrent requests from one upstream call", async () => {
    const client = await linked();
    const before = google.server.calls("/gmail/v1/users/me/labels").length;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => client.get("/api/providers/suite/mail/labels")),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    await client.get("/api/providers/suite/mail/labels");
    expect(google.server.calls("/gmail/v1/users/me/labels").length - before).toBe(1);
  });
});
