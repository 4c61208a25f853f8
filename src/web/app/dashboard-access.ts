import type { Dashboard } from "../../contract/resources";
import type { Access } from "../../contract/sharing";

/**
 * What the signed-in user may do with a dashboard, from its `access` (DESIGN section 14): a
 * `viewer` reads, exports and duplicates it; an `editor` also changes its widgets, renames it,
 * sets its look and restores versions; its `owner` also shares, publishes and deletes it. An admin
 * may share, publish and delete any dashboard, but edits only one shared with them as editor.
 */

/** What the rules read of a dashboard; an answer cached from before sharing existed has no `access`. */
export interface AccessFacts {
  access?: Access | null;
  owner?: Dashboard["owner"];
  /** Provisioned and read-only: its file on the server changes it, nobody here (DESIGN section 17). */
  provisionLocked?: boolean;
}

/** The dashboard switcher's entries for the open dashboard, in the order the menu lists them. */
export const MENU_ACTIONS = ["rename", "share", "look", "duplicate", "export", "history", "delete"] as const;
export type MenuAction = (typeof MENU_ACTIONS)[number];

/** The caller's access; an answer without one (from before sharing existed) was their own. */
export function accessOf(dashboard: AccessFacts): Access {
  return dashboard.access ?? "owner";
}

/** The caller's own dashboard (answers name an `owner` only on someone else's). */
export function isOwnDashboard(dashboard: AccessFacts): boolean {
  return !dashboard.owner && accessOf(dashboard) === "owner";
}

/** May add, move, reconfigure and remove its widgets, rename it, set its look, restore versions. */
export function canEditDashboard(dashboard: AccessFacts): boolean {
  return !dashboard.provisionLocked && accessOf(dashboard) !== "viewer";
}

/** May share it with people, publish it and delete it: its owner, or an admin. */
export function canManageDashboard(dashboard: AccessFacts, isAdmin: boolean): boolean {
  return !dashboard.provisionLocked && (accessOf(dashboard) === "owner" || isAdmin);
}

const READ: readonly MenuAction[] = ["duplicate", "export"];
const EDIT: readonly MenuAction[] = ["rename", "look", "history"];
const MANAGE: readonly MenuAction[] = ["share", "delete"];

/** The switcher's entries for a dashboard: only what the caller's access allows. */
export function menuActions(dashboard: AccessFacts, isAdmin: boolean): MenuAction[] {
  const allowed = new Set<MenuAction>(READ);
  if (canEditDashboard(dashboard)) for (const action of EDIT) allowed.add(action);
  if (canManageDashboard(dashboard, isAdmin)) for (const action of MANAGE) allowed.add(action);
  return MENU_ACTIONS.filter((action) => allowed.has(action));
}

/** The caller's own dashboards, then those shared with them, each part in the order given. */
export function splitDashboards<D extends AccessFacts>(list: readonly D[]): { own: D[]; shared: D[] } {
  const own: D[] = [];
  const shared: D[] = [];
  for (const dashboard of list) (isOwnDashboard(dashboard) ? own : shared).push(dashboard);
  return { own, shared };
}

/** `menuActions` as a lookup: which of the switcher's entries to show. */
export function menuPermissions(
  dashboard: AccessFacts | undefined,
  isAdmin: boolean,
): Record<MenuAction, boolean> {
  const allowed = dashboard ? menuActions(dashboard, isAdmin) : [];
  return Object.fromEntries(MENU_ACTIONS.map((action) => [action, allowed.includes(action)])) as Record<
    MenuAction,
    boolean
  >;
}
