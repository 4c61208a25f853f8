import { request } from "../../../web/lib/api";
import type { DataSource } from "../../../web/widget-kit/data/source";
import type { AdBlockingActionResult, AdBlockingData, PauseMinutes } from "../contract";

/** GET /api/widgets/data's answer (and its public twin's). */
export interface AdBlockingEnvelope {
  data: AdBlockingData;
  fetchedAt: string;
  stale: boolean;
}

/**
 * The blocker's numbers: the server reads the stored config and asks Pi-hole or AdGuard Home,
 * signed in or on a public page alike. `asked` keys the cache by what the config asks, so a
 * saved change asks again at once.
 */
export function adBlockingRequest(source: DataSource, widgetId: string, asked: string) {
  const id = encodeURIComponent(widgetId);
  if (source.kind === "public")
    return {
      queryKey: ["public-widget", source.dashboardId, widgetId, "ad-blocking", asked],
      queryFn: () =>
        request<AdBlockingEnvelope>(
          "GET",
          `/api/public/dashboards/${encodeURIComponent(source.dashboardId)}/widgets/${id}/data`,
        ),
    };
  return {
    queryKey: ["ad-blocking", widgetId, asked],
    queryFn: () => request<AdBlockingEnvelope>("GET", `/api/widgets/data?id=${id}`),
  };
}

type ActionAnswer = { detail: string; result: AdBlockingActionResult };

/** POST /api/widgets/action: blocking off for `minutes`, back on by itself afterwards. */
export const pauseBlocking = (widgetId: string, minutes: PauseMinutes) =>
  request<ActionAnswer>("POST", "/api/widgets/action", { id: widgetId, action: "pause", input: { minutes } });

/** POST /api/widgets/action: blocking on again now. */
export const resumeBlocking = (widgetId: string) =>
  request<ActionAnswer>("POST", "/api/widgets/action", { id: widgetId, action: "resume" });
