import type { AppContext } from "../../../server/context.js";
import type { WidgetData } from "../../../server/widgets/data.js";
import { defineWidgetServer } from "../../../server/widgets/kit.js";
import { QbittorrentDataSchema, type QbittorrentQuery } from "../contract.js";
import { qbittorrentConfigIssues } from "./config-issues.js";
import { qbittorrentSource } from "./source.js";

function qbittorrentData(ctx: AppContext): WidgetData<QbittorrentQuery> {
  const load = qbittorrentSource(ctx);
  return {
    response: QbittorrentDataSchema,
    summary:
      "Transfer speeds and active torrents of a qBittorrent widget on a public dashboard, without a session",
    description:
      "Through the owner's qBittorrent integration (signed in on the server; the credentials never leave it): total download and upload speeds, session totals and limits, the connection status, counts of the torrents moving data now, and the first of them with name, progress, speeds, ETA and state. 404 unless the dashboard is public and the widget is a qBittorrent widget on it with an integration.",
    load: (query, _widgetId, _request, ownerId) => load(query, ownerId),
  };
}

export default defineWidgetServer({ data: qbittorrentData, configIssues: qbittorrentConfigIssues });
