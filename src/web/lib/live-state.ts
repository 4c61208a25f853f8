import { useCallback, useSyncExternalStore } from "react";
import type { Presence } from "../../contract/sharing";
import type { RemoteChange } from "./live-sync";

/**
 * What the live stream tells about the people on a dashboard, for the components that show it:
 * who is watching and what they edit (the presence bar, a card's "Ben is editing" badge), and
 * someone else's latest change of a widget (the settings dialog asks about it). Filled by
 * live-dashboard.ts; small stores read with useSyncExternalStore, so only what changed redraws.
 */

const listeners = new Set<() => void>();
const emit = () => {
  for (const listener of listeners) listener();
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

const NOBODY: readonly Presence[] = Object.freeze([]);
/** Everyone the stream lists, by dashboard, the signed-in user included. */
const present = new Map<string, readonly Presence[]>();
/** The same without the signed-in user, kept so each read answers the same array. */
const others = new Map<string, readonly Presence[]>();
const remoteChanges = new Map<string, RemoteChange>();
let me: string | null = null;

function refreshOthers() {
  others.clear();
  for (const [dashboardId, list] of present)
    others.set(
      dashboardId,
      list.filter((p) => p.userId !== me),
    );
}

export const liveState = {
  /** The signed-in user: never shown as someone else. */
  setMe(userId: string | null) {
    if (me === userId) return;
    me = userId;
    refreshOthers();
    emit();
  },
  setPresence(dashboardId: string, list: readonly Presence[]) {
    // One person in two tabs is one person; an entry that edits something wins.
    const byUser = new Map<string, Presence>();
    for (const p of list) if (!byUser.get(p.userId)?.editing) byUser.set(p.userId, p);
    present.set(dashboardId, [...byUser.values()]);
    refreshOthers();
    emit();
  },
  clearPresence(dashboardId: string) {
    if (!present.delete(dashboardId)) return;
    refreshOthers();
    emit();
  },
  /** Someone else changed a widget (remembered until a newer change of it, for the settings dialog). */
  remoteChange(change: RemoteChange) {
    const known = remoteChanges.get(change.widget.id);
    if (known && known.widget.revision >= change.widget.revision) return;
    remoteChanges.set(change.widget.id, change);
    emit();
  },
  forgetWidget(widgetId: string) {
    if (remoteChanges.delete(widgetId)) emit();
  },
  /** For tests: back to nothing known. */
  reset() {
    present.clear();
    others.clear();
    remoteChanges.clear();
    me = null;
    emit();
  },
  othersOn(dashboardId: string): readonly Presence[] {
    return others.get(dashboardId) ?? NOBODY;
  },
  lastRemoteChange(widgetId: string): RemoteChange | null {
    return remoteChanges.get(widgetId) ?? null;
  },
};

/** The people other than the user watching the dashboard, with what they edit. */
export function usePresence(dashboardId: string): readonly Presence[] {
  const read = useCallback(() => liveState.othersOn(dashboardId), [dashboardId]);
  return useSyncExternalStore(subscribe, read, read);
}

/** The names of the others editing the widget (its settings open), in one string per name. */
export function useEditingOthers(dashboardId: string, widgetId: string): string[] {
  const read = useCallback(
    () =>
      liveState
        .othersOn(dashboardId)
        .filter((p) => p.editing === widgetId)
        .map((p) => p.name)
        .join("\n"),
    [dashboardId, widgetId],
  );
  const names = useSyncExternalStore(subscribe, read, read);
  return names ? names.split("\n") : [];
}

/** Someone else's latest change of the widget this tab heard of, or null. */
export function useRemoteChange(widgetId: string): RemoteChange | null {
  const read = useCallback(() => liveState.lastRemoteChange(widgetId), [widgetId]);
  return useSyncExternalStore(subscribe, read, read);
}
