import type { QueryClient } from "@tanstack/react-query";
import { connectionStore } from "./connection";
import { isOffline } from "./offline-state";

/**
 * Keeps the app's queries honest about the service worker's offline copies (needs the app's
 * QueryClient: main.tsx calls it once with the client it creates).
 * - An answer that arrives while the page is offline is a kept copy: its time is set to when the
 *   copies were loaded (the newest of them), so a widget says "Updated 2 h ago", not "just now".
 * - When the network is back, every query is read again: copies looked fresh to React Query, so
 *   neither its reconnect refetch (stale queries only) nor the live stream's resync would.
 */
export function followOfflineCopies(client: QueryClient): () => void {
  let sawCopies = false;
  let offline = isOffline(connectionStore.read());
  const stopCache = client.getQueryCache().subscribe((event) => {
    if (event.type !== "updated" || event.action.type !== "success" || event.action.manual) return;
    const state = connectionStore.read();
    if (!isOffline(state)) return;
    sawCopies = true;
    if (state.loadedAt !== null)
      client.setQueryData(event.query.queryKey, event.action.data, { updatedAt: state.loadedAt });
  });
  const stopConnection = connectionStore.subscribe(() => {
    const now = isOffline(connectionStore.read());
    if (offline && !now && sawCopies) {
      sawCopies = false;
      void client.invalidateQueries();
    }
    offline = now;
  });
  return () => {
    stopCache();
    stopConnection();
  };
}
