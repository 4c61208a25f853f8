import { useQuery } from "@tanstack/react-query";
import { sharingApi } from "./sharing-api";

export const sharingKeys = {
  directory: ["directory"] as const,
  members: (dashboardId: string) => ["dashboard-members", dashboardId] as const,
  groups: ["admin", "groups"] as const,
};

/** The people and groups the user can share with. */
export function useDirectory(enabled = true) {
  return useQuery({
    queryKey: sharingKeys.directory,
    queryFn: sharingApi.directory,
    enabled,
    staleTime: 60_000,
  });
}

/** Whom a dashboard is shared with, and as what. */
export function useMembers(dashboardId: string) {
  return useQuery({
    queryKey: sharingKeys.members(dashboardId),
    queryFn: () => sharingApi.members.list(dashboardId),
  });
}

/** Every group with its members (admins only). */
export function useGroups() {
  return useQuery({ queryKey: sharingKeys.groups, queryFn: sharingApi.groups.list });
}
