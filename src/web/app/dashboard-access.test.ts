import { describe, expect, it } from "vitest";
import {
  accessOf,
  canEditDashboard,
  canManageDashboard,
  isOwnDashboard,
  menuActions,
  menuPermissions,
  splitDashboards,
} from "./dashboard-access";

const anna = { id: "u-anna", name: "Anna" };
const own = { access: "owner" as const };
const editing = { access: "editor" as const, owner: anna };
const viewing = { access: "viewer" as const, owner: anna };

describe("what a dashboard's access allows", () => {
  it("gives a viewer Export and Duplicate only", () => {
    expect(menuActions(viewing, false)).toEqual(["duplicate", "export"]);
    expect(canEditDashboard(viewing)).toBe(false);
    expect(canManageDashboard(viewing, false)).toBe(false);
  });

  it("gives an editor Rename, Look and History as well, but not Share or Delete", () => {
    expect(menuActions(editing, false)).toEqual(["rename", "look", "duplicate", "export", "history"]);
    expect(canEditDashboard(editing)).toBe(true);
    expect(canManageDashboard(editing, false)).toBe(false);
  });

  it("gives the owner everything, in the menu's order", () => {
    expect(menuActions(own, false)).toEqual([
      "rename",
      "share",
      "look",
      "duplicate",
      "export",
      "history",
      "delete",
    ]);
  });

  it("lets an admin share and delete any dashboard, but edit only as an editor", () => {
    expect(menuActions(viewing, true)).toEqual(["share", "duplicate", "export", "delete"]);
    expect(canEditDashboard(viewing)).toBe(false);
    expect(menuActions(editing, true)).toEqual(menuActions(own, false));
  });

  it("leaves a provisioned read-only dashboard to its file: Export and Duplicate, even for its owner and admins", () => {
    const locked = { ...own, provisionLocked: true };
    expect(menuActions(locked, true)).toEqual(["duplicate", "export"]);
    expect(canEditDashboard(locked)).toBe(false);
    expect(canManageDashboard(locked, true)).toBe(false);
    expect(menuActions({ ...own, provisionLocked: false }, false)).toEqual(menuActions(own, false));
  });

  it("takes an answer without access (from before sharing) for the user's own", () => {
    expect(accessOf({})).toBe("owner");
    expect(isOwnDashboard({})).toBe(true);
    expect(menuActions({}, false)).toContain("delete");
  });

  it("answers every entry as a lookup, none without a dashboard", () => {
    expect(menuPermissions(viewing, false)).toEqual({
      rename: false,
      share: false,
      look: false,
      duplicate: true,
      export: true,
      history: false,
      delete: false,
    });
    expect(Object.values(menuPermissions(undefined, true)).some(Boolean)).toBe(false);
  });

  it("splits the list into the user's own and those shared with them, keeping the order", () => {
    const list = [
      { id: "1", ...own },
      { id: "2", ...viewing },
      { id: "3", ...own },
      { id: "4", ...editing },
    ];
    const { own: mine, shared } = splitDashboards(list);
    expect(mine.map((d) => d.id)).toEqual(["1", "3"]);
    expect(shared.map((d) => d.id)).toEqual(["2", "4"]);
  });
});

describe("the dashboards list", () => {
  it("sorts the user's own oldest first, then those shared with them", async () => {
    const { sortDashboards } = await import("../lib/queries");
    const at = (day: number) => `2030-01-0${day}T00:00:00.000Z`;
    const list = [
      { id: "shared-old", createdAt: at(1), ...viewing },
      { id: "mine-new", createdAt: at(4), ...own },
      { id: "shared-new", createdAt: at(3), ...editing },
      { id: "mine-old", createdAt: at(2), ...own },
    ] as unknown as Parameters<typeof sortDashboards>[0];
    expect(sortDashboards(list).map((d) => d.id)).toEqual([
      "mine-old",
      "mine-new",
      "shared-old",
      "shared-new",
    ]);
  });
});
