import type { QueryKey } from "@tanstack/react-query";
import { createContext, useContext } from "react";
import {
  dataApi,
  type FeedResult,
  type Forecast,
  type PairResult,
  type StatusTargetResult,
  type TemperatureUnit,
  type Timeframe,
} from "../../lib/data-api";

/**
 * Where a data widget reads from. Signed in, it asks the API with the config it holds; on a
 * public dashboard there is no session, so it asks for the data of the stored widget instead and
 * the server reads the config itself (a visitor can't make it fetch anything else).
 */
export type DataSource = { kind: "session" } | { kind: "public"; dashboardId: string };

export const sessionSource: DataSource = { kind: "session" };

export const DataSourceContext = createContext<DataSource>(sessionSource);

export function useDataSource(): DataSource {
  return useContext(DataSourceContext);
}

interface DataRequest<T> {
  queryKey: QueryKey;
  queryFn: () => Promise<T>;
}

/** The prices query of one Crypto widget; public answers are cached apart from private ones. */
export function pricesRequest(
  source: DataSource,
  widgetId: string,
  pairs: string[],
  timeframe: Timeframe,
): DataRequest<PairResult[]> {
  if (source.kind === "public")
    return {
      queryKey: ["public-widget", source.dashboardId, widgetId, "prices", pairs.join(","), timeframe],
      queryFn: () => dataApi.publicWidget.prices(source.dashboardId, widgetId),
    };
  return {
    queryKey: ["exchange", "prices", pairs.join(","), timeframe],
    queryFn: () => dataApi.exchange.prices(pairs, timeframe),
  };
}

/** The forecast query of one Weather widget with a location. */
export function forecastRequest(
  source: DataSource,
  widgetId: string,
  location: { latitude: number; longitude: number },
  unit: TemperatureUnit,
): DataRequest<Forecast> {
  if (source.kind === "public")
    return {
      queryKey: [
        "public-widget",
        source.dashboardId,
        widgetId,
        "weather",
        location.latitude,
        location.longitude,
        unit,
      ],
      queryFn: () => dataApi.publicWidget.weather(source.dashboardId, widgetId),
    };
  return {
    queryKey: ["weather", "forecast", location.latitude, location.longitude, unit],
    queryFn: () => dataApi.weather.forecast(location.latitude, location.longitude, unit),
  };
}

/** The entries of one Feed widget's feeds. */
export function feedsRequest(
  source: DataSource,
  widgetId: string,
  urls: string[],
): DataRequest<FeedResult[]> {
  if (source.kind === "public")
    return {
      queryKey: ["public-widget", source.dashboardId, widgetId, "feeds", urls.join(" ")],
      queryFn: () => dataApi.publicWidget.feeds(source.dashboardId, widgetId),
    };
  return { queryKey: ["feeds", urls.join(" ")], queryFn: () => dataApi.feeds(urls) };
}

/** The server's last checks of one Status widget's targets. */
export function statusRequest(
  source: DataSource,
  widgetId: string,
  targets: readonly { id: string; url: string }[],
): DataRequest<StatusTargetResult[]> {
  // An edited list asks again (the server answers for the targets it has stored).
  const list = targets.map((t) => `${t.id}=${t.url}`).join(" ");
  if (source.kind === "public")
    return {
      queryKey: ["public-widget", source.dashboardId, widgetId, "status", list],
      queryFn: () => dataApi.publicWidget.status(source.dashboardId, widgetId),
    };
  return { queryKey: ["status", widgetId, list], queryFn: () => dataApi.status(widgetId) };
}
