import { useQuery } from "@tanstack/react-query";
import { operatorsApi } from "./operators-api";
import { keys } from "./queries";

export const operatorKeys = {
  me: keys.me,
  instance: ["instance"] as const,
  users: ["admin", "users"] as const,
  invites: ["admin", "invites"] as const,
  apiKeys: ["api-keys"] as const,
  sessions: ["device-sessions"] as const,
};

/** The signed-in user's role and profile; null on a server without /api/me. */
export function useMe(enabled = true) {
  return useQuery({ queryKey: operatorKeys.me, queryFn: operatorsApi.me, enabled, staleTime: 5 * 60_000 });
}

export function useIsAdmin(): boolean {
  return useMe().data?.role === "admin";
}

/** Sign-up mode, single sign-on and whether anyone has an account yet (public). */
export function useInstance() {
  return useQuery({ queryKey: operatorKeys.instance, queryFn: operatorsApi.instance, staleTime: 60_000 });
}
