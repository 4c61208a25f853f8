import type { FastifyBaseLogger } from "fastify";
import { dashboardChannel, PRESENCE } from "../../contract/sharing.js";
import type { BusMessage, EventBus } from "./bus.js";
import { type RecordLoader, restoreData } from "./dashboard-events.js";
import type { PresenceBoard } from "./presence.js";

/** One message of a watched dashboard, complete, as every watcher on this instance gets it. */
export class Delivery {
  private text: string | null = null;

  constructor(
    readonly event: string,
    readonly data: unknown,
  ) {}

  /** The SSE event, serialised once for however many watchers send it unchanged. */
  sse(): string {
    this.text ??= `event: ${this.event}\ndata: ${JSON.stringify(this.data)}\n\n`;
    return this.text;
  }
}

export type FeedListener = (delivery: Delivery) => void;

interface Feed {
  listeners: Set<FeedListener>;
  live: Promise<() => void>;
  /** Messages wait behind one whose data is being loaded, so a watcher gets them in bus order. */
  tail: Promise<void> | null;
}

/**
 * Each dashboard channel this instance's streams watch, subscribed once however many streams
 * watch it: a message is completed once (loaded from storage when the bus dropped its data) and
 * serialised once, then handed to every local watcher.
 */
export class DashboardFeeds {
  private readonly feeds = new Map<string, Feed>();

  constructor(
    private readonly bus: EventBus,
    private readonly records: RecordLoader,
    private readonly presence: PresenceBoard,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Resolves once the dashboard's channel is live; the returned function stops the listener. */
  async watch(dashboardId: string, listener: FeedListener): Promise<() => void> {
    let feed = this.feeds.get(dashboardId);
    if (!feed) {
      const created: Feed = { listeners: new Set(), live: Promise.resolve(() => {}), tail: null };
      created.live = this.bus.subscribe(dashboardChannel(dashboardId), (message) =>
        this.receive(dashboardId, created, message),
      );
      // A failed subscription must not stick: the next watcher tries again.
      created.live.catch(() => {
        if (this.feeds.get(dashboardId) === created) this.feeds.delete(dashboardId);
      });
      this.feeds.set(dashboardId, created);
      feed = created;
    }
    const joined = feed;
    joined.listeners.add(listener);
    try {
      await joined.live;
    } catch (error) {
      joined.listeners.delete(listener);
      throw error;
    }
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      joined.listeners.delete(listener);
      if (joined.listeners.size === 0 && this.feeds.get(dashboardId) === joined) {
        this.feeds.delete(dashboardId);
        joined.live.then(
          (unsubscribe) => unsubscribe(),
          () => {},
        );
      }
    };
  }

  private receive(dashboardId: string, feed: Feed, message: BusMessage) {
    if (message.data !== undefined && !feed.tail) return this.deliver(feed, message.event, message.data);
    const next = (feed.tail ?? Promise.resolve())
      .then(async () => {
        const data = message.data ?? (await this.complete(dashboardId, message));
        if (data !== null) this.deliver(feed, message.event, data);
      })
      .catch((error: unknown) =>
        this.log.warn({ err: error, dashboardId }, "could not complete a dashboard event"),
      );
    feed.tail = next;
    void next.then(() => {
      if (feed.tail === next) feed.tail = null;
    });
  }

  private complete(dashboardId: string, message: BusMessage): Promise<unknown> {
    if (message.event === PRESENCE) return this.presence.list(dashboardId);
    return restoreData(dashboardId, message, this.records);
  }

  private deliver(feed: Feed, event: string, data: unknown) {
    const delivery = new Delivery(event, data);
    for (const listener of [...feed.listeners]) {
      try {
        listener(delivery);
      } catch (error) {
        this.log.warn({ err: error }, "a dashboard watcher failed");
      }
    }
  }
}
