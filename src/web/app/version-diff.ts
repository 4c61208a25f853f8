import type { DashboardDocument, DocumentWidget } from "../../contract/dashboard-document";
import { t } from "../i18n/i18n";

export interface VersionDiff {
  added: number;
  removed: number;
  moved: number;
  edited: number;
}

const key = (w: DocumentWidget) => w.widgetType;
/** Placed alike: the stored pixels and the smaller breakpoints' cells (the grid's `layout` key). */
const sameGeometry = (a: DocumentWidget, b: DocumentWidget) =>
  a.positionX === b.positionX &&
  a.positionY === b.positionY &&
  a.width === b.width &&
  a.height === b.height &&
  JSON.stringify((a.config as { layout?: unknown }).layout) ===
    JSON.stringify((b.config as { layout?: unknown }).layout);
/** A config without the grid's own layout key: moving a widget is not editing it. */
function configOf(w: DocumentWidget): string {
  const { layout: _layout, ...rest } = w.config as Record<string, unknown>;
  return JSON.stringify(rest);
}

/**
 * What changed from one version to the next, as a person reads it. Documents carry no ids, so
 * widgets are paired by type in order: the n-th Clock of one with the n-th Clock of the other.
 */
export function diffVersions(previous: DashboardDocument | null, next: DashboardDocument): VersionDiff {
  const diff: VersionDiff = { added: 0, removed: 0, moved: 0, edited: 0 };
  const before = new Map<string, DocumentWidget[]>();
  for (const w of previous?.widgets ?? []) before.set(key(w), [...(before.get(key(w)) ?? []), w]);
  for (const w of next.widgets) {
    const match = before.get(key(w))?.shift();
    if (!match) diff.added++;
    else {
      if (!sameGeometry(match, w)) diff.moved++;
      if (configOf(match) !== configOf(w)) diff.edited++;
    }
  }
  for (const rest of before.values()) diff.removed += rest.length;
  return diff;
}

/** "2 added, 1 moved" — or "no widget changes" (a rename, say). */
export function describeDiff(diff: VersionDiff): string {
  const parts: string[] = [];
  if (diff.added > 0) parts.push(t("portability.diff.added", { count: diff.added }));
  if (diff.removed > 0) parts.push(t("portability.diff.removed", { count: diff.removed }));
  if (diff.moved > 0) parts.push(t("portability.diff.moved", { count: diff.moved }));
  if (diff.edited > 0) parts.push(t("portability.diff.edited", { count: diff.edited }));
  return parts.length ? parts.join(", ") : t("portability.diff.none");
}
