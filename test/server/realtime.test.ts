import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SseClient } from "../../bench/realtime/sse-client.js";
import type { BuiltApp } from "../../src/server/app.js";
import { TestClient } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";

const post = (client: TestClient, message: string, type = "message") =>
  client.post("/api/notifications", { type, message });

const ids = (stream: SseClient) => stream.events.map((e) => e.id);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(MODES)("realtime notifications (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let base: string;
  const streams: SseClient[] = [];

  /** Opens a stream over real HTTP and remembers it, so every test leaves no socket behind. */
  async function open(path: string, headers: Record<string, string>) {
    const stream = await SseClient.open(base + path, headers);
    streams.push(stream);
    return stream;
  }
  const openFor = (client: TestClient, path = "/api/realtime", headers: Record<string, string> = {}) =>
    open(path, { cookie: client.cookie!, ...headers });

  async function signedIn(name = "Ada") {
    const client = new TestClient(built.app);
    const credentials = await client.signUp(name);
    return { client, credentials };
  }

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    built = await mode.start({ rateLimitEnabled: false });
    base = await built.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await mode.teardown();
  });

  it("delivers a created notification within 1 s, with its id, name and the GET /api/notifications payload", async () => {
    const { client } = await signedIn();
    const stream = await openFor(client);
    expect(stream.status).toBe(200);
    expect(stream.res.headers["content-type"]).toMatch(/^text\/event-stream/);
    expect(stream.res.headers["cache-control"]).toBe("no-cache");
    expect(stream.res.headers["x-accel-buffering"]).toBe("no");
    // The hijacked stream writes its own head; the security headers set before still go with it.
    expect(stream.res.headers["x-content-type-options"]).toBe("nosniff");
    expect(stream.res.headers["content-security-policy"]).toMatch(/frame-ancestors 'none'/);
    await stream.until(() => stream.retry !== null, 1000, "retry");
    expect(stream.retry).toBe(3000);

    const sentAt = Date.now();
    const created = await post(client, "Build finished", "alert");
    expect(created.status).toBe(201);
    const [event] = await stream.waitForEvents(1, 1000);
    expect(Date.now() - sentAt).toBeLessThan(1000);
    expect(event!.id).toBe(created.body.id);
    expect(event!.event).toBe("notification.created");
    const listed = await client.get("/api/notifications");
    expect(listed.body[0]).toEqual(created.body);
    // Byte for byte what the list endpoint returns, key order included.
    expect(event!.data).toBe(JSON.stringify(listed.body[0]));
  });

  it("accepts the session as a bearer token", async () => {
    const { client } = await signedIn();
    const stream = await open("/api/realtime", { authorization: `Bearer ${client.sessionToken}` });
    expect(stream.status).toBe(200);
    const created = await post(client, "hello bearer");
    await stream.waitForEvents(1, 1000);
    expect(stream.events[0]!.id).toBe(created.body.id);
  });

  it("answers 401 problem+json without a valid session", async () => {
    const anonymous = new TestClient(built.app);
    const attempts: Record<string, string>[] = [
      {},
      { authorization: "Bearer nope" },
      { cookie: "session=forged.AAAA" },
    ];
    for (const headers of attempts) {
      const res = await anonymous.get("/api/realtime", headers);
      expect(res.status).toBe(401);
      expect(res.headers["content-type"]).toMatch(/application\/problem\+json/);
      expect(res.body.code).toBe("unauthenticated");
    }
    const stream = await open("/api/realtime", {});
    expect(stream.status).toBe(401);
  });

  it("caps the streams one user holds open, and frees a place when one closes", async () => {
    const { client } = await signedIn("Tabs");
    const cap = built.ctx.config.limits.streams;
    const held = [];
    for (let i = 0; i < cap; i++) held.push(await openFor(client));
    expect(held.every((s) => s.status === 200)).toBe(true);
    const refused = await client.get("/api/realtime");
    expect(refused.status).toBe(429);
    expect(refused.headers["content-type"]).toMatch(/application\/problem\+json/);
    expect(refused.body.code).toBe("too_many_streams");
    expect(refused.headers["retry-after"]).toBeDefined();
    // Another user is not affected by this one's streams.
    expect((await openFor((await signedIn("Other")).client)).status).toBe(200);
    held.pop()!.close();
    // The server learns of the close from the socket; ask until it has.
    let again = await openFor(client);
    for (let tries = 0; again.status !== 200 && tries < 50; tries++) {
      again.close();
      await new Promise((resolve) => setImmediate(resolve));
      again = await openFor(client);
    }
    expect(again.status).toBe(200);
    for (const stream of held) stream.close();
  });

  it("keeps users apart: B never sees A's events and gets 403 for A's channel", async () => {
    const a = await signedIn("Alice");
    const b = await signedIn("Bob");
    const forbidden = await b.client.get(`/api/realtime?channel=user-${a.client.user!.id}`);
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers["content-type"]).toMatch(/application\/problem\+json/);
    expect(forbidden.body.code).toBe("forbidden");
    const forbiddenStream = await openFor(b.client, `/api/realtime?channel=user-${a.client.user!.id}`);
    expect(forbiddenStream.status).toBe(403);

    const streamA = await openFor(a.client, `/api/realtime?channel=user-${a.client.user!.id}`);
    const streamB = await openFor(b.client);
    for (let i = 0; i < 3; i++) await post(a.client, `for Alice ${i}`);
    const forBob = await post(b.client, "for Bob");
    await streamA.waitForEvents(3, 1000);
    await streamB.waitForEvents(1, 1000);
    await sleep(200);
    expect(ids(streamB)).toEqual([forBob.body.id]);
    expect(streamA.events).toHaveLength(3);
    expect(streamA.events.every((e) => JSON.parse(e.data).userId === a.client.user!.id)).toBe(true);
  });

  it("answers 400 for a malformed channel or Last-Event-ID", async () => {
    const { client } = await signedIn();
    const bad = [
      "/api/realtime?channel=",
      "/api/realtime?channel=user-",
      "/api/realtime?channel=user-123",
      `/api/realtime?channel=${encodeURIComponent(`user-${client.user!.id}/../x`)}`,
      `/api/realtime?channel=team-${client.user!.id}`,
      "/api/realtime?lastEventId=42",
    ];
    for (const url of bad) {
      const res = await client.get(url);
      expect(res.status, url).toBe(400);
      expect(res.body.code, url).toBe("validation_failed");
    }
    const header = await client.get("/api/realtime", { "last-event-id": "not-an-id" });
    expect(header.status).toBe(400);
  });

  it("replays exactly the missed events in order after Last-Event-ID, then live ones", async () => {
    const { client } = await signedIn();
    const first = await openFor(client);
    const seen = [await post(client, "one"), await post(client, "two")];
    await first.waitForEvents(2, 1000);
    first.close();
    await first.closed;

    const missed = [];
    for (const text of ["three", "four", "five"]) missed.push((await post(client, text)).body.id);
    const again = await openFor(client, "/api/realtime", { "last-event-id": first.events[1]!.id! });
    await again.waitForEvents(3, 1000);
    const live = await post(client, "six");
    await again.waitForEvents(4, 1000);
    await sleep(200);
    expect(ids(again)).toEqual([...missed, live.body.id]);
    expect(seen.map((r) => r.body.id)).toEqual(ids(first));

    // The query parameter does the same for clients that cannot set headers; the header wins.
    const byQuery = await openFor(client, `/api/realtime?lastEventId=${missed[1]}`);
    await byQuery.waitForEvents(2, 1000);
    expect(ids(byQuery)).toEqual([missed[2], live.body.id]);
    const both = await openFor(client, `/api/realtime?lastEventId=${missed[0]}`, {
      "last-event-id": missed[2]!,
    });
    await both.waitForEvents(1, 1000);
    await sleep(200);
    expect(ids(both)).toEqual([live.body.id]);
  });

  it("leaves no gap and no duplicate at the seam while notifications keep arriving", async () => {
    const { client } = await signedIn();
    const before = (await post(client, "before")).body.id;
    const posting = Promise.all(Array.from({ length: 20 }, (_, i) => post(client, `burst ${i}`)));
    const stream = await openFor(client, "/api/realtime", { "last-event-id": before });
    const created = (await posting).map((r) => r.body.id as string);
    await stream.waitForEvents(20, 2000);
    await sleep(300);
    expect(ids(stream).sort()).toEqual([...created].sort());
    expect(new Set(ids(stream)).size).toBe(20);
  });

  it("delivers a notification too large for a NOTIFY payload in full", async () => {
    const { client } = await signedIn();
    const stream = await openFor(client);
    // 2000 control characters: valid input, but over 12 kB once JSON-escaped.
    const created = await post(client, "\u0001".repeat(2000));
    expect(created.status).toBe(201);
    await stream.waitForEvents(1, 1000);
    expect(JSON.parse(stream.events[0]!.data)).toEqual(created.body);
  });

  it("ends the stream of a signed-out session and keeps the user's other sessions streaming", async () => {
    const { client, credentials } = await signedIn();
    const other = new TestClient(built.app);
    expect((await other.post("/api/auth/sign-in/email", credentials)).status).toBe(200);
    const leaving = await openFor(client);
    const staying = await openFor(other);
    await post(client, "before sign-out");
    await leaving.waitForEvents(1, 1000);
    await staying.waitForEvents(1, 1000);

    expect((await client.post("/api/auth/sign-out", {})).status).toBe(200);
    await leaving.until(() => leaving.ended, 2000, "the signed-out stream to end");
    const after = await post(other, "after sign-out");
    await staying.waitForEvents(2, 1000);
    expect(staying.events[1]!.id).toBe(after.body.id);
    expect(staying.ended).toBe(false);
  });

  it("keeps streams open across DELETE /api/notifications; a reconnect does not bring deleted ones back", async () => {
    const { client } = await signedIn();
    const stream = await openFor(client);
    const old = await post(client, "soon deleted");
    await stream.waitForEvents(1, 1000);
    expect((await client.delete("/api/notifications")).status).toBe(200);
    const fresh = await post(client, "after delete");
    // The clearing is announced to the user's streams (other devices empty their lists), then the new one.
    await stream.waitForEvents(3, 1000);
    expect(stream.events[1]!.event).toBe("notifications.cleared");
    expect(stream.events[2]!.id).toBe(fresh.body.id);
    expect(stream.ended).toBe(false);

    const replay = await openFor(client, "/api/realtime", {
      "last-event-id": "00000000-0000-7000-8000-000000000000",
    });
    await replay.waitForEvents(1, 1000);
    await sleep(200);
    expect(ids(replay)).toEqual([fresh.body.id]);
    expect(ids(replay)).not.toContain(old.body.id);
  });

  it("ends open streams promptly when the app closes", async () => {
    const other = await mode.start();
    const otherBase = await other.app.listen({ port: 0, host: "127.0.0.1" });
    const client = new TestClient(other.app);
    await client.signUp();
    const stream = await SseClient.open(`${otherBase}/api/realtime`, { cookie: client.cookie! });
    streams.push(stream);
    expect(stream.status).toBe(200);
    const started = Date.now();
    await other.close();
    expect(Date.now() - started).toBeLessThan(2000);
    await stream.until(() => stream.ended, 1000, "the stream to end");
  });

  it("documents the stream in the OpenAPI document", async () => {
    const { client } = await signedIn();
    const doc = (await client.get("/api/openapi.json")).body;
    const op = doc.paths["/api/realtime"].get;
    expect(op.tags).toEqual(["Realtime"]);
    expect(op.description).toContain("notification.created");
    expect(Object.keys(op.responses["200"].content)).toEqual(["text/event-stream"]);
    for (const status of ["400", "401", "403"]) expect(op.responses[status]).toBeDefined();
    expect(doc.paths["/api/realtime"].head).toBeUndefined();
  });
});
