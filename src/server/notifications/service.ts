import type { FastifyBaseLogger } from "fastify";
import { uuidv7 } from "uuidv7";
import {
  NOTIFICATION_CREATED,
  NOTIFICATION_DISMISSED,
  NOTIFICATIONS_CLEARED,
  NOTIFICATIONS_READ,
  NOTIFICATIONS_RETURNED,
  userChannel,
} from "../../contract/notifications.js";
import {
  type CreateNotificationInput,
  type Notification,
  NotificationSchema,
} from "../../contract/resources.js";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import type { RateLimitRule } from "../http/rate-limit.js";
import type { EventBus } from "../realtime/bus.js";
import { markRead } from "./read-mark.js";
import type { NotificationStore } from "./stores/store.js";

/** What the user's other devices are told when their notifications' state changes. */
type StateEvent =
  | { event: typeof NOTIFICATIONS_READ; data: { readUpTo: string } }
  | { event: typeof NOTIFICATION_DISMISSED; data: { id: string } }
  | { event: typeof NOTIFICATIONS_CLEARED; data: Record<string, never> };

/** The contract's fields, in its order: what GET answers and what each realtime event carries. */
const FIELDS = Object.keys(NotificationSchema.properties) as (keyof Notification)[];

/** The one presenter of a notification, for GET /api/notifications and the event stream alike. */
export function presentNotification(n: Notification): Notification {
  return Object.fromEntries(FIELDS.map((field) => [field, n[field]])) as Notification;
}

/**
 * How many notifications a user may create: a burst of `notificationsBurst` at once (the spec
 * keeps the newest 100, and scripts post in bursts), refilled at the sustained rate per window.
 * The route's rate-limit hook enforces it.
 */
export function notificationBudget(config: Config): RateLimitRule {
  return {
    name: "notifications",
    key: (request) => request.user.id,
    limit: config.rateLimits.notificationsPerUser,
    windowMs: config.rateLimits.notificationsWindowMs,
    burst: config.rateLimits.notificationsBurst,
    detail: "Too many notifications; slow down",
  };
}

/** Notifications as one concept: stored (with retention), then published to the user's channel. */
export class NotificationService {
  constructor(
    readonly store: NotificationStore,
    private readonly bus: EventBus,
  ) {}

  async latest(userId: string): Promise<Notification[]> {
    return (await this.store.latest(userId, NOTIFICATIONS_RETURNED)).map(presentNotification);
  }

  /** Retained notifications newer than `afterId`, oldest first (what a reconnecting stream missed). */
  after(userId: string, afterId: string): Promise<Notification[]> {
    return this.store.after(userId, afterId);
  }

  async create(
    userId: string,
    input: CreateNotificationInput,
    log: FastifyBaseLogger,
  ): Promise<Notification> {
    // Stored first, then published: a subscriber that reconnects can always replay what it was sent.
    const notification = await this.record(userId, input);
    await this.publish(notification, log);
    return notification;
  }

  /**
   * Stores a notification inside the caller's database transaction (the SQL store writes there;
   * Redis at once); the caller publishes it once that transaction has committed.
   */
  record(userId: string, input: CreateNotificationInput, tx?: Db): Promise<Notification> {
    const notification = presentNotification({
      id: uuidv7(),
      userId,
      type: input.type,
      message: input.message,
      createdAt: new Date().toISOString(),
    });
    return this.store.add(notification, tx).then(() => notification);
  }

  /** Tells the user's open streams on every instance. */
  async publish(notification: Notification, log: FastifyBaseLogger): Promise<void> {
    const userId = notification.userId;
    try {
      await this.bus.publish(userChannel(userId), {
        event: NOTIFICATION_CREATED,
        data: notification,
        id: notification.id,
      });
    } catch (error) {
      // The notification is stored; open streams catch up from the store on their next reconnect.
      log.warn({ err: error }, "realtime publish failed");
    }
  }

  /** Deletes them all, quietly (the user's deletion); `dismissAll` is the user's own "Clear all". */
  clear(userId: string): Promise<void> {
    return this.store.clear(userId);
  }

  async dismissAll(userId: string, log: FastifyBaseLogger): Promise<void> {
    await this.store.clear(userId);
    await this.announce(userId, { event: NOTIFICATIONS_CLEARED, data: {} }, log);
  }

  /** Deletes one; null when the user has none by that id (never theirs, or gone already). */
  async dismiss(userId: string, id: string, log: FastifyBaseLogger): Promise<Notification | null> {
    const removed = await this.store.remove(userId, id.toLowerCase());
    if (!removed) return null;
    await this.announce(userId, { event: NOTIFICATION_DISMISSED, data: { id: removed.id } }, log);
    return presentNotification(removed);
  }

  /** Moves the read mark (settings, in the app's database whatever the store) and tells the devices. */
  async markRead(db: Db, userId: string, upTo: string, log: FastifyBaseLogger): Promise<string> {
    const { readUpTo, moved } = await markRead(db, userId, upTo.toLowerCase());
    if (moved) await this.announce(userId, { event: NOTIFICATIONS_READ, data: { readUpTo } }, log);
    return readUpTo;
  }

  /**
   * Live only, never replayed: a device that missed one (offline, reconnecting) reads the list
   * and the mark again when its stream reopens.
   */
  private async announce(userId: string, { event, data }: StateEvent, log: FastifyBaseLogger) {
    try {
      await this.bus.publish(userChannel(userId), { event, data: { userId, ...data } });
    } catch (error) {
      // The change is stored; the other devices see it when they next load or reconnect.
      log.warn({ err: error, event }, "realtime publish failed");
    }
  }
}
