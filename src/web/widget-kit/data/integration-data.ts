import type { QueryKey } from "@tanstack/react-query";
import { request } from "../../lib/api";
import { useAskAgainOnceSaved } from "./ask-again";
import { type DataSource, useDataSource } from "./source";
import { useWidgetData, type WidgetData } from "./useWidgetData";

/** GET /api/widgets/data's answer (and its public twin's) for a widget that reads an integration. */
export interface IntegrationEnvelope<D> {
  data: D;
  fetchedAt: string;
  stale: boolean;
}

/**
 * The widget's data: the server reads the stored config and asks the integration, signed in or
 * on a public page alike. `asked` keys the cache by what the config asks, so a saved change asks
 * again at once; `name` keeps each widget type's answers apart.
 */
export function integrationDataRequest<D>(source: DataSource, widgetId: string, name: string, asked: string) {
  const id = encodeURIComponent(widgetId);
  if (source.kind === "public")
    return {
      queryKey: ["public-widget", source.dashboardId, widgetId, name, asked] as QueryKey,
      queryFn: () =>
        request<IntegrationEnvelope<D>>(
          "GET",
          `/api/public/dashboards/${encodeURIComponent(source.dashboardId)}/widgets/${id}/data`,
        ),
    };
  return {
    queryKey: [name, widgetId, asked] as QueryKey,
    queryFn: () => request<IntegrationEnvelope<D>>("GET", `/api/widgets/data?id=${id}`),
  };
}

/** What a view of such a widget holds: what its config asks (null: nothing yet) and the answer. */
export interface IntegrationData<D> {
  asks: unknown;
  query: WidgetData<IntegrationEnvelope<D>>;
  /** Where the answer is cached, for an action to put its result in. */
  queryKey: QueryKey;
}

/**
 * The data of a widget that reads an integration, refreshed every `refreshMs` while its config
 * asks for something. `askAgain` says when a saved edit asks again: "changed" once what the
 * config asks has changed; "every-revision" on each stored revision, for a widget whose first
 * question may be answered for the old settings even when a layout save lands in between (it
 * costs the server's cached snapshot).
 */
export function useIntegrationData<D>({
  widget,
  asks,
  name,
  refreshMs,
  askAgain = "changed",
}: {
  widget: { id: string; revision: number };
  /** The contract's `visitorQuery` of the config. */
  asks: unknown;
  name: string;
  refreshMs: number;
  askAgain?: "changed" | "every-revision";
}): IntegrationData<D> {
  const source = useDataSource();
  const asked = JSON.stringify(asks);
  const { queryKey, queryFn } = integrationDataRequest<D>(source, widget.id, name, asked);
  const query = useWidgetData({ queryKey, queryFn, refreshMs, enabled: asks !== null });
  // A question that changes with every revision is asked again on each.
  useAskAgainOnceSaved(query, widget.revision, askAgain === "changed" ? asked : String(widget.revision));
  return { asks, query, queryKey };
}
