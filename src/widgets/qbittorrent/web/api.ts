import { request } from "../../../web/lib/api";
import type { DataSource } from "../../../web/widget-kit/data/source";
import type { QbittorrentData } from "../contract";

/** GET /api/widgets/data's answer (and its public twin's). */
export interface QbittorrentEnvelope {
  data: QbittorrentData;
  fetchedAt: string;
  stale: boolean;
}

/**
 * The widget's speeds and torrents: the server reads the stored config and asks qBittorrent,
 * signed in or on a public page alike. `asked` keys the cache by what the config asks, so a saved
 * change asks again at once.
 */
export function qbittorrentRequest(source: DataSource, widgetId: string, asked: string) {
  const id = encodeURIComponent(widgetId);
  if (source.kind === "public")
    return {
      queryKey: ["public-widget", source.dashboardId, widgetId, "qbittorrent", asked],
      queryFn: () =>
        request<QbittorrentEnvelope>(
          "GET",
          `/api/public/dashboards/${encodeURIComponent(source.dashboardId)}/widgets/${id}/data`,
        ),
    };
  return {
    queryKey: ["qbittorrent", widgetId, asked],
    queryFn: () => request<QbittorrentEnvelope>("GET", `/api/widgets/data?id=${id}`),
  };
}
