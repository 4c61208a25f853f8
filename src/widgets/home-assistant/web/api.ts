import { useQuery } from "@tanstack/react-query";
import { request } from "../../../web/lib/api";
import type { HomeAssistantToggleResult } from "../contract";

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
