import { eq } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SseClient } from "../../bench/realtime/sse-client.js";
import type { ApiKeyScope } from "../../src/contract/operators.js";
import type { Notification } from "../../src/contract/resources.js";
import type { BuiltApp } from "../../src/server/app.js";
import { settings } from "../../src/server/db/schema.js";
import { signedInClient, TestClient } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";
import { expectProblem } from "../support/problems.js";
import { registerSecret } from "../support/secrets.js";

/**
 * The notifications read mark and single dismissal (issue 35): one mark per user on the server,
 * shared by every device and only ever moving forward; each change reaches the user's other
 * streams live, on any instance.
 */
describe.each(MODES)("notification read mark and dismissal (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  /** Where the "other device" streams from: a second instance where the mode can have one. */
  let otherBase: string;
  const streams: SseClient[] = [];

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    built = await mode.start({ rateLimitEnabled: false });
    const other = modeName === "embedded" ? built : await mode.start({ rateLimitEnabled: false });
    otherBase = await other.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await mode.teardown();
  });

  async function withNotifications(client: TestClient, count: number): Promise<Notification[]> {
    const made: Notification[] = [];
    for (let i = 0; i < count; i++) {
      const res = await client.post("/api/notifications", { type: "message", message: `note ${i}` });
      expect(res.status, res.text).toBe(201);
      made.push(res.body);
    }
    return made;
  }
  const mark = async (client: TestClient) => {
    const res = await client.get("/api/notifications/read");
    expect(res.status, res.text).toBe(200);
    return res.body.readUpTo as string | null;
  };
  const ids = async (client: TestClient) =>
    (await client.get<Notification[]>("/api/notifications")).body.map((n) => n.id);

  /** The same user signed in a second time: another device, with a session of its own. */
  async function secondDevice(client: TestClient, email: string, password: string) {
    const device = new TestClient(client.app);
    const res = await device.post("/api/auth/sign-in/email", { email, password });
    expect(res.status, res.text).toBe(200);
    return device;
  }
  async function streamOf(client: TestClient) {
    const stream = await SseClient.open(`${otherBase}/api/realtime`, { cookie: client.cookie! });
    streams.push(stream);
    expect(stream.status).toBe(200);
    // `retry` comes before the subscription is live: callers wait for a notification made after
    // this to arrive before relying on the stream.
    return stream;
  }
  const stateEvents = (stream: SseClient) => stream.events.filter((e) => e.event !== "notification.created");

  it("marks read up to an id, for every device: GET, bootstrap and the answer agree", async () => {
    const client = await signedInClient(built.app, "Reader");
    expect(await mark(client)).toBeNull();
    expect((await client.get("/api/bootstrap")).body.notificationsReadUpTo).toBeNull();
    const [, second] = await withNotifications(client, 3);

    const res = await client.put("/api/notifications/read", { upTo: second!.id });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ readUpTo: second!.id });
    expect(await mark(client)).toBe(second!.id);
    expect((await client.get("/api/bootstrap")).body.notificationsReadUpTo).toBe(second!.id);
    // The Settings resource is as the spec has it: the mark is not one of its fields.
    const [stored] = (await client.get("/api/settings")).body;
    expect(Object.keys(stored)).not.toContain("notificationsReadId");
    // An uppercase id is the same id.
    const upper = await client.put("/api/notifications/read", { upTo: second!.id.toUpperCase() });
    expect(upper.body).toEqual({ readUpTo: second!.id });
  });

  it("only moves the mark forward, whatever order two devices send theirs in", async () => {
    const client = await signedInClient(built.app, "Racer");
    const made = await withNotifications(client, 6);
    await client.put("/api/notifications/read", { upTo: made[3]!.id });
    const back = await client.put("/api/notifications/read", { upTo: made[1]!.id });
    expect(back.status).toBe(200);
    expect(back.body).toEqual({ readUpTo: made[3]!.id });
    expect(await mark(client)).toBe(made[3]!.id);

    // Every order at once: the newest wins.
    const shuffled = [made[5], made[0], made[4], made[2]].map((n) => n!.id);
    const answers = await Promise.all(
      shuffled.map((upTo) => client.put("/api/notifications/read", { upTo })),
    );
    for (const answer of answers) expect(answer.status).toBe(200);
    expect(await mark(client)).toBe(made[5]!.id);
  });

  it("makes the settings row when the user has none yet", async () => {
    const client = await signedInClient(built.app, "Rowless");
    const [n] = await withNotifications(client, 1);
    await built.ctx.database.db.delete(settings).where(eq(settings.userId, client.user!.id));
    const res = await client.put("/api/notifications/read", { upTo: n!.id });
    expect(res.status, res.text).toBe(200);
    expect(await mark(client)).toBe(n!.id);
    const listed = await client.get("/api/settings");
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0].onboardingCompleted).toBe(false);
  });

  it("dismisses one notification, and answers 404 for one already gone", async () => {
    const client = await signedInClient(built.app, "Dismisser");
    const made = await withNotifications(client, 3);
    const res = await client.delete(`/api/notifications/${made[1]!.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual(made[1]);
    expect(await ids(client)).toEqual([made[2]!.id, made[0]!.id]);
    expectProblem(await client.delete(`/api/notifications/${made[1]!.id}`), 404, "not_found");
    expectProblem(await client.delete(`/api/notifications/${uuidv7()}`), 404, "not_found");
    expect(await ids(client)).toEqual([made[2]!.id, made[0]!.id]);
  });

  it("answers 404 for another user's notification and leaves it alone", async () => {
    const owner = await signedInClient(built.app, "Owner");
    const stranger = await signedInClient(built.app, "Stranger");
    const [n] = await withNotifications(owner, 1);
    expectProblem(await stranger.delete(`/api/notifications/${n!.id}`), 404, "not_found");
    expect(await ids(owner)).toEqual([n!.id]);
    // Marking another user's id read marks only one's own (nothing of the owner's changes).
    await stranger.put("/api/notifications/read", { upTo: n!.id });
    expect(await mark(owner)).toBeNull();
  });

  it("refuses bad input with 400 and writes nothing", async () => {
    const client = await signedInClient(built.app, "Careless");
    const made = await withNotifications(client, 2);
    await client.put("/api/notifications/read", { upTo: made[0]!.id });
    const before = await client.snapshot();

    for (const id of ["not-a-uuid", "123", `${made[1]!.id}x`, "%00"]) {
      const res = await client.delete(`/api/notifications/${id}`);
      expectProblem(res, 400, "validation_failed");
    }
    const farFuture = `${(Date.now() + 86_400_000)
      .toString(16)
      .padStart(12, "0")
      .replace(/^(.{8})(.{4})$/, "$1-$2")}-7000-8000-000000000000`;
    const bodies: unknown[] = [
      {},
      { upTo: "" },
      { upTo: "yesterday" },
      { upTo: 42 },
      { upTo: null },
      // A random (v4) UUID is no notification id; ffff… would mark everything read for ever.
      { upTo: "3b241101-e2bb-4255-8caf-4136c566a962" },
      { upTo: "ffffffff-ffff-7fff-bfff-ffffffffffff" },
      { upTo: farFuture },
      [made[1]!.id],
    ];
    for (const body of bodies) {
      const res = await client.put("/api/notifications/read", body);
      expectProblem(res, 400, "validation_failed");
    }
    const broken = await client.request({
      method: "PUT",
      url: "/api/notifications/read",
      payload: "{",
      headers: { "content-type": "application/json" },
    });
    expectProblem(broken, 400, "invalid_json");
    expect(await client.snapshot()).toEqual(before);
    expect(await mark(client)).toBe(made[0]!.id);
  });

  it("refuses a notifications:write key to read the mark, mark read or dismiss; a write key may", async () => {
    const client = await signedInClient(built.app, "Scripted");
    const [n] = await withNotifications(client, 1);
    const keyOf = async (scopes: ApiKeyScope[]) => {
      const res = await client.post("/api/keys", { name: scopes.join(" "), scopes });
      expect(res.status, res.text).toBe(201);
      registerSecret(res.body.key);
      return { authorization: `Bearer ${res.body.key}`, origin: "" };
    };
    const notify = await keyOf(["notifications:write"]);
    const asKey = new TestClient(built.app);
    // It may still do the one thing it is for.
    expect((await asKey.post("/api/notifications", { type: "alert", message: "cron" }, notify)).status).toBe(
      201,
    );
    const before = await ids(client);
    expectProblem(await asKey.get("/api/notifications/read", notify), 403, "insufficient_scope");
    expectProblem(
      await asKey.put("/api/notifications/read", { upTo: n!.id }, notify),
      403,
      "insufficient_scope",
    );
    expectProblem(await asKey.delete(`/api/notifications/${n!.id}`, notify), 403, "insufficient_scope");
    expectProblem(await asKey.delete("/api/notifications", notify), 403, "insufficient_scope");
    expect(await ids(client)).toEqual(before);
    expect(await mark(client)).toBeNull();

    const write = await keyOf(["write"]);
    expect((await asKey.put("/api/notifications/read", { upTo: n!.id }, write)).body).toEqual({
      readUpTo: n!.id,
    });
    expect((await asKey.delete(`/api/notifications/${n!.id}`, write)).status).toBe(200);
  });

  it("tells the user's other devices live, and nobody else", async () => {
    const signUp = new TestClient(built.app);
    const { email, password } = await signUp.signUp("Roaming");
    const laptop = signUp;
    const phone = await secondDevice(laptop, email, password);
    const stranger = await signedInClient(built.app, "Bystander");
    const phoneStream = await streamOf(phone);
    const strangerStream = await streamOf(stranger);
    const first = await stranger.post("/api/notifications", { type: "message", message: "mine" });
    await strangerStream.waitForEvents(1, 5000);

    // A notification made now arrives: from here on the phone's stream hears the channel.
    const made = await withNotifications(laptop, 3);
    await phoneStream.until(
      () => phoneStream.events.filter((e) => e.event === "notification.created").length === 3,
      5000,
      "the three notifications",
    );

    await laptop.put("/api/notifications/read", { upTo: made[1]!.id });
    await phoneStream.until(() => stateEvents(phoneStream).length >= 1, 5000, "the read mark");
    // A mark that does not move is not announced: the next event is the dismissal.
    await laptop.put("/api/notifications/read", { upTo: made[0]!.id });
    await laptop.delete(`/api/notifications/${made[2]!.id}`);
    await phoneStream.until(() => stateEvents(phoneStream).length >= 2, 5000, "the dismissal");
    await laptop.delete("/api/notifications");
    await phoneStream.until(() => stateEvents(phoneStream).length >= 3, 5000, "the clearing");

    const events = stateEvents(phoneStream);
    expect(events.map(({ event, data }) => ({ event, data: JSON.parse(data) }))).toEqual([
      { event: "notifications.read", data: { readUpTo: made[1]!.id } },
      { event: "notification.dismissed", data: { id: made[2]!.id } },
      { event: "notifications.cleared", data: {} },
    ]);
    // Not replayable: no event id, so a reconnect's Last-Event-ID stays the last notification's.
    expect(events.every((e) => e.id === undefined)).toBe(true);

    // The stranger's stream, live all along, heard nothing of it: its own next one comes next.
    const second = await stranger.post("/api/notifications", { type: "message", message: "mine too" });
    await strangerStream.waitForEvents(2, 5000);
    expect(strangerStream.events.map((e) => e.id)).toEqual([first.body.id, second.body.id]);
  });
});
