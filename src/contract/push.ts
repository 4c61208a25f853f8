import type { Static } from "@sinclair/typebox";
import { Type } from "./typebox.js";

/** Web Push (DESIGN section 11): what a browser sends when it subscribes, and what we show back. */

const Uuid = Type.String({ format: "uuid" });
const Timestamp = Type.String({ format: "date-time", description: "ISO 8601, UTC, milliseconds" });

/** The longest endpoint accepted; real push services' URLs are a few hundred characters. */
export const PUSH_ENDPOINT_MAX = 2048;
/** Decoded sizes RFC 8291 fixes: an uncompressed P-256 point and a 16-byte authentication secret. */
export const P256DH_BYTES = 65;
export const AUTH_BYTES = 16;
/** Subscriptions one user may hold (browsers and profiles); beyond it the oldest is replaced. */
export const PUSH_SUBSCRIPTIONS_PER_USER = 20;

const Base64Url = (maxLength: number) =>
  Type.String({ minLength: 1, maxLength, pattern: "^[A-Za-z0-9_-]+={0,2}$" });

/** `PushSubscription.toJSON()` as the browser gives it; `expirationTime` and others are ignored. */
export const CreatePushSubscriptionBody = Type.Object({
  endpoint: Type.String({ minLength: 1, maxLength: PUSH_ENDPOINT_MAX }),
  keys: Type.Object({
    p256dh: Base64Url(100),
    auth: Base64Url(40),
  }),
});
export type CreatePushSubscription = Static<typeof CreatePushSubscriptionBody>;

export const DeletePushSubscriptionQuery = Type.Object({
  endpoint: Type.String({ minLength: 1, maxLength: PUSH_ENDPOINT_MAX }),
});

/**
 * A subscription as the API shows it: never its keys, and of the endpoint (a capability URL) only
 * the push service's origin.
 */
export const PushSubscriptionSchema = Type.Object(
  {
    id: Uuid,
    service: Type.String({ description: "The push service's origin, e.g. https://fcm.googleapis.com" }),
    userAgent: Type.Union([Type.String(), Type.Null()]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: "PushSubscription" },
);
export type PushSubscriptionView = Static<typeof PushSubscriptionSchema>;

export const PushKeySchema = Type.Object({
  publicKey: Type.String({
    description: "The VAPID public key (base64url): pushManager.subscribe's applicationServerKey",
  }),
});

export const PushTestSchema = Type.Object({
  subscriptions: Type.Integer({
    description: "How many of the caller's subscriptions a test push was queued for",
  }),
});
