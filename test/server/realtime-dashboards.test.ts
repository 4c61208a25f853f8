import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SseClient, type SseEvent } from "../../bench/realtime/sse-client.js";
import { dashboardChannel, WATCHED_DASHBOARDS_MAX } from "../../src/contract/sharing.js";
import type { BuiltApp } from "../../src/server/app.js";
import { dashboardPresence } from "../../src/server/db/schema.js";
import { encodeRef } from "../../src/server/realtime/dashboard-events.js";
import { PresenceBoard } from "../../src/server/realtime/presence.js";
import { PRESENCE_STALE_MS } from "../../src/server/realtime/stream-hub.js";
import { TestClient } from "../support/client.js";
import { type ModeEnv, type ModeName, prepareMode } from "../support/modes.js";

const geometry = { height: 200, width: 300, positionX: 0, positionY: 0 };

/** The events of that name the stream received from `from` on, parsed. */
const received = (stream: SseClient, event: string, from = 0) =>
  stream.events
    .slice(from)
    .filter((e: SseEvent) => e.event === event)
    .map((e) => JSON.parse(e.data));

/** Waits for an event of that name (after `from`) that `matches`, and answers it. */
async function next(
  stream: SseClient,
  event: string,
  matches: (data: any) => boolean = () => true,
  from = 0,
) {
  let found: any;
  await stream.until(
    () => {
      found = received(stream, event, from).find(matches);
      return found !== undefined;
    },
    3000,
    event,
  );
  return found;
}

const presentIds = (data: any) => data.present.map((p: { userId: string }) => p.userId).sort();
const same = (ids: string[]) => (data: any) =>
  JSON.stringify(presentIds(data)) === JSON.stringify([...ids].sort());

/** Helpers over one or more app instances sharing a database and a bus. */
function harness(streams: SseClient[]) {
  async function signedIn(app: BuiltApp["app"], name: string) {
    const client = new TestClient(app);
    await client.signUp(name);
    return client;
  }
  async function board(
    owner: TestClient,
    members: { id: string; role: "viewer" | "editor" }[] = [],
    widget: [type: string, config: unknown] = ["Clock", {}],
  ) {
    const { dashboardId, widgetId } = await owner.addWidget(...widget);
    if (members.length > 0) await share(owner, dashboardId, members);
    return { dashboardId, widgetId };
  }
  async function share(owner: TestClient, dashboardId: string, members: { id: string; role: string }[]) {
    const res = await owner.put("/api/dashboards/members", {
      id: dashboardId,
      members: members.map((m) => ({ type: "user", ...m })),
    });
    expect(res.status, res.text).toBe(200);
  }
  async function watch(base: string, client: TestClient, dashboardIds: string[]) {
    const query = dashboardIds.map((id) => `dashboard=${id}`).join("&");
    const stream = await SseClient.open(`${base}/api/realtime?${query}`, { cookie: client.cookie! });
    streams.push(stream);
    return stream;
  }
  return { signedIn, board, share, watch };
}

describe.each(["embedded", "postgres+redis"] as ModeName[])("watching dashboards live (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let base: string;
  const clock = { t: Date.parse("2026-11-24T10:00:00.000Z") };
  const streams: SseClient[] = [];
  const { signedIn: signUp, board, watch: watchOn } = harness(streams);
  const signedIn = (name: string) => signUp(built.app, name);
  const watch = (client: TestClient, dashboardIds: string[]) => watchOn(base, client, dashboardIds);

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    built = await mode.start({ rateLimitEnabled: false }, { clock: () => clock.t });
    base = await built.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await mode.teardown();
  });

  it("sends an editor's widget and dashboard changes to every watcher, the writer's own tab too, with by and clientId", async () => {
    const ada = await signedIn("Ada");
    const bob = await signedIn("Bob");
    const cy = await signedIn("Cy");
    const { dashboardId, widgetId } = await board(ada, [
      { id: bob.user!.id, role: "editor" },
      { id: cy.user!.id, role: "viewer" },
    ]);
    const viewer = await watch(cy, [dashboardId]);
    const writer = await watch(bob, [dashboardId]);
    const owner = await watch(ada, [dashboardId]);
    expect([viewer.status, writer.status, owner.status]).toEqual([200, 200, 200]);
    // Each stream is live once its presence list names it.
    await next(owner, "presence", same([ada.user!.id, bob.user!.id, cy.user!.id]));
    await next(viewer, "presence", same([ada.user!.id, bob.user!.id, cy.user!.id]));
    await next(writer, "presence", same([ada.user!.id, bob.user!.id, cy.user!.id]));

    const put = await bob.put("/api/widgets", { id: widgetId, positionX: 40 }, { "x-client-id": "tab-1" });
    expect(put.status).toBe(200);
    const by = { id: bob.user!.id, name: "Bob" };
    for (const stream of [viewer, writer, owner]) {
      const event = await next(stream, "widget.updated");
      expect(event).toEqual({ dashboardId, data: put.body, by, clientId: "tab-1" });
    }

    const created = await bob.post(
      "/api/widgets",
      { dashboardId, widgetType: "Clock", ...geometry, config: {} },
      { "x-client-id": "tab-1" },
    );
    expect(await next(viewer, "widget.created")).toEqual({
      dashboardId,
      data: created.body,
      by,
      clientId: "tab-1",
    });
    // No X-Client-Id (or one that is not a plain token): null, so no tab mistakes it for its own.
    expect(
      (await bob.delete(`/api/widgets?id=${created.body.id}`, { "x-client-id": "not a token" })).status,
    ).toBe(200);
    expect(await next(viewer, "widget.deleted")).toEqual({
      dashboardId,
      data: { id: created.body.id, dashboardId },
      by,
      clientId: null,
    });

    // The dashboard as each watcher would read it: their own access, and the owner when not theirs.
    const renamed = await bob.put(
      "/api/dashboards",
      { id: dashboardId, name: "Renamed" },
      { "x-client-id": "tab-1" },
    );
    expect(renamed.status).toBe(200);
    const seen = {
      viewer: await next(viewer, "dashboard.updated"),
      writer: await next(writer, "dashboard.updated"),
      owner: await next(owner, "dashboard.updated"),
    };
    expect(seen.writer).toEqual({ dashboardId, data: renamed.body, by, clientId: "tab-1" });
    expect(seen.viewer.data).toEqual((await cy.get(`/api/dashboards?id=${dashboardId}`)).body[0]);
    expect(seen.viewer.data).toMatchObject({
      name: "Renamed",
      access: "viewer",
      owner: { id: ada.user!.id },
    });
    expect(seen.owner.data).toEqual((await ada.get(`/api/dashboards?id=${dashboardId}`)).body[0]);
    expect(seen.owner.data.access).toBe("owner");
    expect(seen.owner.data).not.toHaveProperty("owner");
    // Never replayed: no ids on dashboard events.
    expect(
      viewer.events.filter((e) => e.event !== "notification.created").every((e) => e.id === undefined),
    ).toBe(true);
  });

  it("answers 404 before any stream for a dashboard the caller may not read, and 400 past the limit", async () => {
    const ada = await signedIn("Ada");
    const eve = await signedIn("Eve");
    const { dashboardId } = await board(ada);
    const own = await board(eve);
    for (const ids of [
      [dashboardId],
      [own.dashboardId, dashboardId],
      ["0190a0a0-0000-7000-8000-000000000000"],
    ]) {
      const query = ids.map((id) => `dashboard=${id}`).join("&");
      const res = await eve.get(`/api/realtime?${query}`);
      expect(res.status, query).toBe(404);
      expect(res.headers["content-type"]).toMatch(/application\/problem\+json/);
      expect(res.body.code).toBe("not_found");
      const stream = await watch(eve, ids);
      expect(stream.status).toBe(404);
      await stream.closed;
      expect(stream.events).toEqual([]);
    }

    const many: string[] = [];
    for (let i = 0; i <= WATCHED_DASHBOARDS_MAX; i++)
      many.push((await ada.post("/api/dashboards", { name: `B${i}` })).body.id);
    const tooMany = await ada.get(`/api/realtime?${many.map((id) => `dashboard=${id}`).join("&")}`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.code).toBe("validation_failed");
    expect((await ada.get("/api/realtime?dashboard=not-a-uuid")).status).toBe(400);
    const ten = await watch(ada, many.slice(0, WATCHED_DASHBOARDS_MAX));
    expect(ten.status).toBe(200);
    await next(ten, "presence", (data) => data.dashboardId === many[WATCHED_DASHBOARDS_MAX - 1]);
    // A repeated id is watched once.
    const twice = await watch(ada, [dashboardId, dashboardId.toUpperCase()]);
    expect(twice.status).toBe(200);
    await next(twice, "presence");
    await ada.put("/api/dashboards", { id: dashboardId, name: "Once" });
    await next(twice, "dashboard.updated");
    const marker = await ada.post("/api/notifications", { type: "message", message: "marker" });
    await next(twice, "notification.created", (n) => n.id === marker.body.id);
    expect(received(twice, "dashboard.updated")).toHaveLength(1);
  });

  it("shows who is watching and editing, on join, on POST /api/dashboards/presence and on leave", async () => {
    const ada = await signedIn("Ada");
    const bob = await signedIn("Bob");
    const eve = await signedIn("Eve");
    const { dashboardId, widgetId } = await board(ada, [{ id: bob.user!.id, role: "viewer" }]);
    const adaStream = await watch(ada, [dashboardId]);
    const first = await next(adaStream, "presence");
    expect(first).toEqual({
      dashboardId,
      present: [{ userId: ada.user!.id, name: "Ada", image: null, editing: null }],
    });

    const bobStream = await watch(bob, [dashboardId]);
    const both = [ada.user!.id, bob.user!.id];
    await next(adaStream, "presence", same(both));
    const seenByBob = await next(bobStream, "presence", same(both));
    expect(seenByBob.present.map((p: { name: string }) => p.name)).toEqual(["Ada", "Bob"]);
    // A second tab of Bob's does not make him present twice.
    const bobAgain = await watch(bob, [dashboardId]);
    expect((await next(bobAgain, "presence")).present).toHaveLength(2);

    const mark = adaStream.events.length;
    const said = await bob.post("/api/dashboards/presence", { id: dashboardId, editing: widgetId });
    expect(said.status).toBe(200);
    expect(said.body.present).toContainEqual({
      userId: bob.user!.id,
      name: "Bob",
      image: null,
      editing: widgetId,
    });
    const editing = await next(
      adaStream,
      "presence",
      (d) => d.present.some((p: { editing: string | null }) => p.editing === widgetId),
      mark,
    );
    expect(editing.present).toEqual(said.body.present);
    await bob.post("/api/dashboards/presence", { id: dashboardId, editing: null });
    await next(
      adaStream,
      "presence",
      (d) => d.present.every((p: { editing: unknown }) => p.editing === null),
      mark,
    );

    expect((await eve.post("/api/dashboards/presence", { id: dashboardId, editing: null })).status).toBe(404);
    expect((await bob.post("/api/dashboards/presence", { id: dashboardId, editing: "x" })).status).toBe(400);

    // Bob is present while any of his streams watches.
    bobStream.close();
    bobAgain.close();
    await next(adaStream, "presence", same([ada.user!.id]), mark);
  });

  it("leaves out presence rows no instance keeps fresh, refreshes its own, and deletes the stale", async () => {
    const ada = await signedIn("Ada");
    const ghost = await signedIn("Ghost");
    const { dashboardId } = await board(ada, [{ id: ghost.user!.id, role: "viewer" }]);
    const { db } = built.ctx.database;
    const presence = new PresenceBoard(db, built.ctx.bus, pino({ level: "silent" }), PRESENCE_STALE_MS);
    // A stream of an instance that died, last seen ten minutes ago.
    const streamId = randomUUID();
    await presence.join(streamId, ghost.user!.id, [dashboardId]);
    const age = (minutes: number) =>
      db
        .update(dashboardPresence)
        .set({ seenAt: sql`now() - ${minutes}::int * interval '1 minute'` })
        .where(eq(dashboardPresence.streamId, streamId));
    await age(10);
    expect((await presence.list(dashboardId)).present).toEqual([]);
    await presence.refresh([streamId]);
    expect((await presence.list(dashboardId)).present.map((p) => p.name)).toEqual(["Ghost"]);

    const adaStream = await watch(ada, [dashboardId]);
    await next(adaStream, "presence", same([ada.user!.id, ghost.user!.id]));
    await age(10);
    await presence.expire();
    expect(await db.select().from(dashboardPresence).where(eq(dashboardPresence.streamId, streamId))).toEqual(
      [],
    );
    await next(adaStream, "presence", same([ada.user!.id]));
  });

  it("stops a removed member's watch at once: access.changed null once, then nothing more of that board", async () => {
    const ada = await signedIn("Ada");
    const bob = await signedIn("Bob");
    const { dashboardId, widgetId } = await board(ada, [{ id: bob.user!.id, role: "viewer" }]);
    const other = await board(ada, [{ id: bob.user!.id, role: "viewer" }]);
    const adaStream = await watch(ada, [dashboardId]);
    const bobStream = await watch(bob, [dashboardId, other.dashboardId]);
    await next(adaStream, "presence", same([ada.user!.id, bob.user!.id]));
    await next(bobStream, "presence", (d) => d.dashboardId === other.dashboardId);

    expect((await ada.put("/api/dashboards/members", { id: dashboardId, members: [] })).status).toBe(200);
    const lost = await next(bobStream, "access.changed");
    expect(lost).toEqual({ dashboardId, access: null });
    const mark = bobStream.events.length;
    await next(adaStream, "presence", same([ada.user!.id]));

    // An edit after it reaches Ada, not Bob; Bob's other board and notifications still flow.
    await ada.put("/api/widgets", { id: widgetId, positionX: 7 });
    await next(adaStream, "widget.updated", (d) => d.data.positionX === 7);
    await ada.put("/api/widgets", { id: other.widgetId, positionX: 8 });
    await next(bobStream, "widget.updated", (d) => d.data.id === other.widgetId, mark);
    const marker = await bob.post("/api/notifications", { type: "message", message: "after" });
    await next(bobStream, "notification.created", (n) => n.id === marker.body.id);
    expect(received(bobStream, "widget.updated", mark).map((d) => d.dashboardId)).toEqual([
      other.dashboardId,
    ]);
    expect(received(bobStream, "presence", mark).every((d) => d.dashboardId === other.dashboardId)).toBe(
      true,
    );
    expect(received(bobStream, "access.changed")).toEqual([{ dashboardId, access: null }]);
    expect(bobStream.ended).toBe(false);

    // Sharing again is told too (a new watch of the board is the client's to open).
    await ada.put("/api/dashboards/members", {
      id: dashboardId,
      members: [{ type: "user", id: bob.user!.id, role: "editor" }],
    });
    expect(await next(bobStream, "access.changed", (d) => d.access !== null)).toEqual({
      dashboardId,
      access: "editor",
    });
  });

  it("tells watchers of a deleted dashboard that it is gone", async () => {
    const ada = await signedIn("Ada");
    const bob = await signedIn("Bob");
    const { dashboardId } = await board(ada, [{ id: bob.user!.id, role: "editor" }]);
    const bobStream = await watch(bob, [dashboardId]);
    const adaStream = await watch(ada, [dashboardId]);
    await next(bobStream, "presence", same([ada.user!.id, bob.user!.id]));
    expect((await ada.delete(`/api/dashboards?id=${dashboardId}`)).status).toBe(200);
    for (const stream of [bobStream, adaStream])
      expect(await next(stream, "access.changed")).toEqual({ dashboardId, access: null });
  });

  it("folds a restore into dashboard.updated and dashboard.restored, sent once to the restorer's watching tab", async () => {
    const ada = await signedIn("Ada");
    const bob = await signedIn("Bob");
    const { dashboardId, widgetId } = await board(ada, [{ id: bob.user!.id, role: "viewer" }]);
    await ada.post("/api/widgets", { dashboardId, widgetType: "Clock", ...geometry, config: {} });
    clock.t += 61_000;
    await ada.delete(`/api/widgets?id=${widgetId}`);
    const [, before] = (await ada.get(`/api/dashboards/versions?id=${dashboardId}`)).body;
    const bobStream = await watch(bob, [dashboardId]);
    const adaStream = await watch(ada, [dashboardId]);
    await next(bobStream, "presence", same([ada.user!.id, bob.user!.id]));
    await next(adaStream, "presence", same([ada.user!.id, bob.user!.id]));

    clock.t += 1_000;
    const restored = await ada.post(
      "/api/dashboards/restore",
      { id: dashboardId, versionId: before.id },
      { "x-client-id": "tab-r" },
    );
    expect(restored.status).toBe(200);
    const by = { id: ada.user!.id, name: "Ada" };
    for (const stream of [bobStream, adaStream]) {
      const event = await next(stream, "dashboard.restored");
      expect(event).toEqual({ dashboardId, data: { dashboardId }, by, clientId: "tab-r" });
    }
    const marker = await ada.post("/api/notifications", { type: "message", message: "after restore" });
    await next(adaStream, "notification.created", (n) => n.id === marker.body.id);
    const names = adaStream.events
      .map((e) => e.event)
      .filter((e) => e !== "presence" && e !== "notification.created");
    expect(names).toEqual(["dashboard.updated", "dashboard.restored"]);
    expect(received(bobStream, "dashboard.updated")[0].data.access).toBe("viewer");
  });

  it("completes an event whose payload the bus dropped from storage, with its author and tab", async () => {
    const ada = await signedIn("Ada");
    const bob = await signedIn("Bob");
    const { dashboardId, widgetId } = await board(ada, [{ id: bob.user!.id, role: "viewer" }]);
    const stream = await watch(bob, [dashboardId]);
    await next(stream, "presence");
    const origin = { by: { id: ada.user!.id, name: "Ada" }, clientId: "tab-7" };
    const channel = dashboardChannel(dashboardId);
    // As PostgreSQL NOTIFY delivers a message over its size limit: the id without the data.
    await built.ctx.bus.publish(channel, { event: "widget.updated", id: encodeRef(widgetId, origin) });
    const stored = (await bob.get(`/api/widgets?dashboardId=${dashboardId}`)).body[0];
    expect(await next(stream, "widget.updated")).toEqual({
      dashboardId,
      data: stored,
      by: origin.by,
      clientId: "tab-7",
    });
    // One whose record is gone by then is skipped; presence is read again.
    await built.ctx.bus.publish(channel, {
      event: "widget.updated",
      id: encodeRef("0190a0a0-0000-7000-8000-000000000000", origin),
    });
    await built.ctx.bus.publish(channel, { event: "presence", id: dashboardId });
    await ada.put("/api/widgets", { id: widgetId, positionX: 99 });
    await next(stream, "widget.updated", (d) => d.data.positionX === 99);
    expect(received(stream, "widget.updated")).toHaveLength(2);
  });
});

/** Two app instances on one database and bus, each listening on its own port. */
async function twoInstances(mode: ModeEnv) {
  const instances: { built: BuiltApp; base: string }[] = [];
  for (let i = 0; i < 2; i++) {
    const built = await mode.start({ rateLimitEnabled: false });
    instances.push({ built, base: await built.app.listen({ port: 0, host: "127.0.0.1" }) });
  }
  return instances as [(typeof instances)[0], (typeof instances)[0]];
}

describe.each(["postgres+redis", "postgres"] as ModeName[])(
  "watching dashboards across instances (%s)",
  (modeName) => {
    let mode: ModeEnv;
    let one: { built: BuiltApp; base: string };
    let two: { built: BuiltApp; base: string };
    const streams: SseClient[] = [];
    const { signedIn, board, watch } = harness(streams);

    beforeAll(async () => {
      mode = await prepareMode(modeName);
      [one, two] = await twoInstances(mode);
    });
    afterAll(async () => {
      for (const stream of streams) stream.close();
      await mode.teardown();
    });

    it("an edit on instance one reaches a watcher on instance two; presence and removal cross too", async () => {
      const ada = await signedIn(one.built.app, "Ada");
      const bob = await signedIn(one.built.app, "Bob");
      const { dashboardId, widgetId } = await board(
        ada,
        [{ id: bob.user!.id, role: "viewer" }],
        ["Editor", { notes: [] }],
      );
      const bobOnTwo = await watch(two.base, bob, [dashboardId]);
      const adaOnOne = await watch(one.base, ada, [dashboardId]);
      const both = same([ada.user!.id, bob.user!.id]);
      await next(bobOnTwo, "presence", both);
      await next(adaOnOne, "presence", both);

      const put = await ada.put("/api/widgets", { id: widgetId, positionX: 12 }, { "x-client-id": "tab-a" });
      expect(await next(bobOnTwo, "widget.updated")).toEqual({
        dashboardId,
        data: put.body,
        by: { id: ada.user!.id, name: "Ada" },
        clientId: "tab-a",
      });

      // Too large for a NOTIFY payload: instance two loads it from the database.
      const markdown = "x".repeat(9000);
      const big = await ada.put(
        "/api/widgets",
        { id: widgetId, config: { notes: [{ id: "n1", title: "Big", markdown, updatedAt: "" }] } },
        { "x-client-id": "tab-a" },
      );
      expect(big.status).toBe(200);
      expect(await next(bobOnTwo, "widget.updated", (d) => d.data.revision === big.body.revision)).toEqual({
        dashboardId,
        data: big.body,
        by: { id: ada.user!.id, name: "Ada" },
        clientId: "tab-a",
      });

      const bobsEditor = new TestClient(two.built.app);
      bobsEditor.cookie = bob.cookie;
      expect(
        (await bobsEditor.post("/api/dashboards/presence", { id: dashboardId, editing: widgetId })).status,
      ).toBe(200);
      await next(adaOnOne, "presence", (d) =>
        d.present.some((p: { editing: unknown }) => p.editing === widgetId),
      );

      expect((await ada.put("/api/dashboards/members", { id: dashboardId, members: [] })).status).toBe(200);
      expect(await next(bobOnTwo, "access.changed")).toEqual({ dashboardId, access: null });
      await next(adaOnOne, "presence", same([ada.user!.id]));
    });
  },
);
