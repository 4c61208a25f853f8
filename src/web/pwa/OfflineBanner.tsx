import { useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { useLocale } from "../i18n/use-locale";
import { connectionStore } from "./connection";
import { offlineMessage } from "./offline-message";
import { isOffline } from "./offline-state";

/** A cloud struck through: no connection to the server. */
function OfflineIcon() {
  return (
    <svg
      className="offline-banner-icon"
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M2 2l20 20M5.8 8.8A7 7 0 0 0 9 19h8.5c.6 0 1.2-.1 1.7-.3M21.9 15.3A4.5 4.5 0 0 0 17.5 10h-1.8A7 7 0 0 0 10.4 5.1" />
    </svg>
  );
}

/**
 * "You're offline: showing what was loaded at 14:05", while the page shows what it had rather than
 * the server's answers. The live region is always in the page and only its text comes and goes,
 * so screen readers announce it politely, once, when it appears.
 */
export function OfflineBanner() {
  useTranslation();
  const locale = useLocale();
  const state = useSyncExternalStore(connectionStore.subscribe, connectionStore.read, connectionStore.read);
  const shown = isOffline(state) && state.loadedAtRead;
  return (
    <div role="status">
      {shown && (
        <p className="offline-banner">
          <OfflineIcon />
          <span>{offlineMessage(state.loadedAt, Date.now(), locale)}</span>
        </p>
      )}
    </div>
  );
}
