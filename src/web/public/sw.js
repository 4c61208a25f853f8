// The service worker of Web Push (docs/api.md "Alerts and push notifications"). It does one thing:
// show what the server pushes (src/server/push/deliver.ts, PushMessage) and, on a click, bring
// the dashboard forward. No caching, no fetch handler: the app stays a normal web page.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(
    self.registration.showNotification(message.title || "Tessera", {
      body: message.body || "",
      // The same tag replaces the notification: a push delivered twice shows once.
      tag: message.tag || undefined,
      data: { url: message.url || "/" },
    }),
  );
});

/** Only our own pages open from a notification, whatever the message says. */
function targetOf(notification) {
  const url = new URL(notification.data?.url || "/", self.location.origin);
  return url.origin === self.location.origin ? url : new URL("/", self.location.origin);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = targetOf(event.notification);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === target.origin);
      if (!open) return self.clients.openWindow(target.href);
      const focused = await open.focus();
      if (new URL(focused.url).pathname !== target.pathname && "navigate" in focused)
        await focused.navigate(target.href).catch(() => {});
      return focused;
    })(),
  );
});
