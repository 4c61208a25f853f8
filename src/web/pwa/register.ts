import { WORKER_MESSAGES, WORKER_SCRIPT } from "./worker-protocol";

/** The files and answers this page loaded, for a worker that did not see them (the first visit). */
function loadedUrls(): string[] {
  return performance
    .getEntriesByType("resource")
    .map((entry) => entry.name)
    .filter((url) => url.startsWith(`${location.origin}/`));
}

/**
 * Registers the app's one service worker (push, app shell, offline copies; push.ts finds this
 * registration rather than making another). Once the page has loaded, so the worker's install
 * (caching the shell) never competes with the first screen. A page that had no worker yet tells
 * the new one what it loaded: its lazy chunks and data are then cached as if it had seen them.
 */
export function registerWorker() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  const container = navigator.serviceWorker;
  if (!container.controller) {
    container.addEventListener(
      "controllerchange",
      () => container.controller?.postMessage({ type: WORKER_MESSAGES.warm, hrefs: loadedUrls() }),
      { once: true },
    );
  }
  const register = () =>
    container.register(WORKER_SCRIPT, { scope: "/" }).catch(() => {
      // No worker (storage refused, a private window): the app works as a plain page; push says
      // so itself when asked (push.ts registers again then).
    });
  if (document.readyState === "complete") void register();
  else window.addEventListener("load", () => void register(), { once: true });
}
