import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { api, describeError } from "../lib/api";
import { keys } from "../lib/queries";
import { useWidgetStore } from "../lib/widget-store";
import { useToasts } from "../ui/Toasts";

/** Signs out from the account menu or the palette alike. */
export function useSignOut() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const navigate = useNavigate();
  const toasts = useToasts();
  const store = useWidgetStore();
  return useCallback(async () => {
    try {
      // Changes still in their quiet period are saved before the session goes.
      await store.saver.flush();
      await api.auth.signOut();
      client.clear();
      client.setQueryData(keys.session, null);
      navigate("/signin", { replace: true });
    } catch (error) {
      toasts.show({ tone: "error", message: t("header.signOutFailed", { reason: describeError(error) }) });
    }
  }, [client, navigate, store, toasts, t]);
}
