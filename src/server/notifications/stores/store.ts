import type { Notification } from "../../../contract/resources.js";
import type { Db } from "../../db/client.js";

/**
 * Where a user's notifications live: newest first, at most NOTIFICATIONS_RETAINED kept.
 * Two implementations share this contract (and its tests): a SQL table and a Redis list.
 */
export interface NotificationStore {
  /**
   * Stores the notification and drops the user's oldest beyond the retention limit, atomically.
   * `tx`: a transaction of the app's database to write in, where the store is that database (so a
   * scheduled alert's notification commits with its once-only mark); a Redis store ignores it.
   */
  add(notification: Notification, tx?: Db): Promise<void>;
  /** The newest `limit` notifications, newest first. */
  latest(userId: string, limit: number): Promise<Notification[]>;
  /** Retained notifications with an id greater than `afterId` (UUIDv7 order), oldest first. */
  after(userId: string, afterId: string): Promise<Notification[]>;
  /** Deletes one of the user's notifications; answers it, or null when the user has none by that id. */
  remove(userId: string, id: string): Promise<Notification | null>;
  /** Deletes all of the user's notifications. */
  clear(userId: string): Promise<void>;
  /** How many the store holds for the user. */
  count(userId: string): Promise<number>;
}
