import type { ServerResponse } from "node:http";
import { Writable } from "node:stream";
import pino from "pino";
import { uuidv7 } from "uuidv7";
import { describe, expect, it } from "vitest";
import type { Notification } from "../../src/contract/resources.js";
import { openDatabase } from "../../src/server/db/client.js";
import { createSqlNotificationStore } from "../../src/server/notifications/stores/sql.js";
import { createMemoryBus } from "../../src/server/realtime/memory-bus.js";
import { MAX_BACKLOG_BYTES, SseStream } from "../../src/server/realtime/sse-stream.js";

/** Stands in for the HTTP response of a client: one that reads everything, or one that reads nothing. */
class FakeResponse extends Writable {
  text = "";
  constructor(private readonly stalled: boolean) {
    super({ highWaterMark: 16 * 1024, decodeStrings: false });
  }
  override _write(chunk: string, _encoding: BufferEncoding, done: () => void) {
    if (this.stalled) return; // never acknowledged: the client stopped reading
    this.text += chunk;
    done();
  }
  writeHead() {
    return this;
  }
}

describe("a realtime stream", () => {
  it("drops a client that stopped reading once its backlog passes the bound, without slowing the others", async () => {
    const database = await openDatabase({ databaseUrl: null, pgliteDir: "memory://" });
    await database.migrate();
    const store = createSqlNotificationStore(database.db);
    const bus = createMemoryBus();
    const userId = uuidv7();
    const ended: string[] = [];
    const open = (name: string, res: FakeResponse) => {
      const stream = new SseStream(res as unknown as ServerResponse, {
        userId,
        since: uuidv7(),
        credentials: {},
        sessionExpiresAt: Date.now() + 60_000,
        bus,
        store,
        log: pino({ level: "silent" }),
        onEnd: () => ended.push(name),
      });
      return stream.start({});
    };
    const healthy = new FakeResponse(false);
    const stalled = new FakeResponse(true);
    await open("healthy", healthy);
    await open("stalled", stalled);

    const count = Math.ceil((2 * MAX_BACKLOG_BYTES) / 2100);
    for (let i = 0; i < count; i++) {
      const n: Notification = {
        id: uuidv7(),
        userId,
        type: "message",
        message: "x".repeat(2000),
        createdAt: new Date().toISOString(),
      };
      await bus.publish(`user-${userId}`, { event: "notification.created", id: n.id, data: n });
      await new Promise((resolve) => setImmediate(resolve));
    }

    expect(ended).toEqual(["stalled"]);
    expect(stalled.destroyed).toBe(true);
    expect(stalled.writableLength).toBeLessThanOrEqual(MAX_BACKLOG_BYTES + 16 * 1024);
    expect(healthy.text.match(/^event: notification\.created$/gm)).toHaveLength(count);
    await bus.close();
    await database.close();
  });

  it("sends a heartbeat comment, and ends the stream once its session has expired", async () => {
    const bus = createMemoryBus();
    const res = new FakeResponse(false);
    const expiresAt = Date.now() + 60_000;
    let ended = false;
    const stream = new SseStream(res as unknown as ServerResponse, {
      userId: uuidv7(),
      since: uuidv7(),
      credentials: {},
      sessionExpiresAt: expiresAt,
      bus,
      store: { after: async () => [] } as any,
      log: pino({ level: "silent" }),
      onEnd: () => {
        ended = true;
      },
    });
    await stream.start({});
    expect(res.text).toBe("retry: 3000\n\n");
    stream.heartbeat(expiresAt - 1);
    expect(res.text).toBe("retry: 3000\n\n: keep-alive\n\n");
    expect(ended).toBe(false);
    stream.heartbeat(expiresAt);
    expect(ended).toBe(true);
    await bus.close();
  });
});
