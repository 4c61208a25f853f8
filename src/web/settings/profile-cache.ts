import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import type { Me } from "../../contract/operators";
import type { SessionInfo } from "../lib/api";
import { keys } from "../lib/queries";
import { accountKeys, type Profile } from "./account-api";

/**
 * Puts a profile the server answered everywhere the app keeps the user (the account menu reads
 * /api/me, pages read the session), so a new picture or address shows at once without a refetch.
 */
export function useApplyProfile() {
  const client = useQueryClient();
  return useCallback(
    (profile: Profile) => {
      const { name, email, image } = profile;
      client.setQueryData(accountKeys.profile, profile);
      client.setQueryData<Me | null>(keys.me, (me) => (me ? { ...me, name, email, image } : me));
      client.setQueryData<SessionInfo | null>(keys.session, (s) =>
        s ? { ...s, user: { ...s.user, name, email, image } } : s,
      );
    },
    [client],
  );
}
