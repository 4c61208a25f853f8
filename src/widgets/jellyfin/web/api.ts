import { useQuery } from "@tanstack/react-query";
import { request } from "../../../web/lib/api";
import type { DataSource } from "../../../web/widget-kit/data/source";
import type { JellyfinData } from "../contract";

/** GET /api/widgets/data's answer (and its public twin's). */
export interface JellyfinEnvelope {
  data: JellyfinData;
  fetchedAt: string;
  stale: boolean;
}

/**
 * What the widget shows: the server reads the stored config and asks Jellyfin, signed in or on a
 * public page alike. `asked` keys the cache by what the config asks, so a saved change asks again.
 */
export function jellyfinRequest(source: DataSource, widgetId: string, asked: string) {
  const id = encodeURIComponent(widgetId);
  if (source.kind === "public")
    return {
      queryKey: ["public-widget", source.dashboardId, widgetId, "jellyfin", asked],
      queryFn: () =>
        request<JellyfinEnvelope>(
          "GET",
          `/api/public/dashboards/${encodeURIComponent(source.dashboardId)}/widgets/${id}/data`,
        ),
    };
  return {
    queryKey: ["jellyfin", widgetId, asked],
    queryFn: () => request<JellyfinEnvelope>("GET", `/api/widgets/data?id=${id}`),
  };
}

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
