/**
 * Whether the page is showing what it had rather than what the server says now: the browser is
 * offline, or the service worker has been answering with kept copies (the server is out of reach
 * although the device is online). Read by the offline banner.
 */
export interface OfflineState {
  browserOffline: boolean;
  /** The worker answered with a copy, and the network has answered nothing since. */
  onCopies: boolean;
  /** When the newest data on screen arrived from the server; null when nothing says. */
  loadedAt: number | null;
  /** The time has been looked up since the page went offline (the banner waits for it, so it is announced once). */
  loadedAtRead: boolean;
}

export type OfflineEvent =
  | { type: "browser-offline" }
  | { type: "browser-online" }
  | { type: "copy-served"; storedAt: number }
  | { type: "network-answered" }
  | { type: "last-loaded"; at: number | null };

export const initialOfflineState = (browserOnline: boolean): OfflineState => ({
  browserOffline: !browserOnline,
  onCopies: false,
  loadedAt: null,
  loadedAtRead: false,
});

export const isOffline = (state: OfflineState) => state.browserOffline || state.onCopies;

const newest = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

const backOnline = (state: OfflineState): OfflineState => ({
  ...state,
  browserOffline: false,
  onCopies: false,
  loadedAt: null,
  loadedAtRead: false,
});

export function nextOfflineState(state: OfflineState, event: OfflineEvent): OfflineState {
  switch (event.type) {
    case "browser-offline":
      return { ...state, browserOffline: true };
    // The browser's word is trusted; if the server is still out of reach, the next copy says so.
    case "browser-online":
      return backOnline(state);
    case "copy-served":
      return {
        ...state,
        onCopies: true,
        loadedAt: Number.isFinite(event.storedAt) ? newest(state.loadedAt, event.storedAt) : state.loadedAt,
      };
    case "network-answered":
      return state.onCopies && !state.browserOffline ? backOnline(state) : state;
    case "last-loaded":
      return { ...state, loadedAt: newest(state.loadedAt, event.at), loadedAtRead: true };
  }
}
