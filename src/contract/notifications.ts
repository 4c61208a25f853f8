export const NOTIFICATION_TYPES = ["message", "alert", "reminder"] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** GET /api/notifications returns at most this many, newest first. */
export const NOTIFICATIONS_RETURNED = 50;
/** Storage keeps at most this many per user; older ones are dropped. */
export const NOTIFICATIONS_RETAINED = 100;
export const NOTIFICATION_MESSAGE_MAX = 2000;

export const NOTIFICATION_CREATED = "notification.created";
/** Sent on the user's stream when a dashboard's widgets were put back to an earlier version. */
export const DASHBOARD_RESTORED = "dashboard.restored";
/** The user's read mark moved forward (on any device): `{readUpTo}`. */
export const NOTIFICATIONS_READ = "notifications.read";
/** The user dismissed one notification: `{id}`. */
export const NOTIFICATION_DISMISSED = "notification.dismissed";
/** The user cleared all their notifications: `{}`. */
export const NOTIFICATIONS_CLEARED = "notifications.cleared";

export function userChannel(userId: string): string {
  return `user-${userId}`;
}
