import { useQuery } from "@tanstack/react-query";
import { request } from "../../../web/lib/api";
import type { DataSource } from "../../../web/widget-kit/data/source";

/** A poster, from our server (which asks Jellyfin with the key): the tag changes with the picture. */
export function posterUrl(source: DataSource, widgetId: string, poster: { itemId: string; tag: string }) {
  const tail = `${encodeURIComponent(poster.itemId)}?tag=${encodeURIComponent(poster.tag)}`;
  const widget = encodeURIComponent(widgetId);
  return source.kind === "public"
    ? `/api/public/dashboards/${encodeURIComponent(source.dashboardId)}/widgets/${widget}/jellyfin-posters/${tail}`
    : `/api/jellyfin/posters/${widget}/${tail}`;
}

export interface JellyfinUserChoice {
  id: string;
  name: string;
  admin: boolean;
}

/** The users of an integration, for the settings to pick whose additions are shown. */
export function useJellyfinUsers(integrationId: string | undefined) {
  return useQuery({
    queryKey: ["jellyfin", "users", integrationId],
    queryFn: () =>
      request<JellyfinUserChoice[]>(
        "GET",
        `/api/jellyfin/users?integrationId=${encodeURIComponent(integrationId ?? "")}`,
      ),
    enabled: Boolean(integrationId),
    staleTime: 60_000,
    retry: false,
  });
}
