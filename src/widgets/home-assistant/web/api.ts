import { useQuery } from "@tanstack/react-query";
import { request } from "../../../web/lib/api";
import type { DataSource } from "../../../web/widget-kit/data/source";
import type { HomeAssistantData, HomeAssistantToggleResult } from "../contract";

/** GET /api/widgets/data's answer (and its public twin's). */
export interface HomeAssistantEnvelope {
  data: HomeAssistantData;
  fetchedAt: string;
  stale: boolean;
}

/**
 * The widget's states: the server reads the stored config and asks Home Assistant, signed in or
 * on a public page alike. `asked` keys the cache by what the config asks, so a saved change asks
 * again at once.
 */
export function homeAssistantRequest(source: DataSource, widgetId: string, asked: string) {
  const id = encodeURIComponent(widgetId);
  if (source.kind === "public")
    return {
      queryKey: ["public-widget", source.dashboardId, widgetId, "home-assistant", asked],
      queryFn: () =>
        request<HomeAssistantEnvelope>(
          "GET",
          `/api/public/dashboards/${encodeURIComponent(source.dashboardId)}/widgets/${id}/data`,
        ),
    };
  return {
    queryKey: ["home-assistant", widgetId, asked],
    queryFn: () => request<HomeAssistantEnvelope>("GET", `/api/widgets/data?id=${id}`),
  };
}

/** POST /api/widgets/action: Home Assistant's toggle service for one of the widget's entities. */
export const toggleEntity = (widgetId: string, entityId: string) =>
  request<{ detail: string; result: HomeAssistantToggleResult }>("POST", "/api/widgets/action", {
    id: widgetId,
    action: "toggle",
    input: { entityId },
  });

/** One entity offered by the settings' picker. */
export interface EntityChoice {
  entityId: string;
  name: string | null;
  domain: string;
  state: string;
  unit: string | null;
}

/** Every entity of an integration, for the settings to pick from (asked when the picker opens). */
export function useEntityChoices(integrationId: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: ["home-assistant", "entities", integrationId],
    queryFn: () =>
      request<EntityChoice[]>(
        "GET",
        `/api/home-assistant/entities?integrationId=${encodeURIComponent(integrationId ?? "")}`,
      ),
    enabled: enabled && Boolean(integrationId),
    staleTime: 60_000,
    retry: false,
  });
}
