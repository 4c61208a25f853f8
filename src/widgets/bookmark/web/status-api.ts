import { useQuery } from "@tanstack/react-query";
import type { Widget } from "../../../contract/resources";
import { request } from "../../../web/lib/api";
import { useAskAgainOnceSaved } from "../../../web/widget-kit/data/ask-again";
import { type DataSource, useDataSource } from "../../../web/widget-kit/data/source";
import { useWidgetData } from "../../../web/widget-kit/data/useWidgetData";
import {
  type BookmarkConfig,
  type BookmarkStatusData,
  type LinkStatusResult,
  statusQueryOf,
} from "../contract";

/** Link checks are kept 30 s on the server; asking more often would only read the same answer. */
const REFRESH_MS = 30_000;

function statusRequest(source: DataSource, widgetId: string, asked: string) {
  const id = encodeURIComponent(widgetId);
  if (source.kind === "public")
    return {
      queryKey: ["public-widget", source.dashboardId, widgetId, "bookmark-status", asked],
      queryFn: () =>
        request<BookmarkStatusData>(
          "GET",
          `/api/public/dashboards/${encodeURIComponent(source.dashboardId)}/widgets/${id}/bookmark-status`,
        ),
    };
  return {
    queryKey: ["bookmark-status", widgetId, asked],
    queryFn: () => request<BookmarkStatusData>("GET", `/api/bookmarks/status?widgetId=${id}`),
  };
}

/**
 * The dots of the widget's links, by bookmark id; empty while none is asked for or the first
 * answer is on its way. A link the answer leaves out (a visitor's view of a private check) has none.
 */
export function useLinkStatuses(
  widget: Widget,
  config: BookmarkConfig,
): ReadonlyMap<string, LinkStatusResult> {
  const source = useDataSource();
  const asks = statusQueryOf(config);
  const asked = JSON.stringify(asks);
  const query = useWidgetData({
    ...statusRequest(source, widget.id, asked),
    refreshMs: REFRESH_MS,
    refetchOnFocus: true,
    enabled: asks !== null,
  });
  // Every stored revision asks again: a layout save landing between a changed dot and its save
  // would hide the change from a comparison of what is asked. Checks are kept 30 s on the server,
  // so asking again costs no site anything.
  useAskAgainOnceSaved(query, widget.revision, String(widget.revision));
  const links = asks ? (query.data?.links ?? []) : [];
  return new Map(links.map((link) => [link.id, link]));
}

/** A check of one of the caller's Status widgets, as the settings offer it. */
export interface NameableCheck {
  widgetId: string;
  checkId: string;
  name: string;
  url: string;
  dashboardId: string;
  dashboardName: string;
}

export function useNameableChecks() {
  return useQuery({
    queryKey: ["bookmark-status-checks"],
    queryFn: () => request<NameableCheck[]>("GET", "/api/bookmarks/status-checks"),
    staleTime: 60_000,
  });
}
