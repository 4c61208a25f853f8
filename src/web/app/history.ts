import type { QueryClient } from "@tanstack/react-query";
import type { Widget } from "../../contract/resources";
import type { LayoutChange } from "../grid/Grid";
import { t } from "../i18n/i18n";
import { api } from "../lib/api";
import { keys } from "../lib/queries";

/**
 * What the dashboard's Undo can take back: a move or resize, an added widget, a removed widget, a
 * restored version (`undoTo` is the version it replaced).
 */
export type Change =
  | { kind: "layout"; changes: LayoutChange[] }
  | { kind: "add"; id: string; name: string }
  | { kind: "remove"; widget: Widget; name: string }
  | { kind: "restore"; undoTo: string };

export const HISTORY_LIMIT = 50;

export function pushChange(history: Change[], change: Change): Change[] {
  return [...history, change].slice(-HISTORY_LIMIT);
}

/** An undone removal comes back under a new id; older entries that named the old one follow it. */
export function renameInHistory(history: Change[], oldId: string, newId: string): Change[] {
  return history.map((change) => {
    if (change.kind === "layout")
      return { ...change, changes: change.changes.map((c) => (c.id === oldId ? { ...c, id: newId } : c)) };
    if (change.kind === "add" && change.id === oldId) return { ...change, id: newId };
    if (change.kind === "remove" && change.widget.id === oldId)
      return { ...change, widget: { ...change.widget, id: newId } };
    return change;
  });
}

/**
 * A restore replaces every widget (new ids), so nothing recorded before it can be undone any more:
 * the history starts again from the restore.
 */
export function afterRestore(undoTo: string | undefined): Change[] {
  return undoTo ? [{ kind: "restore", undoTo }] : [];
}

export function describeChange(change: Change): string {
  if (change.kind === "layout") return t("dashboard.change.move");
  if (change.kind === "add") return t("dashboard.change.add", { name: change.name });
  if (change.kind === "restore") return t("dashboard.change.restore");
  return t("dashboard.change.remove", { name: change.name });
}

/**
 * Puts the dashboard's widgets back as a version held them, into the cache too; answers the
 * version the restore replaced, for undoing it (a restore always starts a new version, so the
 * state it replaced is the one after it in the list, newest first).
 */
export async function restoreVersion(
  client: QueryClient,
  dashboardId: string,
  versionId: string,
): Promise<string | undefined> {
  const restored = await api.dashboards.restore(dashboardId, versionId);
  client.setQueryData(keys.widgets(dashboardId), restored.widgets);
  const fresh = await api.dashboards.versions(dashboardId);
  client.setQueryData(["versions", dashboardId], fresh);
  return fresh[1]?.id;
}
