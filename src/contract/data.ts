/**
 * The JSON the data endpoints answer (exchange, weather, connected-account data, public
 * dashboards): one definition read by the server modules that produce it and the web app that
 * shows it.
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
