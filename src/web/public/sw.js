// Tessera's one service worker (DESIGN section 17, "Installable app"), registered by
// src/web/pwa/register.ts and used by Web Push (src/web/lib/push.ts). It does three things:
// 1. Web Push: shows what the server pushes (src/server/push/deliver.ts, PushMessage) and, on a
//    click, brings the dashboard forward.
// 2. The app shell: index.html, the entry's scripts and styles, fonts and icons are cached at
//    install, so the app opens without a network. Navigations go to the network first and fall
//    back to the cached index.html; hashed files (/assets/) come from the cache first.
// 3. Offline copies: the last answers of the dashboard and of its widgets' data (an allow-list,
//    COPY_PATHS) are kept and served only when the network fails, to a page that has not had that
//    answer from the network itself, so a failed refresh of data already on screen still shows
//    as failed. Copies go when someone signs in or out, or the server says the session ended.
// A classic script, no imports: every browser with service workers runs it. The build writes the
// BUILD line (src/web/pwa/build/stamp-worker.mjs): a new deploy is a new worker with new caches.
// The functions at the top are pure; src/web/pwa/sw-routing.test.ts runs this very file.

const BUILD = { version: "dev", shell: [] }; // stamped by the build

/** Every cache of ours starts so; the others (another app on this origin) are left alone. */
const CACHE_PREFIX = "tessera-";
const SHELL_CACHE = `${CACHE_PREFIX}shell-${BUILD.version}`;
/**
 * Not per deploy: the copies stay useful across one. The suffix changes only when what is kept
 * changes shape (a new copy format), which drops the old ones at activation.
 */
const COPIES_CACHE = `${CACHE_PREFIX}copies-v1`;
/** The time of the newest copy, for the page's offline banner (src/web/pwa/worker-protocol.ts). */
const LAST_LOADED_KEY = "/__pwa/last-loaded";
/** On every copy: when its answer arrived from the network (ms since the epoch). */
const STORED_AT_HEADER = "x-tessera-stored-at";
const MESSAGES = {
  copyServed: "tessera:copy-served",
  networkAnswered: "tessera:network-answered",
  warm: "tessera:warm",
};
/** Enough for every widget of a few dashboards; the oldest copies go first. */
const MAX_COPIES = 300;
/** A larger answer is not kept (a long mail list, say): offline is for a glance, not an archive. */
const MAX_COPY_BYTES = 1024 * 1024;

/** Answered by the server itself, never by the app: a navigation there is not the app's. */
const SERVER_PATHS = /^\/(api(\/|$)|healthz$|readyz$|metrics$)/;

/**
 * The GET answers kept for offline use: what the dashboard needs to draw (bootstrap, layout,
 * settings, connected providers) and its widgets' data. Searches, pickers, admin, accounts,
 * sessions, keys, push and the live stream are never kept; neither is a single mail message.
 */
const COPY_PATHS = [
  /^\/api\/(bootstrap|me|dashboards|widgets|settings|providers)$/,
  /^\/api\/widgets\/(data|framing)$/,
  /^\/api\/(exchange\/prices|weather|feeds|status)$/,
  /^\/api\/providers\/(suite\/(mail\/(labels|messages)|events|calendars)|codehost\/(items|contributions))$/,
  /^\/api\/providers\/notes\/pages(\/[^/]+)?$/,
  /^\/api\/icons\/(site|bundled\/[^/]+)$/,
  /^\/api\/public\/dashboards\/[^/]+(\/widgets\/[^/]+\/[^/]+)?$/,
];

/** Requests after which no copy may stay: another person may be about to use this browser. */
function clearsCopies(method, pathname) {
  if (method === "GET" || method === "HEAD") return false;
  if (method === "DELETE" && pathname === "/api/account") return true;
  return /^\/api\/auth\/sign-(in|up|out)(\/|$)/.test(pathname);
}

function keepsCopy(pathname) {
  return COPY_PATHS.some((pattern) => pattern.test(pathname));
}

/**
 * What the worker does with a request:
 * - "navigation": network first, the cached index.html when the network fails;
 * - "asset": a hashed file, cache first (its name changes with its content);
 * - "shell": another file of the shell (early-bootstrap.js, the manifest, icons), network first;
 * - "copy": an allow-listed API answer, network first, its copy kept for offline;
 * - "clear-copies": sent to the network as it is, and the copies are dropped;
 * - "pass": not ours to answer (other origins, writes, the live stream, everything else).
 * `shell` is the build's list of shell paths.
 */
function routeOf(method, href, mode, origin, shell) {
  const url = new URL(href);
  if (url.origin !== origin) return "pass";
  if (method !== "GET") return clearsCopies(method, url.pathname) ? "clear-copies" : "pass";
  if (mode === "navigate") return SERVER_PATHS.test(url.pathname) ? "pass" : "navigation";
  if (url.pathname.startsWith("/api/")) return keepsCopy(url.pathname) ? "copy" : "pass";
  if (url.pathname.startsWith("/assets/")) return "asset";
  if (shell.includes(url.pathname)) return "shell";
  return "pass";
}

/** Worth keeping: a full JSON (or image, a site icon) answer of a sane size. */
function isKeepable(status, contentType, bytes) {
  return (
    status === 200 &&
    /^(application\/([a-z.+-]*\+)?json|image\/)/.test(contentType) &&
    bytes <= MAX_COPY_BYTES
  );
}

/** The caches an activated worker deletes: ours, of other builds or of an older copy format. */
function staleCaches(names, shellCache, copiesCache) {
  return names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== shellCache && name !== copiesCache);
}

/**
 * Pages whose load this worker saw, and the copy-kept URLs each got from the network since. A copy
 * goes only to such a page, for a URL it never had: a page starting offline gets the last data,
 * while a page that already shows an answer keeps it with its own "stale" mark when a refresh
 * fails. Memory only: after the worker restarts, pages it did not see load get no copies.
 */
const pagesSeen = new Map();
const MAX_PAGES_SEEN = 100;

function sawPageLoad(clientId) {
  if (!clientId) return;
  pagesSeen.set(clientId, new Set());
  if (pagesSeen.size > MAX_PAGES_SEEN) pagesSeen.delete(pagesSeen.keys().next().value);
}

function mayServeCopy(clientId, href) {
  const answered = pagesSeen.get(clientId);
  return answered !== undefined && !answered.has(href);
}

// ---------------------------------------------------------------------------------------------
// Web Push

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

// ---------------------------------------------------------------------------------------------
// Install and activate

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL_CACHE);
      // Each file on its own, failures tolerated: a shell file missing (a deploy under way) must
      // not fail the install, or this browser would be left without Web Push. What is missing is
      // cached when a page asks for it.
      await Promise.allSettled(
        BUILD.shell.map((path) => cache.add(new Request(path, { cache: "no-cache" }))),
      );
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const stale = staleCaches(await caches.keys(), SHELL_CACHE, COPIES_CACHE);
      await Promise.all(stale.map((name) => caches.delete(name)));
      await self.clients.claim();
    })(),
  );
});

// ---------------------------------------------------------------------------------------------
// Fetch

function tell(clientId, message) {
  if (!clientId) return;
  self.clients.get(clientId).then((client) => client?.postMessage(message));
}

async function navigation(event) {
  sawPageLoad(event.resultingClientId);
  try {
    return await fetch(event.request);
  } catch (error) {
    const shell = await caches.match("/", { cacheName: SHELL_CACHE });
    if (shell) return shell;
    throw error;
  }
}

async function asset(event) {
  const cache = await caches.open(SHELL_CACHE);
  const cached = await cache.match(event.request);
  if (cached) return cached;
  const response = await fetch(event.request);
  if (response.ok) event.waitUntil(cache.put(event.request, response.clone()));
  return response;
}

async function shellFile(event) {
  try {
    const response = await fetch(event.request);
    if (response.ok)
      event.waitUntil(caches.open(SHELL_CACHE).then((c) => c.put(event.request, response.clone())));
    return response;
  } catch (error) {
    const cached = await caches.match(event.request, { cacheName: SHELL_CACHE });
    if (cached) return cached;
    throw error;
  }
}

/** Bumped when the copies are dropped: an answer on its way since then is not kept. */
let copiesGeneration = 0;

async function clearCopies() {
  copiesGeneration++;
  await caches.delete(COPIES_CACHE);
}

/** Keeps `response` (already cloned) as the copy of `href`, stamped with when it arrived. */
async function keepCopy(href, response, generation) {
  const body = await response.blob();
  const type = response.headers.get("content-type") || "";
  if (!isKeepable(response.status, type, body.size) || generation !== copiesGeneration) return;
  const storedAt = Date.now();
  const headers = new Headers(response.headers);
  headers.set(STORED_AT_HEADER, String(storedAt));
  const cache = await caches.open(COPIES_CACHE);
  if (generation !== copiesGeneration) return;
  // A put replaces the entry and moves it last, so the first keys are the least recently kept.
  await cache.put(href, new Response(body, { status: 200, statusText: response.statusText, headers }));
  await cache.put(
    LAST_LOADED_KEY,
    new Response(String(storedAt), { headers: { "content-type": "text/plain" } }),
  );
  const keys = await cache.keys();
  const excess = keys
    .filter((request) => new URL(request.url).pathname !== LAST_LOADED_KEY)
    .slice(0, -MAX_COPIES);
  await Promise.all(excess.map((request) => cache.delete(request)));
}

async function copy(event) {
  const { request, clientId } = event;
  const generation = copiesGeneration;
  let response;
  try {
    response = await fetch(request);
  } catch (error) {
    const kept = mayServeCopy(clientId, request.url)
      ? await caches.match(request.url, { cacheName: COPIES_CACHE, ignoreVary: true })
      : undefined;
    if (!kept) throw error;
    tell(clientId, { type: MESSAGES.copyServed, storedAt: Number(kept.headers.get(STORED_AT_HEADER)) });
    return kept;
  }
  pagesSeen.get(clientId)?.add(request.url);
  tell(clientId, { type: MESSAGES.networkAnswered });
  // The session ended (signed out elsewhere, expired): what it could read must not stay.
  if (response.status === 401) event.waitUntil(clearCopies());
  else if (response.ok) event.waitUntil(keepCopy(request.url, response.clone(), generation));
  return response;
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const route = routeOf(request.method, request.url, request.mode, self.location.origin, BUILD.shell);
  if (route === "navigation") event.respondWith(navigation(event));
  else if (route === "asset") event.respondWith(asset(event));
  else if (route === "shell") event.respondWith(shellFile(event));
  else if (route === "copy") event.respondWith(copy(event));
  else if (route === "clear-copies") event.waitUntil(clearCopies());
  // "pass": no respondWith, the browser fetches as if there were no worker.
});

// ---------------------------------------------------------------------------------------------
// Warming: a page loaded before this worker controlled it (the first visit) sends what it loaded,
// so that the lazy chunks it already has are cached as if the worker had seen them. Its API
// answers are not asked for again (that would double the first visit's upstream calls): copies
// start with the next load.

async function warm(hrefs) {
  const shell = await caches.open(SHELL_CACHE);
  await Promise.allSettled(
    hrefs.map(async (href) => {
      const route = routeOf("GET", href, "cors", self.location.origin, BUILD.shell);
      if ((route === "asset" || route === "shell") && !(await shell.match(href))) await shell.add(href);
    }),
  );
}

self.addEventListener("message", (event) => {
  const data = event.data;
  if (data?.type !== MESSAGES.warm || !Array.isArray(data.hrefs)) return;
  event.waitUntil(warm(data.hrefs.filter((href) => typeof href === "string").slice(0, 200)));
});
