import { createHash } from "node:crypto";
import pg from "pg";
import type { BusMessage, EventBus } from "./bus.js";
import { Subscriptions } from "./subscriptions.js";

/** NOTIFY payloads must be shorter than 8000 bytes. */
const MAX_PAYLOAD_BYTES = 7999;
const MAX_BACKOFF_MS = 5000;
export const LISTENER_NAME = "tessera-realtime";

/**
 * LISTEN/NOTIFY names are identifiers (at most 63 bytes, case-folded unless quoted), and ours
 * carry user ids, so each channel gets a fixed-length name derived from a hash.
 */
export function pgChannelName(channel: string): string {
  return `tessera_${createHash("sha256").update(channel).digest("hex").slice(0, 40)}`;
}

/**
 * PostgreSQL LISTEN/NOTIFY, for PostgreSQL deployments without Redis. One dedicated connection
 * per instance listens (a pooled one would be handed to other queries); publishing goes through
 * the pool. The listener reconnects by itself with backoff and LISTENs again.
 */
export function createPostgresBus(url: string, pool: pg.Pool): EventBus {
  const byPgName = new Map<string, string>();
  const resyncCallbacks = new Set<() => void>();
  let closed = false;
  let current: pg.Client | null = null;
  let wakeEarly: (() => void) | null = null;

  const subscriptions = new Subscriptions({
    async listen(channel) {
      const name = pgChannelName(channel);
      byPgName.set(name, channel);
      await run(`LISTEN "${name}"`);
    },
    async unlisten(channel) {
      const name = pgChannelName(channel);
      if (!subscriptions.has(channel)) byPgName.delete(name);
      await run(`UNLISTEN "${name}"`);
    },
  });

  // One statement at a time on the listening connection (pg does not queue them for us), in the
  // order they were asked for, so an UNLISTEN never overtakes the LISTEN after it.
  let queue: Promise<unknown> = Promise.resolve();
  function run(statement: string) {
    const result = queue.then(async () => (await connected).query(statement));
    queue = result.catch(() => {});
    return result;
  }

  function onNotification(notification: pg.Notification) {
    const channel = byPgName.get(notification.channel);
    if (channel === undefined || notification.payload === undefined) return;
    let message: BusMessage;
    try {
      message = JSON.parse(notification.payload);
    } catch {
      return;
    }
    subscriptions.dispatch(channel, message);
  }

  /** Resolves with a connected client that LISTENs on every channel in use. */
  async function connect(attempt = 0): Promise<pg.Client> {
    if (closed) throw new Error("The realtime bus is closed");
    // Named so operators (and tests) can tell the listening connection apart in pg_stat_activity.
    const client = new pg.Client({ connectionString: url, keepAlive: true, application_name: LISTENER_NAME });
    client.on("error", () => {}); // followed by "end", which reconnects
    try {
      await client.connect();
      for (const channel of subscriptions.names()) await client.query(`LISTEN "${pgChannelName(channel)}"`);
    } catch {
      await client.end().catch(() => {});
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(100 * 2 ** attempt, MAX_BACKOFF_MS));
        wakeEarly = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      return connect(attempt + 1);
    }
    client.on("notification", onNotification);
    client.once("end", () => {
      current = null;
      if (closed) return;
      connected = connect();
      connected.then(
        () => {
          for (const callback of resyncCallbacks) callback();
        },
        () => {},
      );
    });
    current = client;
    return client;
  }

  let connected = connect();
  connected.catch(() => {});

  return {
    async publish(channel, message) {
      let payload = JSON.stringify(message);
      if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
        if (!message.id) throw new Error(`Bus message on ${channel} is too large and has no id`);
        // Too big for NOTIFY: listeners get the id and load the rest from storage.
        payload = JSON.stringify({ event: message.event, id: message.id });
      }
      await pool.query("SELECT pg_notify($1, $2)", [pgChannelName(channel), payload]);
    },
    subscribe: (channel, listener) => subscriptions.add(channel, listener),
    onResync(callback) {
      resyncCallbacks.add(callback);
      return () => resyncCallbacks.delete(callback);
    },
    async close() {
      closed = true;
      wakeEarly?.(); // a pending reconnect then gives up, failing whoever waits on it
      subscriptions.clear();
      resyncCallbacks.clear();
      await current?.end().catch(() => {});
    },
  };
}
