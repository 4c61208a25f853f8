import { request } from "../../../web/lib/api";
import type { DataSource } from "../../../web/widget-kit/data/source";
import type { CalendarConfig, CalendarData } from "../contract";

/** GET /api/widgets/data's answer (and its public twin's). */
export interface CalendarEnvelope {
  data: CalendarData;
  fetchedAt: string;
  stale: boolean;
}

/** What a config asks the server for: the query's key, so an edit asks again. */
export const askedOf = (config: CalendarConfig) =>
  JSON.stringify([config.days, config.sources.map((s) => [s.id, s.url ?? "", s.integrationId ?? ""])]);

/**
 * The widget's events: the server reads the stored config and fetches the feeds, signed in or on
 * a public page alike.
 */
export function calendarRequest(source: DataSource, widgetId: string, config: CalendarConfig) {
  const asked = askedOf(config);
  const id = encodeURIComponent(widgetId);
  if (source.kind === "public")
    return {
      queryKey: ["public-widget", source.dashboardId, widgetId, "calendar", asked],
      queryFn: () =>
        request<CalendarEnvelope>(
          "GET",
          `/api/public/dashboards/${encodeURIComponent(source.dashboardId)}/widgets/${id}/data`,
        ),
    };
  return {
    queryKey: ["calendar", widgetId, asked],
    queryFn: () => request<CalendarEnvelope>("GET", `/api/widgets/data?id=${id}`),
  };
}
