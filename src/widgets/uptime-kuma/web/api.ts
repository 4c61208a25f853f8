import { request } from "../../../web/lib/api";
import type { DataSource } from "../../../web/widget-kit/data/source";
import type { UptimeKumaData } from "../contract";

/** GET /api/widgets/data's answer (and its public twin's). */
export interface UptimeKumaEnvelope {
  data: UptimeKumaData;
  fetchedAt: string;
  stale: boolean;
}

/**
 * The widget's monitors: the server reads the stored config and asks Uptime Kuma, signed in or on
 * a public page alike. `asked` keys the cache by what the config asks, so a saved change asks
 * again at once.
 */
export function uptimeKumaRequest(source: DataSource, widgetId: string, asked: string) {
  const id = encodeURIComponent(widgetId);
  if (source.kind === "public")
    return {
      queryKey: ["public-widget", source.dashboardId, widgetId, "uptime-kuma", asked],
      queryFn: () =>
        request<UptimeKumaEnvelope>(
          "GET",
          `/api/public/dashboards/${encodeURIComponent(source.dashboardId)}/widgets/${id}/data`,
        ),
    };
  return {
    queryKey: ["uptime-kuma", widgetId, asked],
    queryFn: () => request<UptimeKumaEnvelope>("GET", `/api/widgets/data?id=${id}`),
  };
}
