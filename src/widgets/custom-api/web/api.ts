import { request } from "../../../web/lib/api";
import type { DataSource } from "../../../web/widget-kit/data/source";
import type { CustomApiData } from "../contract";

/** GET /api/widgets/data's answer (and its public twin's). */
export interface CustomApiEnvelope {
  data: CustomApiData;
  fetchedAt: string;
  stale: boolean;
}

/**
 * The widget's values: the server reads the stored config, calls the service and runs the
 * queries, signed in or on a public page alike. `asked` (what the config asks) and the stored
 * revision key the cache: a change asks again at once, and again when its save has landed (the
 * server answers for the config it has stored).
 */
export function customApiRequest(source: DataSource, widgetId: string, asked: string, revision: number) {
  const id = encodeURIComponent(widgetId);
  if (source.kind === "public")
    return {
      queryKey: ["public-widget", source.dashboardId, widgetId, "custom-api", asked, revision],
      queryFn: () =>
        request<CustomApiEnvelope>(
          "GET",
          `/api/public/dashboards/${encodeURIComponent(source.dashboardId)}/widgets/${id}/data`,
        ),
    };
  return {
    queryKey: ["custom-api", widgetId, asked, revision],
    queryFn: () => request<CustomApiEnvelope>("GET", `/api/widgets/data?id=${id}`),
  };
}
