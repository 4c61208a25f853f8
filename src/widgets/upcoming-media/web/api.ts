import { request } from "../../../web/lib/api";
import type { DataSource } from "../../../web/widget-kit/data/source";
import type { UpcomingMediaData } from "../contract";

/** GET /api/widgets/data's answer (and its public twin's). */
export interface UpcomingMediaEnvelope {
  data: UpcomingMediaData;
  fetchedAt: string;
  stale: boolean;
}

/**
 * The widget's calendar and queues: the server reads the stored config and asks Sonarr and
 * Radarr, signed in or on a public page alike. `asked` keys the cache by what the config asks,
 * so a saved change asks again at once.
 */
export function upcomingMediaRequest(source: DataSource, widgetId: string, asked: string) {
  const id = encodeURIComponent(widgetId);
  if (source.kind === "public")
    return {
      queryKey: ["public-widget", source.dashboardId, widgetId, "upcoming-media", asked],
      queryFn: () =>
        request<UpcomingMediaEnvelope>(
          "GET",
          `/api/public/dashboards/${encodeURIComponent(source.dashboardId)}/widgets/${id}/data`,
        ),
    };
  return {
    queryKey: ["upcoming-media", widgetId, asked],
    queryFn: () => request<UpcomingMediaEnvelope>("GET", `/api/widgets/data?id=${id}`),
  };
}
