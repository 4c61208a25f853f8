/**
 * What the page and the service worker (src/web/public/sw.js, a plain script that cannot import
 * this) say to each other. sw-routing.test.ts checks the worker uses the same names.
 */
export const WORKER_SCRIPT = "/sw.js";

export const WORKER_MESSAGES = {
  /** Worker → page: a request failed at the network and was answered with a kept copy. */
  copyServed: "tessera:copy-served",
  /** Worker → page: the network answered one of the kept-copy requests. */
  networkAnswered: "tessera:network-answered",
  /** Page → worker: the URLs the page loaded before the worker controlled it, to cache. */
  warm: "tessera:warm",
} as const;

/** The cache entry holding when the newest copy arrived (ms since the epoch, as text). */
export const LAST_LOADED_KEY = "/__pwa/last-loaded";

export type WorkerMessage =
  | { type: typeof WORKER_MESSAGES.copyServed; storedAt: number }
  | { type: typeof WORKER_MESSAGES.networkAnswered };
