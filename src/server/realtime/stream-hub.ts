import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { FastifyBaseLogger } from "fastify";
import type { AppContext } from "../context.js";
import { DashboardFeeds } from "./dashboard-feeds.js";
import { DashboardWatch, type Watched } from "./dashboard-watch.js";
import { HeartbeatRing } from "./heartbeat-ring.js";
import { PresenceBoard } from "./presence.js";
import { SseStream, type StreamOptions } from "./sse-stream.js";
import { storedRecords } from "./stored-records.js";

/** Within the 15-25 s proxies tolerate between bytes. */
export const HEARTBEAT_MS = 20_000;
/** Heartbeats go out a slice per tick: each stream still gets one every HEARTBEAT_MS. */
const HEARTBEAT_SLICES = 20;
/** Presence rows not refreshed for about three heartbeats belong to a stream that is gone. */
export const PRESENCE_STALE_MS = 3 * HEARTBEAT_MS + 5_000;
/** How long closing waits to remove this instance's presence before it lets the rest age out. */
const LEAVE_ON_CLOSE_MS = 1000;

type OpenOptions = Omit<StreamOptions, "bus" | "store" | "log" | "onEnd" | "watch"> & {
  /** The dashboards to watch (`?dashboard=`), already checked readable. */
  watched?: readonly Watched[];
};

/**
 * Every open stream of this instance, by user. One timer sends all heartbeats, so idle streams
 * cost no timer each; it visits a slice of the streams per tick, so that no tick stalls
 * requests (heartbeat-ring.ts). Policies for open streams:
 * - sign-out / revocation: when the user's sessions are revoked (on any instance), each of their
 *   streams checks its own session again and ends if it is gone; streams of the user's other,
 *   still valid sessions stay open. An expired session ends its stream at the next heartbeat.
 * - DELETE /api/notifications: streams stay open and nothing is sent (the spec has no event for
 *   it); a later reconnect replays only what is still stored, so deleted items do not come back.
 * - bus reconnect: every stream catches up from the store, as the bus may have missed messages.
 * - shutdown: every stream ends, and the client reconnects to another instance with Last-Event-ID.
 * - watched dashboards: the heartbeat keeps this instance's presence rows fresh and removes those
 *   no instance keeps fresh; a stream's rows go when it ends. After a bus reconnect, streams that
 *   watch dashboards end: their events are not stored, so the client reconnects and reloads.
 */
export class StreamHub {
  readonly presence: PresenceBoard;
  private readonly feeds: DashboardFeeds;
  private readonly byUser = new Map<string, Set<SseStream>>();
  private readonly heartbeats = new HeartbeatRing<SseStream>(HEARTBEAT_SLICES);
  private readonly stops: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
  ) {
    const { db } = ctx.database;
    this.presence = new PresenceBoard(db, ctx.bus, log, PRESENCE_STALE_MS);
    this.feeds = new DashboardFeeds(ctx.bus, storedRecords(db), this.presence, log);
  }

  start() {
    const timer = setInterval(() => this.heartbeat(), HEARTBEAT_MS / HEARTBEAT_SLICES);
    timer.unref(); // the open sockets keep the process alive, not the timer
    this.stops.push(() => clearInterval(timer));
    this.stops.push(this.ctx.sessions.onRevoked((userId) => void this.recheckSessions(userId)));
    const stopResync = this.ctx.bus.onResync?.(() => {
      for (const streams of [...this.byUser.values()])
        for (const stream of [...streams]) {
          if (stream.watch) stream.end();
          else void stream.catchUp();
        }
    });
    if (stopResync) this.stops.push(stopResync);
  }

  get isClosed() {
    return this.closed;
  }

  /** How many streams the user has open on this instance. */
  openStreams(userId: string): number {
    return this.byUser.get(userId)?.size ?? 0;
  }

  /** Opens a stream on `res` (already hijacked from Fastify) and starts delivering to it. */
  open(res: ServerResponse, headers: OutgoingHttpHeaders, { watched, ...options }: OpenOptions) {
    const stream = new SseStream(res, {
      ...options,
      bus: this.ctx.bus,
      store: this.ctx.notifications,
      log: this.log,
      onEnd: (ended) => this.forget(ended),
      delivered: this.ctx.metrics ? (event) => this.ctx.metrics!.eventDelivered(event) : undefined,
      watch: watched?.length
        ? (sink) =>
            new DashboardWatch(sink, options.userId, watched, {
              feeds: this.feeds,
              presence: this.presence,
              db: this.ctx.database.db,
              log: this.log,
              actor: () => this.ctx.actors.resolve(options.credentials),
            })
        : undefined,
    });
    let streams = this.byUser.get(options.userId);
    if (!streams) {
      streams = new Set();
      this.byUser.set(options.userId, streams);
    }
    streams.add(stream);
    this.heartbeats.add(stream);
    void stream.start(headers);
  }

  /**
   * Ends every stream; called before the server stops so closing never waits on a stream. Their
   * presence goes in one statement, given a moment at most: rows left behind age out.
   */
  async close() {
    this.closed = true;
    for (const stop of this.stops.splice(0)) stop();
    const watching = this.watchingStreams();
    for (const streams of [...this.byUser.values()]) for (const stream of [...streams]) stream.end();
    if (watching.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.presence.leave(watching).catch((error: unknown) => {
        this.log.warn({ err: error }, "could not remove this instance's presence");
      }),
      new Promise((resolve) => {
        timer = setTimeout(resolve, LEAVE_ON_CLOSE_MS);
      }),
    ]);
    clearTimeout(timer);
  }

  /** Open streams of this instance (for tests and metrics). */
  count(): number {
    let total = 0;
    for (const streams of this.byUser.values()) total += streams.size;
    return total;
  }

  private forget(stream: SseStream) {
    const streams = this.byUser.get(stream.userId);
    streams?.delete(stream);
    this.heartbeats.remove(stream);
    if (streams?.size === 0) this.byUser.delete(stream.userId);
    // Closing removes every stream's presence at once instead.
    if (stream.watch && !this.closed)
      this.presence.leave([stream.watch.streamId]).catch((error: unknown) => {
        this.log.warn({ err: error }, "could not remove a stream's presence");
      });
  }

  private heartbeat() {
    const now = Date.now();
    const { due, lapStarts } = this.heartbeats.next();
    for (const stream of due) stream.heartbeat(now);
    if (!lapStarts) return;
    // Once a lap, in one statement: only an instance with watchers writes (an embedded
    // database's read cache survives idle heartbeats).
    const watching = this.watchingStreams();
    if (watching.length > 0)
      Promise.all([this.presence.refresh(watching), this.presence.expire()]).catch((error: unknown) => {
        this.log.warn({ err: error }, "could not refresh presence");
      });
  }

  private watchingStreams(): string[] {
    const ids: string[] = [];
    for (const streams of this.byUser.values())
      for (const stream of streams) if (stream.watch) ids.push(stream.watch.streamId);
    return ids;
  }

  private async recheckSessions(userId: string) {
    for (const stream of [...(this.byUser.get(userId) ?? [])]) {
      try {
        if (!(await this.ctx.actors.resolve(stream.credentials))) stream.end();
      } catch (error) {
        // Database unreachable: keep the stream; the session's expiry still ends it.
        this.log.warn({ err: error }, "could not re-check a realtime stream's session");
      }
    }
  }
}
