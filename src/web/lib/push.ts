import { t } from "../i18n/i18n";
import { request } from "./api";

/**
 * Web Push on this device (docs/api.md "Alerts and push notifications"): the browser's subscription
 * is the device's state; the server keeps a copy to push to. Nothing secret lives here: the
 * VAPID public key is public, and the subscription's keys go only to our own server.
 */

export type PushAvailability =
  | "available"
  /** Push needs a secure context: https, or http://localhost. */
  | "insecure"
  /** No service worker, PushManager or Notification API (old browsers; iOS Safari outside a home-screen app). */
  | "unsupported";

export function pushAvailability(): PushAvailability {
  if (!window.isSecureContext) return "insecure";
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window))
    return "unsupported";
  return "available";
}

export const notificationPermission = (): NotificationPermission =>
  "Notification" in window ? Notification.permission : "default";

/** Why enabling did not work, in words the settings tab shows as they are. */
export class PushSetupError extends Error {
  constructor(
    readonly reason: "denied" | "dismissed" | "subscribe-failed",
    message: string,
  ) {
    super(message);
    this.name = "PushSetupError";
  }
}

const SCRIPT = "/sw.js";

async function registration() {
  const existing = await navigator.serviceWorker.getRegistration("/");
  return existing ?? navigator.serviceWorker.register(SCRIPT, { scope: "/" });
}

/** This device's subscription, or null (none, or push unavailable). */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (pushAvailability() !== "available") return null;
  const existing = await navigator.serviceWorker.getRegistration("/");
  return existing ? existing.pushManager.getSubscription() : null;
}

function bytesOf(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameKey(a: ArrayBuffer | null, b: Uint8Array) {
  if (!a || a.byteLength !== b.length) return false;
  const view = new Uint8Array(a);
  return view.every((byte, i) => byte === b[i]);
}

/** Tells our server about the subscription (again): it answers 200 for one it knows. */
export const saveSubscription = (subscription: PushSubscription) =>
  request<unknown>("POST", "/api/push/subscriptions", subscription.toJSON());

/**
 * This browser's subscription made with the server's current key, subscribing (again) when there
 * is none or it was made with another key (the server's keys were replaced: its pushes would be
 * refused), then registered with our server. Needs the permission granted.
 */
async function subscribeCurrent(): Promise<void> {
  const { publicKey } = await request<{ publicKey: string }>("GET", "/api/push/key");
  const key = bytesOf(publicKey);
  const worker = await registration();
  await navigator.serviceWorker.ready;
  let subscription = await worker.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  if (!subscription) {
    try {
      subscription = await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    } catch (error) {
      // The browser could not reach its vendor's push service (offline, blocked, or none built in).
      throw new PushSetupError(
        "subscribe-failed",
        t("lib.push.subscribeFailed", { reason: (error as Error)?.message || String(error) }),
      );
    }
  }
  await saveSubscription(subscription);
}

/** Asks for permission, subscribes with the server's VAPID key, and registers the subscription. */
export async function enablePush(): Promise<void> {
  const permission = await Notification.requestPermission();
  if (permission === "denied") throw new PushSetupError("denied", t("lib.push.denied"));
  if (permission !== "granted") throw new PushSetupError("dismissed", t("lib.push.dismissed"));
  await subscribeCurrent();
}

/**
 * Run when the Reminders tab opens on a device with push on: the server's copy follows whoever is
 * signed in on this browser now, and a subscription made with replaced keys is renewed.
 */
export async function refreshPush(): Promise<boolean> {
  if (!(await currentSubscription())) return false;
  if (notificationPermission() !== "granted") return true;
  await subscribeCurrent();
  return true;
}

/** Removes the subscription from our server, then from the browser. */
export async function disablePush(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await request<unknown>(
    "DELETE",
    `/api/push/subscriptions?endpoint=${encodeURIComponent(subscription.endpoint)}`,
  ).catch((error: { status?: number }) => {
    // Already gone on the server (another user took the device over, or it was removed): fine.
    if (error?.status !== 404) throw error;
  });
  await subscription.unsubscribe();
}

export const sendTestPush = () => request<{ subscriptions: number }>("POST", "/api/push/test");
