import type { Dashboard } from "../../contract/resources";
import type { Directory, Group, Member, MemberInput, MemberRole } from "../../contract/sharing";
import { request } from "./api";

export type { Directory, Group, Member, MemberInput, MemberRole };

const q = (id: string) => `?id=${encodeURIComponent(id)}`;

/**
 * Sharing dashboards with people and groups (DESIGN section 14). Types only from the contract:
 * its schemas would bring the schema library into the bundle.
 */
export const sharingApi = {
  /** The user's own dashboards, then those shared with them (each with its `owner`). */
  dashboards: () => request<Dashboard[]>("GET", "/api/dashboards?include=shared"),
  /** Whom the user can pick to share with: everyone and every group, or (open sign-up) only their groups. */
  directory: () => request<Directory>("GET", "/api/directory"),
  members: {
    list: (dashboardId: string) => request<Member[]>("GET", `/api/dashboards/members${q(dashboardId)}`),
    /** Replaces the whole list; answers it as stored, names filled in. */
    replace: (dashboardId: string, members: MemberInput[]) =>
      request<Member[]>("PUT", "/api/dashboards/members", { id: dashboardId, members }),
  },
  groups: {
    list: () => request<Group[]>("GET", "/api/admin/groups"),
    create: (input: { name: string; members?: string[] }) =>
      request<Group>("POST", "/api/admin/groups", input),
    update: (input: { id: string; name?: string; members?: string[] }) =>
      request<Group>("PUT", "/api/admin/groups", input),
    remove: (id: string) => request<Group>("DELETE", `/api/admin/groups${q(id)}`),
  },
};
