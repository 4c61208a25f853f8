import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { InstanceSettings, UpdateInstanceSettings } from "../../contract/instance-settings";
import type { AdminUser, CreatedAccount, Role } from "../../contract/operators";
import { request } from "./api";
import { operatorKeys } from "./operators-queries";

export type { CreatedAccount, InstanceSettings, UpdateInstanceSettings };

export const instanceSettingsKey = ["admin", "settings"] as const;

export const instanceSettingsApi = {
  get: () => request<InstanceSettings>("GET", "/api/admin/settings"),
  update: (changes: UpdateInstanceSettings) =>
    request<InstanceSettings>("PUT", "/api/admin/settings", changes),
  createAccount: (input: { name: string; email: string; password?: string; role: Role }) =>
    request<CreatedAccount>("POST", "/api/admin/users", input),
};

/** The admin page's instance settings (admins only: `enabled` false asks nothing). */
export function useInstanceSettings(enabled = true) {
  return useQuery({ queryKey: instanceSettingsKey, queryFn: instanceSettingsApi.get, enabled });
}

/**
 * Saves settings; what the sign-in page and the invite hints read (`/api/instance`) is asked
 * again, since the sign-up mode may have changed.
 */
export function useSaveInstanceSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: instanceSettingsApi.update,
    onSuccess: (saved) => {
      client.setQueryData(instanceSettingsKey, saved);
      void client.invalidateQueries({ queryKey: operatorKeys.instance });
    },
  });
}

/** Creates an account; the users list shows it at once. */
export function useCreateAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: instanceSettingsApi.createAccount,
    onSuccess: ({ user }) => {
      client.setQueryData<AdminUser[]>(operatorKeys.users, (list) => (list ? [...list, user] : list));
      void client.invalidateQueries({ queryKey: operatorKeys.users });
    },
  });
}
