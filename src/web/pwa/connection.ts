import { onlineManager } from "@tanstack/react-query";
import {
  initialOfflineState,
  isOffline,
  nextOfflineState,
  type OfflineEvent,
  type OfflineState,
} from "./offline-state";
import { LAST_LOADED_KEY, WORKER_MESSAGES, type WorkerMessage } from "./worker-protocol";

/**
 * The page's offline state (offline-state.ts) fed by the browser's online/offline events and the
 * service worker's messages: a small store read with useSyncExternalStore.
 */
let state: OfflineState = initialOfflineState(true);
const listeners = new Set<() => void>();

/** When the newest kept copy arrived, as the worker recorded it in its cache. */
async function lastLoaded(): Promise<number | null> {
  try {
    const entry = await caches.match(LAST_LOADED_KEY);
    const at = entry ? Number(await entry.text()) : Number.NaN;
    return Number.isFinite(at) ? at : null;
  } catch {
    // No Cache API (not a secure context) or storage refused: no time to give.
    return null;
  }
}

function dispatch(event: OfflineEvent) {
  const wasOffline = isOffline(state);
  state = nextOfflineState(state, event);
  if (!wasOffline && isOffline(state)) void lastLoaded().then((at) => dispatch({ type: "last-loaded", at }));
  for (const listener of listeners) listener();
}

function fromWorker(event: MessageEvent) {
  const message = event.data as WorkerMessage | null;
  if (message?.type === WORKER_MESSAGES.copyServed)
    dispatch({ type: "copy-served", storedAt: message.storedAt });
  else if (message?.type === WORKER_MESSAGES.networkAnswered) dispatch({ type: "network-answered" });
}

/**
 * React Query learns of the network from the online/offline events; a page opened offline never
 * heard "offline", so the "online" event changes nothing for it and its queries (answered with
 * kept copies) would wait for their next interval. Saying offline-then-online makes React Query
 * refetch what is stale, as after any reconnect.
 */
function reconnectQueries(missedOffline: boolean) {
  if (!missedOffline) return;
  onlineManager.setOnline(false);
  onlineManager.setOnline(true);
}

/**
 * Starts listening; called once, before the page has finished parsing: the worker's messages about
 * the first requests (a page loaded offline) are queued by the browser until startMessages().
 */
export function watchConnection() {
  state = initialOfflineState(true);
  let openedOffline = !navigator.onLine;
  if (openedOffline) dispatch({ type: "browser-offline" });
  window.addEventListener("offline", () => {
    openedOffline = false;
    dispatch({ type: "browser-offline" });
  });
  window.addEventListener("online", () => {
    reconnectQueries(openedOffline);
    openedOffline = false;
    dispatch({ type: "browser-online" });
  });
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.addEventListener("message", fromWorker);
    navigator.serviceWorker.startMessages();
  }
}

export const connectionStore = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  read: (): OfflineState => state,
  /** What watchConnection feeds it with (and the tests). */
  dispatch,
};
