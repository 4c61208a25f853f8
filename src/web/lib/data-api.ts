import type { BundledIcon, IconSearchResult } from "../../contract/icons";
import type { Provider } from "../../contract/providers";
import { request } from "./api";

/**
 * Typed calls for the data widgets: market prices, weather, feeds and the connected-account endpoints.
 * Every one goes through our server, which holds the tokens and the upstream credentials.
 */

export type {
  Calendar,
  CalendarEvent,
  Candle,
  Contributions,
  Currency,
  EventList,
  FeedItem,
  FeedResult,
  Forecast,
  MailLabel,
  MailMessage,
  MailPage,
  MailSummary,
  NewEvent,
  NotesPage,
  NotesPageList,
  NotesPageSummary,
  PairFailure,
  PairPrices,
  PairResult,
  Place,
  PublicDashboard,
  PublicWidget,
  StatusState,
  StatusTargetResult,
  TemperatureUnit,
  Timeframe,
  WorkItem,
  WorkItemPage,
} from "../../contract/data";
export { TIMEFRAMES } from "../../contract/timeframes";

import type {
  Calendar,
  CalendarEvent,
  Contributions,
  Currency,
  EventList,
  FeedResult,
  Forecast,
  MailLabel,
  MailMessage,
  MailPage,
  NewEvent,
  NotesPage,
  NotesPageList,
  PairResult,
  Place,
  PublicDashboard,
  StatusTargetResult,
  TemperatureUnit,
  Timeframe,
  WorkItemPage,
} from "../../contract/data";

const enc = encodeURIComponent;
function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : "";
}

export function publicWidgetPath(
  dashboardId: string,
  widgetId: string,
  data: "prices" | "weather" | "feeds" | "status",
): string {
  return `/api/public/dashboards/${enc(dashboardId)}/widgets/${enc(widgetId)}/${data}`;
}

export const dataApi = {
  /** The bundled icon set, served by our server from its npm package (no session needed). */
  icons: {
    search: (q: string, hint: string) =>
      request<IconSearchResult>(
        "GET",
        `/api/icons/bundled${query({ q: q || undefined, hint: hint || undefined })}`,
      ),
    get: (slug: string) => request<BundledIcon>("GET", `/api/icons/bundled/${enc(slug)}`),
  },
  exchange: {
    prices: (pairs: string[], timeframe: Timeframe) =>
      request<PairResult[]>("GET", `/api/exchange/prices${query({ pairs: pairs.join(","), timeframe })}`),
    currencies: () => request<Currency[]>("GET", "/api/exchange/currencies"),
  },
  weather: {
    forecast: (latitude: number, longitude: number, unit: TemperatureUnit) =>
      request<Forecast>(
        "GET",
        `/api/weather${query({ lat: latitude.toFixed(4), lon: longitude.toFixed(4), unit })}`,
      ),
    search: (q: string) => request<Place[]>("GET", `/api/weather/search${query({ q })}`),
  },
  feeds: (urls: readonly string[]) =>
    request<FeedResult[]>("GET", `/api/feeds${query({ urls: urls.join(" ") })}`),
  /** The server's last check of each target of a Status widget (it checks them, not the browser). */
  status: (widgetId: string) => request<StatusTargetResult[]>("GET", `/api/status${query({ widgetId })}`),
  mail: {
    labels: () => request<MailLabel[]>("GET", "/api/providers/suite/mail/labels"),
    messages: (labels: string[], pageToken?: string) =>
      request<MailPage>(
        "GET",
        `/api/providers/suite/mail/messages${query({ labels: labels.join(","), pageSize: 20, pageToken })}`,
      ),
    message: (id: string) => request<MailMessage>("GET", `/api/providers/suite/mail/messages/${enc(id)}`),
  },
  calendar: {
    calendars: () => request<Calendar[]>("GET", "/api/providers/suite/calendars"),
    events: (calendars: string[] | undefined, days = 14) =>
      request<EventList>(
        "GET",
        `/api/providers/suite/events${query({ calendars: calendars?.join(","), days, limit: 100 })}`,
      ),
    create: (event: NewEvent) => request<CalendarEvent>("POST", "/api/providers/suite/events", event),
  },
  codehost: {
    items: (type: "issue" | "pr", repos: string[]) =>
      request<WorkItemPage>(
        "GET",
        `/api/providers/codehost/items${query({ type, repos: repos.length ? repos.join(",") : undefined, perPage: 50 })}`,
      ),
    contributions: (login?: string) =>
      request<Contributions>("GET", `/api/providers/codehost/contributions${query({ login })}`),
  },
  notes: {
    pages: (q: string, cursor?: string) =>
      request<NotesPageList>("GET", `/api/providers/notes/pages${query({ q: q || undefined, cursor })}`),
    page: (id: string) => request<NotesPage>("GET", `/api/providers/notes/pages/${enc(id)}`),
  },
  publicDashboard: (id: string) => request<PublicDashboard>("GET", `/api/public/dashboards/${enc(id)}`),
  /** A published widget's live data, read with the config stored on it; no session needed. */
  publicWidget: {
    prices: (dashboardId: string, widgetId: string) =>
      request<PairResult[]>("GET", publicWidgetPath(dashboardId, widgetId, "prices")),
    weather: (dashboardId: string, widgetId: string) =>
      request<Forecast>("GET", publicWidgetPath(dashboardId, widgetId, "weather")),
    feeds: (dashboardId: string, widgetId: string) =>
      request<FeedResult[]>("GET", publicWidgetPath(dashboardId, widgetId, "feeds")),
    status: (dashboardId: string, widgetId: string) =>
      request<StatusTargetResult[]>("GET", publicWidgetPath(dashboardId, widgetId, "status")),
  },
};

/** Query keys of provider data start with the provider, so a disconnect can drop them all at once. */
export const dataKeys = {
  provider: (provider: Provider) => ["provider-data", provider] as const,
};
