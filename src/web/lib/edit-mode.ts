import { useCallback, useSyncExternalStore } from "react";

/**
 * Whether this device lets widgets be moved and resized. Off until asked for, and remembered
 * per device (a wall tablet stays locked while a laptop edits), in every tab at once.
 */
const KEY = "tessera:edit-layout";
const listeners = new Set<() => void>();
/** Used where storage is unavailable (some private modes): the switch still works for this page. */
let fallback = false;

function read(): boolean {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch {
    return fallback;
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === KEY) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

export function setEditLayout(on: boolean) {
  fallback = on;
  try {
    if (on) localStorage.setItem(KEY, "on");
    else localStorage.removeItem(KEY);
  } catch {
    // No storage: `fallback` carries the choice for this page.
  }
  for (const listener of listeners) listener();
}

export function useEditLayout(): [boolean, (on: boolean) => void] {
  const editing = useSyncExternalStore(subscribe, read, () => false);
  return [editing, useCallback((on: boolean) => setEditLayout(on), [])];
}
