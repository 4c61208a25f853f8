import { useEffect, useRef } from "react";
import { request } from "../../../web/lib/api";
import type { DataSource } from "../../../web/widget-kit/data/source";
import type { ProxmoxData } from "../contract";

/** GET /api/widgets/data's answer (and its public twin's). */
export interface ProxmoxEnvelope {
  data: ProxmoxData;
  fetchedAt: string;
  stale: boolean;
}

/**
 * The widget's nodes and guests: the server reads the stored config and asks Proxmox, signed in
 * or on a public page alike. `asked` keys the cache by what the config asks, so a saved change
 * asks again at once.
 */
export function proxmoxRequest(source: DataSource, widgetId: string, asked: string) {
  const id = encodeURIComponent(widgetId);
  if (source.kind === "public")
    return {
      queryKey: ["public-widget", source.dashboardId, widgetId, "proxmox", asked],
      queryFn: () =>
        request<ProxmoxEnvelope>(
          "GET",
          `/api/public/dashboards/${encodeURIComponent(source.dashboardId)}/widgets/${id}/data`,
        ),
    };
  return {
    queryKey: ["proxmox", widgetId, asked],
    queryFn: () => request<ProxmoxEnvelope>("GET", `/api/widgets/data?id=${id}`),
  };
}

/**
 * Asks again each time the widget's stored revision moves on. A settings change is drawn at once
 * and stored a moment later, so the first question may be answered for the old settings; comparing
 * only what is asked (useAskAgainOnceSaved) misses the case where a layout save lands in between
 * and takes the new question's place. Asking on every revision costs the server's cached snapshot.
 */
export function useAskAgainOnEveryRevision(query: { refetch(): unknown }, revision: number) {
  const seen = useRef(revision);
  const { refetch } = query;
  useEffect(() => {
    if (seen.current === revision) return;
    seen.current = revision;
    void refetch();
  }, [revision, refetch]);
}
