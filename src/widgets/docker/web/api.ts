import { request } from "../../../web/lib/api";
import type { DataSource } from "../../../web/widget-kit/data/source";
import type { DockerAction, DockerActionResult, DockerData } from "../contract";

/** GET /api/widgets/data's answer (and its public twin's). */
export interface DockerEnvelope {
  data: DockerData;
  fetchedAt: string;
  stale: boolean;
}

/**
 * The widget's containers: the server reads the stored config and asks the engine, signed in or
 * on a public page alike. `asked` keys the cache by what the config asks, so a saved change asks
 * again at once.
 */
export function dockerRequest(source: DataSource, widgetId: string, asked: string) {
  const id = encodeURIComponent(widgetId);
  if (source.kind === "public")
    return {
      queryKey: ["public-widget", source.dashboardId, widgetId, "docker", asked],
      queryFn: () =>
        request<DockerEnvelope>(
          "GET",
          `/api/public/dashboards/${encodeURIComponent(source.dashboardId)}/widgets/${id}/data`,
        ),
    };
  return {
    queryKey: ["docker", widgetId, asked],
    queryFn: () => request<DockerEnvelope>("GET", `/api/widgets/data?id=${id}`),
  };
}

/** POST /api/widgets/action: start, stop or restart one of the widget's containers. */
export const runDockerAction = (widgetId: string, action: DockerAction, containerId: string) =>
  request<{ detail: string; result: DockerActionResult }>("POST", "/api/widgets/action", {
    id: widgetId,
    action,
    input: { containerId },
  });
