import type { Provider } from "../../contract/providers";
import { request } from "./api";

/**
 * Typed calls for the data widgets: market prices, weather and the connected-account endpoints.
 * Every one goes through our server, which holds the tokens and the upstream credentials.
 */

export const TIMEFRAMES = ["1h", "24h", "1w", "1m", "3m", "6m", "1y"] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];

export interface Candle {
  time: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}
export interface PairPrices {
  pair: string;
  base: string;
  quote: string;
  timeframe: string;
  price: number;
  changePercent: number | null;
  candles: Candle[];
}
export interface PairFailure {
  pair: string;
  error: { status: number; detail: string };
}
export type PairResult = PairPrices | PairFailure;
export interface Currency {
  id: string;
  name: string;
}

export type TemperatureUnit = "celsius" | "fahrenheit";
export interface Forecast {
  latitude: number;
  longitude: number;
  timezone: string;
  utcOffsetSeconds: number;
  unit: TemperatureUnit;
  units: { temperature: string; windSpeed: string };
  current: {
    time: string;
    temperature: number;
    apparentTemperature: number | null;
    humidity: number | null;
    windSpeed: number | null;
    weatherCode: number;
    isDay: boolean;
  };
  hourly: {
    time: string;
    temperature: number;
    weatherCode: number;
    precipitationProbability: number | null;
  }[];
  daily: {
    date: string;
    weatherCode: number;
    temperatureMax: number;
    temperatureMin: number;
    precipitationProbability: number | null;
    sunrise: string | null;
    sunset: string | null;
  }[];
}
export interface Place {
  id: number;
  name: string;
  latitude: number;
  longitude: number;
  country: string | null;
  countryCode: string | null;
  region: string | null;
  timezone: string | null;
}

export interface MailLabel {
  id: string;
  name: string;
  type: "system" | "user";
}
export interface MailSummary {
  id: string;
  threadId: string;
  from: { name: string; email: string };
  subject: string;
  snippet: string;
  date: string;
  unread: boolean;
  labels: string[];
}
export interface MailPage {
  messages: MailSummary[];
  nextPageToken: string | null;
  resultSizeEstimate: number;
}
export interface MailMessage extends MailSummary {
  to: string;
  /** Sanitized on the server; shown only inside a sandboxed frame all the same. */
  html: string;
  webUrl: string;
}

export interface Calendar {
  id: string;
  name: string;
  primary: boolean;
  color: string | null;
  foregroundColor: string | null;
  accessRole: string;
  writable: boolean;
  timeZone: string | null;
}
export interface CalendarEvent {
  id: string;
  calendarId: string;
  title: string;
  start: string;
  end: string;
  location: string | null;
  meetUrl: string | null;
  htmlLink: string | null;
  status: string;
}
export interface EventList {
  events: CalendarEvent[];
  from: string;
  until: string;
}
export interface NewEvent {
  calendarId: string;
  title: string;
  start: string;
  end: string;
  location?: string;
  description?: string;
  timeZone?: string;
  meet?: boolean;
}

export interface WorkItem {
  id: number;
  number: number;
  title: string;
  repository: string;
  url: string;
  state: string;
  draft: boolean;
  isPullRequest: boolean;
  author: string | null;
  labels: { name: string; color: string | null }[];
  comments: number;
  createdAt: string;
  updatedAt: string;
}
export interface WorkItemPage {
  totalCount: number;
  incompleteResults: boolean;
  page: number;
  perPage: number;
  hasMore: boolean;
  items: WorkItem[];
}
export interface Contributions {
  login: string;
  from: string;
  to: string;
  totalContributions: number;
  days: { date: string; count: number; level: number }[];
}

export interface NotesPageSummary {
  id: string;
  title: string;
  url: string | null;
  icon: string | null;
  lastEditedAt: string | null;
  parentId: string | null;
}
export interface NotesPageList {
  pages: NotesPageSummary[];
  nextCursor: string | null;
}
export interface NotesPage extends NotesPageSummary {
  markdown: string;
  truncated: boolean;
}

export interface PublicWidget {
  id: string;
  widgetType: string;
  height: number;
  width: number;
  positionX: number;
  positionY: number;
  config: Record<string, unknown>;
}
export interface PublicDashboard {
  id: string;
  name: string;
  updatedAt: string;
  widgets: PublicWidget[];
}

const enc = encodeURIComponent;
function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : "";
}

export function publicWidgetPath(dashboardId: string, widgetId: string, data: "prices" | "weather"): string {
  return `/api/public/dashboards/${enc(dashboardId)}/widgets/${enc(widgetId)}/${data}`;
}

export const dataApi = {
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
  },
};

/** Query keys of provider data start with the provider, so a disconnect can drop them all at once. */
export const dataKeys = {
  provider: (provider: Provider) => ["provider-data", provider] as const,
};
