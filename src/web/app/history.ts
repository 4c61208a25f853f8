import type { Widget } from "../../contract/resources";
import type { LayoutChange } from "../grid/Grid";
import { t } from "../i18n/i18n";

/** What the grid editor can undo: a move or resize, an added widget, a removed widget. */
export type Change =
  | { kind: "layout"; changes: LayoutChange[] }
  | { kind: "add"; id: string; name: string }
  | { kind: "remove"; widget: Widget; name: string };

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

export function describeChange(change: Change): string {
  if (change.kind === "layout") return t("dashboard.change.move");
  if (change.kind === "add") return t("dashboard.change.add", { name: change.name });
  return t("dashboard.change.remove", { name: change.name });
}
