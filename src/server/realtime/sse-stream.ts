import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { FastifyBaseLogger } from "fastify";
import {
  DASHBOARD_RESTORED,
  NOTIFICATION_CREATED,
  NOTIFICATION_DISMISSED,
  NOTIFICATIONS_CLEARED,
  NOTIFICATIONS_READ,
  NOTIFICATIONS_RETAINED,
  userChannel,
} from "../../contract/notifications.js";
import type { Notification } from "../../contract/resources.js";
import { ACCESS_CHANGED, ACCESS_LEVELS, type Access } from "../../contract/sharing.js";
import { presentNotification } from "../notifications/service.js";
import type { NotificationStore } from "../notifications/stores/store.js";
import type { BusMessage, EventBus } from "./bus.js";
import type { DashboardWatch, WatchSink } from "./dashboard-watch.js";

/** How long EventSource waits before reconnecting after the stream ends. */
export const RETRY_MS = 3000;
/** A client that stopped reading is dropped once this much is queued for it. */
export const MAX_BACKLOG_BYTES = 256 * 1024;
/** Waits before each new attempt when reading the store fails (about 6 s in all). */
const CATCH_UP_RETRY_MS = [200, 400, 800, 1600, 3000];
/** Live events held while catching up from storage; more than this means something is stuck. */
const MAX_PENDING = 1000;

export interface StreamOptions {
  userId: string;
  /** Send retained notifications with an id above this one: Last-Event-ID, or the connection time. */
  since: string;
  /** What the session was resolved from, to check it again when the user's sessions are revoked. */
  credentials: { cookie?: string; authorization?: string };
  sessionExpiresAt: number;
  bus: EventBus;
  store: Pick<NotificationStore, "after">;
  log: FastifyBaseLogger;
  onEnd(stream: SseStream): void;
  /** The dashboards the stream watches (`?dashboard=`), writing to it. */
  watch?: (sink: WatchSink) => DashboardWatch;
  /** Counts each event written, by name (metrics, when they are on). */
  delivered?: (event: string) => void;
}

/** An SSE chunk's event name: `event: <name>` on its first line or after its `id:` line. */
const EVENT_NAME = /^(?:id: [^\n]*\n)?event: ([^\n]+)/;

const isAccess = (value: unknown): value is Access | null =>
  value === null || (ACCESS_LEVELS as readonly unknown[]).includes(value);

/** The client's payload of a notification-state event for `userId`; null for anything else. */
function notificationState(message: BusMessage, userId: string): object | null {
  const data = message.data as { userId?: unknown; readUpTo?: unknown; id?: unknown } | undefined;
  if (data?.userId !== userId) return null;
  if (message.event === NOTIFICATIONS_READ && typeof data.readUpTo === "string")
    return { readUpTo: data.readUpTo };
  if (message.event === NOTIFICATION_DISMISSED && typeof data.id === "string") return { id: data.id };
  if (message.event === NOTIFICATIONS_CLEARED) return {};
  return null;
}

/**
 * One Server-Sent Events connection. Live events from the bus and retained ones from the store
 * meet here: the stream subscribes first, holds live events while it reads the store, and sends
 * each notification id once, so a reconnect loses nothing and repeats nothing at the seam.
 */
export class SseStream {
  readonly userId: string;
  readonly credentials: StreamOptions["credentials"];
  readonly watch: DashboardWatch | null;
  /** Ids already sent, newest last; the store keeps no more than this many to replay anyway. */
  private readonly sent = new Set<string>();
  /** Live events waiting while a catch-up reads the store; null when events flow straight through. */
  private pending: Notification[] | null = [];
  private catchingUp = false;
  private catchUpAgain = false;
  private failedCatchUps = 0;
  private unsubscribe: () => void = () => {};
  private ended = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly options: StreamOptions,
  ) {
    this.userId = options.userId;
    this.credentials = options.credentials;
    this.watch = options.watch?.({ write: (chunk) => this.write(chunk), end: () => this.end() }) ?? null;
    res.on("close", () => this.end());
  }

  async start(headers: OutgoingHttpHeaders) {
    this.res.writeHead(200, headers);
    this.write(`retry: ${RETRY_MS}\n\n`);
    try {
      const unsubscribe = await this.options.bus.subscribe(userChannel(this.userId), (message) =>
        this.receive(message),
      );
      if (this.ended) return unsubscribe();
      this.unsubscribe = unsubscribe;
      await this.watch?.start();
      await this.catchUp();
    } catch (error) {
      // The client reconnects with Last-Event-ID and catches up then.
      this.options.log.warn({ err: error }, "realtime stream could not start");
      this.end();
    }
  }

  /**
   * Sends what the store holds beyond `since` that this stream has not sent yet, then the live
   * events that arrived meanwhile. Runs at start and whenever the bus may have missed messages.
   */
  async catchUp(): Promise<void> {
    if (this.ended) return;
    if (this.catchingUp) {
      this.catchUpAgain = true;
      return;
    }
    this.catchingUp = true;
    this.pending ??= [];
    try {
      do {
        this.catchUpAgain = false;
        const missed = await this.options.store.after(this.userId, this.options.since);
        for (const notification of missed) this.send(notification);
      } while (this.catchUpAgain && !this.ended);
      const held = this.pending ?? [];
      this.pending = null;
      for (const notification of held) this.send(notification);
      this.failedCatchUps = 0;
    } catch (error) {
      // The store's connection may come back a moment after the bus's (Redis fails fast while it
      // reconnects): try again with a backoff, and only then let the client reconnect.
      if (this.failedCatchUps < CATCH_UP_RETRY_MS.length) {
        const delay = CATCH_UP_RETRY_MS[this.failedCatchUps++]!;
        this.options.log.debug({ err: error, delay }, "realtime catch-up failed; retrying");
        setTimeout(() => void this.catchUp(), delay).unref();
      } else {
        this.options.log.warn({ err: error }, "realtime catch-up failed; closing the stream");
        this.end();
      }
    } finally {
      this.catchingUp = false;
    }
  }

  /** A comment line that keeps proxies from timing the connection out; also ends expired sessions. */
  heartbeat(now: number) {
    if (now >= this.options.sessionExpiresAt) this.end();
    else this.write(": keep-alive\n\n");
  }

  /** Ends the stream; `abort` drops the connection without flushing what is queued. */
  end(abort = false) {
    if (this.ended) return;
    this.ended = true;
    this.unsubscribe();
    this.watch?.end();
    this.options.onEnd(this);
    const res = this.res;
    if (abort || res.writableLength > 0 || res.destroyed) res.destroy();
    // The socket goes too: an idle keep-alive socket would hold up server shutdown. Held here, as
    // a finished response lets go of its socket (its destroy() then leaves the socket open).
    else {
      const socket = res.socket;
      res.end(() => socket?.destroy());
    }
  }

  private receive(message: BusMessage) {
    // Sharing changed what the user may do with a dashboard: live only, like the hint below.
    if (message.event === ACCESS_CHANGED) {
      const data = message.data as { dashboardId?: unknown; access?: unknown } | undefined;
      if (typeof data?.dashboardId !== "string" || !isAccess(data.access)) return;
      if (this.watch && !this.watch.accessChanged(data.dashboardId, data.access)) return;
      this.write(
        `event: ${ACCESS_CHANGED}\ndata: ${JSON.stringify({ dashboardId: data.dashboardId, access: data.access })}\n\n`,
      );
      return;
    }
    // A hint to reload, not a record: sent live only, never replayed. A stream watching the
    // dashboard gets it from the dashboard's channel instead, with who restored it.
    if (message.event === DASHBOARD_RESTORED) {
      const data = message.data as { userId?: string; dashboardId?: string } | undefined;
      if (data?.userId === this.userId && !(data.dashboardId && this.watch?.watches(data.dashboardId)))
        this.write(
          `event: ${DASHBOARD_RESTORED}\ndata: ${JSON.stringify({ dashboardId: data.dashboardId })}\n\n`,
        );
      return;
    }
    // Another device read, dismissed or cleared: state, not records, so live only like the hint above.
    const state = notificationState(message, this.userId);
    if (state) return this.write(`event: ${message.event}\ndata: ${JSON.stringify(state)}\n\n`);
    if (message.event !== NOTIFICATION_CREATED || typeof message.id !== "string") return;
    // Sent without its payload (too big for the bus): the store has it.
    if (message.data === undefined) return void this.catchUp();
    const notification = message.data as Notification;
    if (notification.userId !== this.userId) return;
    if (!this.pending) return this.send(notification);
    if (this.pending.length >= MAX_PENDING) return this.end(true);
    this.pending.push(notification);
  }

  private send(n: Notification) {
    if (this.ended || this.sent.has(n.id)) return;
    if (this.sent.size >= NOTIFICATIONS_RETAINED) this.sent.delete(this.sent.values().next().value!);
    this.sent.add(n.id);
    // Exactly what GET /api/notifications answers for it.
    const data = JSON.stringify(presentNotification(n));
    this.write(`id: ${n.id}\nevent: ${NOTIFICATION_CREATED}\ndata: ${data}\n\n`);
  }

  private write(chunk: string) {
    if (this.ended) return;
    this.res.write(chunk);
    if (this.options.delivered) {
      const event = EVENT_NAME.exec(chunk)?.[1];
      if (event) this.options.delivered(event);
    }
    // A stalled client costs at most this much memory, and never slows the others.
    if (this.res.writableLength > MAX_BACKLOG_BYTES) {
      this.options.log.info({ userId: this.userId }, "realtime client too slow; dropping its connection");
      this.end(true);
    }
  }
}
