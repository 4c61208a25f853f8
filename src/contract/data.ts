import { type Static, Type } from "@sinclair/typebox";
import { LookSchema, ProviderSchema, WidgetSchema } from "./resources.js";
import { TIMEFRAMES, type Timeframe } from "./timeframes.js";
import { TEMPERATURE_UNITS, type TemperatureUnit } from "./units.js";

/**
 * The JSON the data endpoints answer (exchange, weather, connected-account data, public
 * dashboards), as JSON Schema: the server's routes validate and document with these, and the web
 * app reads the types derived from them. One definition per shape.
 */

export { TIMEFRAMES, type Timeframe };

const Iso = Type.String({ format: "date-time" });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);
const NullableNumber = Nullable(Type.Number());
const NullableString = Nullable(Type.String());

// Exchange (DESIGN section 5)

export const CandleSchema = Type.Object({
  time: Type.String({ format: "date-time", description: "Start of the candle, ISO 8601 UTC" }),
  open: Type.Number(),
  high: Type.Number(),
  low: Type.Number(),
  close: Type.Number(),
  volume: Type.Number(),
});
export type Candle = Static<typeof CandleSchema>;

export const PairPricesSchema = Type.Object(
  {
    pair: Type.String(),
    base: Type.String(),
    quote: Type.String(),
    timeframe: Type.String(),
    price: Type.Number({ description: "The latest close" }),
    changePercent: Type.Union([Type.Number(), Type.Null()], {
      description: "(latest close - first open) / first open * 100; null if the first open is 0",
    }),
    candles: Type.Array(CandleSchema, { description: "Oldest first" }),
  },
  { title: "PairPrices", additionalProperties: false },
);
export type PairPrices = Static<typeof PairPricesSchema>;

export const PairFailureSchema = Type.Object(
  {
    pair: Type.String(),
    error: Type.Object({
      status: Type.Integer({ description: "What this pair alone would have answered: 404, 502, 503 or 504" }),
      detail: Type.String(),
    }),
  },
  { title: "PairFailure", additionalProperties: false },
);
export type PairFailure = Static<typeof PairFailureSchema>;
export type PairResult = PairPrices | PairFailure;

export const PricesResponse = Type.Array(Type.Union([PairPricesSchema, PairFailureSchema]), {
  description:
    "One entry per requested pair, in request order. When every pair fails the whole request answers the first failure as a problem instead.",
});

export const CurrencySchema = Type.Object({ id: Type.String(), name: Type.String() });
export type Currency = Static<typeof CurrencySchema>;
export const CurrenciesResponse = Type.Array(CurrencySchema, {
  description: "Online cryptocurrencies, sorted by id",
});

// Weather (Open-Meteo behind our server)

export { TEMPERATURE_UNITS, type TemperatureUnit };
export const TemperatureUnitSchema = Type.Unsafe<TemperatureUnit>({
  type: "string",
  enum: [...TEMPERATURE_UNITS],
});

export const ForecastSchema = Type.Object({
  latitude: Type.Number(),
  longitude: Type.Number(),
  timezone: Type.String(),
  utcOffsetSeconds: Type.Integer(),
  unit: TemperatureUnitSchema,
  units: Type.Object({ temperature: Type.String(), windSpeed: Type.String() }),
  current: Type.Object({
    time: Iso,
    temperature: Type.Number(),
    apparentTemperature: NullableNumber,
    humidity: NullableNumber,
    windSpeed: NullableNumber,
    weatherCode: Type.Integer({ description: "WMO weather interpretation code" }),
    isDay: Type.Boolean(),
  }),
  hourly: Type.Array(
    Type.Object({
      time: Iso,
      temperature: Type.Number(),
      weatherCode: Type.Integer(),
      precipitationProbability: NullableNumber,
    }),
    { description: "the next 24 hours, from the current hour" },
  ),
  daily: Type.Array(
    Type.Object({
      date: Type.String({ description: "YYYY-MM-DD in the place's time zone" }),
      weatherCode: Type.Integer(),
      temperatureMax: Type.Number(),
      temperatureMin: Type.Number(),
      precipitationProbability: NullableNumber,
      sunrise: Nullable(Iso),
      sunset: Nullable(Iso),
    }),
    { description: "7 days from today" },
  ),
});
export type Forecast = Static<typeof ForecastSchema>;

export const PlaceSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  latitude: Type.Number(),
  longitude: Type.Number(),
  country: NullableString,
  countryCode: NullableString,
  region: NullableString,
  timezone: NullableString,
});
export type Place = Static<typeof PlaceSchema>;

// Connected accounts: which providers exist, and the user's link to each

export const ProviderStatusSchema = Type.Object({
  provider: ProviderSchema,
  label: Type.String({ description: "the real service's name, for UI labels" }),
  configured: Type.Boolean({ description: "the server has client credentials for it" }),
  connected: Type.Boolean({ description: "the user has linked an account" }),
  reconnectRequired: Type.Boolean({
    description: "linked, but the access token has expired and cannot be refreshed",
  }),
});
export type ProviderStatus = Static<typeof ProviderStatusSchema>;

// Google mail and calendar (suite)

export const MailLabelSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.Union([Type.Literal("system"), Type.Literal("user")]),
});
export type MailLabel = Static<typeof MailLabelSchema>;

export const MailSummarySchema = Type.Object({
  id: Type.String(),
  threadId: Type.String(),
  from: Type.Object({ name: Type.String(), email: Type.String() }),
  subject: Type.String(),
  snippet: Type.String({ description: "plain text" }),
  date: Iso,
  unread: Type.Boolean(),
  labels: Type.Array(Type.String(), { description: "Gmail label ids" }),
});
export type MailSummary = Static<typeof MailSummarySchema>;

export const MailPageSchema = Type.Object({
  messages: Type.Array(MailSummarySchema),
  nextPageToken: Type.Union([Type.String(), Type.Null()], { description: "pass as pageToken for more" }),
  resultSizeEstimate: Type.Integer(),
});
export type MailPage = Static<typeof MailPageSchema>;

export const MailMessageSchema = Type.Composite([
  MailSummarySchema,
  Type.Object({
    to: Type.String(),
    html: Type.String({
      description: "the body as sanitized HTML: no scripts, handlers, iframes or forms; https images only",
    }),
    webUrl: Type.String(),
  }),
]);
export type MailMessage = Static<typeof MailMessageSchema>;

export const CalendarSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  primary: Type.Boolean(),
  color: NullableString,
  foregroundColor: NullableString,
  accessRole: Type.String(),
  writable: Type.Boolean({ description: "events can be created in it (owner or writer)" }),
  timeZone: NullableString,
});
export type Calendar = Static<typeof CalendarSchema>;

export const CalendarEventSchema = Type.Object({
  id: Type.String(),
  calendarId: Type.String(),
  title: Type.String(),
  start: Iso,
  end: Iso,
  location: NullableString,
  meetUrl: Type.Union([Type.String(), Type.Null()], { description: "video meeting link, if any" }),
  htmlLink: NullableString,
  status: Type.String(),
});
export type CalendarEvent = Static<typeof CalendarEventSchema>;

export const EventListSchema = Type.Object({
  events: Type.Array(CalendarEventSchema),
  from: Iso,
  until: Iso,
});
export type EventList = Static<typeof EventListSchema>;

/**
 * Calendar ids are opaque addresses such as `primary`, `a@b.com`,
 * `x#holiday@group.v.calendar.google.com`; `.` and `..` are refused, since a URL path would read
 * them as steps out of the calendar's place even when encoded.
 */
export const CALENDAR_ID_PATTERN = "^(?!\\.{1,2}$)[A-Za-z0-9._%+#@:-]{1,255}$";

export const NewEventBody = Type.Object({
  calendarId: Type.String({ pattern: CALENDAR_ID_PATTERN }),
  title: Type.String({ minLength: 1, maxLength: 200, pattern: "\\S" }),
  start: Iso,
  end: Iso,
  location: Type.Optional(Type.String({ maxLength: 500 })),
  description: Type.Optional(Type.String({ maxLength: 8000 })),
  timeZone: Type.Optional(Type.String({ pattern: "^[A-Za-z_]+(?:/[A-Za-z0-9_+-]+){0,2}$|^UTC$" })),
  meet: Type.Optional(Type.Boolean({ description: "also create a Google Meet link" })),
});
export type NewEvent = Static<typeof NewEventBody>;

// GitHub (codehost)

export const WorkItemSchema = Type.Object({
  id: Type.Integer(),
  number: Type.Integer(),
  title: Type.String(),
  repository: Type.String({ description: "owner/name" }),
  url: Type.String(),
  state: Type.String(),
  draft: Type.Boolean(),
  isPullRequest: Type.Boolean(),
  author: NullableString,
  labels: Type.Array(Type.Object({ name: Type.String(), color: NullableString })),
  comments: Type.Integer(),
  createdAt: Iso,
  updatedAt: Iso,
});
export type WorkItem = Static<typeof WorkItemSchema>;

export const WorkItemPageSchema = Type.Object({
  totalCount: Type.Integer(),
  incompleteResults: Type.Boolean(),
  page: Type.Integer(),
  perPage: Type.Integer(),
  hasMore: Type.Boolean(),
  items: Type.Array(WorkItemSchema),
});
export type WorkItemPage = Static<typeof WorkItemPageSchema>;

export const ContributionsSchema = Type.Object({
  login: Type.String(),
  from: Iso,
  to: Iso,
  totalContributions: Type.Integer(),
  days: Type.Array(
    Type.Object({
      date: Type.String({ description: "YYYY-MM-DD" }),
      count: Type.Integer(),
      level: Type.Integer({ minimum: 0, maximum: 4, description: "0 none to 4 most, GitHub's quartiles" }),
    }),
  ),
});
export type Contributions = Static<typeof ContributionsSchema>;

// Notion (notes)

/** How deep nested blocks are followed, and how many blocks a page may bring in. */
export const NOTES_MAX_DEPTH = 3;
export const NOTES_MAX_BLOCKS = 1000;

export const NotesPageSummarySchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  url: NullableString,
  icon: Nullable(Type.String({ description: "an emoji" })),
  lastEditedAt: Nullable(Iso),
  parentId: NullableString,
});
export type NotesPageSummary = Static<typeof NotesPageSummarySchema>;

export const NotesPageListSchema = Type.Object({
  pages: Type.Array(NotesPageSummarySchema),
  nextCursor: Nullable(Type.String({ description: "pass as cursor for more" })),
});
export type NotesPageList = Static<typeof NotesPageListSchema>;

export const NotesPageSchema = Type.Composite([
  NotesPageSummarySchema,
  Type.Object({
    markdown: Type.String(),
    truncated: Type.Boolean({
      description: `true when nesting beyond ${NOTES_MAX_DEPTH} levels or more than ${NOTES_MAX_BLOCKS} blocks were left out`,
    }),
  }),
]);
export type NotesPage = Static<typeof NotesPageSchema>;

// Public dashboards: a widget as visitors see it is the Widget shape without its owner and times

export const PublicWidgetSchema = Type.Pick(WidgetSchema, [
  "id",
  "widgetType",
  "height",
  "width",
  "positionX",
  "positionY",
  "config",
]);
export type PublicWidget = Static<typeof PublicWidgetSchema>;

export const PublicDashboardSchema = Type.Object({
  id: Type.String({ format: "uuid" }),
  name: Type.String(),
  look: LookSchema,
  updatedAt: Iso,
  widgets: Type.Array(PublicWidgetSchema),
});
export type PublicDashboard = Static<typeof PublicDashboardSchema>;

export const FeedItemSchema = Type.Object(
  {
    id: Type.String({ description: "The entry's id in its feed (its link when it has none)" }),
    title: Type.String(),
    url: Type.Union([Type.String(), Type.Null()], { description: "An http(s) link, or null" }),
    publishedAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
    summary: Type.String({ description: "Plain text, at most 300 characters" }),
  },
  { title: "FeedItem", additionalProperties: false },
);
export type FeedItem = Static<typeof FeedItemSchema>;

export const FeedSchema = Type.Object(
  {
    url: Type.String({ description: "The feed's address, as asked" }),
    title: Type.String(),
    siteUrl: Type.Union([Type.String(), Type.Null()]),
    items: Type.Array(FeedItemSchema, { description: "Newest first, at most 50" }),
  },
  { title: "Feed", additionalProperties: false },
);
export type Feed = Static<typeof FeedSchema>;

export const FeedFailureSchema = Type.Object(
  {
    url: Type.String(),
    error: Type.Object({
      status: Type.Integer({ description: "What this feed alone would have answered" }),
      code: Type.String(),
      detail: Type.String(),
    }),
  },
  { title: "FeedFailure", additionalProperties: false },
);
export type FeedFailure = Static<typeof FeedFailureSchema>;
export type FeedResult = Feed | FeedFailure;

export const FeedsResponse = Type.Array(Type.Union([FeedSchema, FeedFailureSchema]), {
  description: "One entry per requested feed, in request order",
});

// Status widget (HTTP checks run by the server's watch pass)

export const StatusStateSchema = Type.Object(
  {
    up: Type.Boolean({ description: "The address answered with a status that means it is serving" }),
    httpStatus: Nullable(Type.Integer({ description: "The final answer's status; null without one" })),
    latencyMs: Nullable(Type.Integer({ description: "Time to the answer's headers; null without one" })),
    checkedAt: Iso,
    changedAt: Type.String({
      format: "date-time",
      description: "When `up` last changed (or was first seen)",
    }),
    error: Type.Optional(
      Type.Object({
        code: Type.String({
          description: "address_not_allowed (refused by FETCH_ALLOW_PRIVATE's rules), timeout or unreachable",
        }),
        message: Type.String(),
      }),
    ),
  },
  { title: "StatusState", additionalProperties: false },
);
export type StatusState = Static<typeof StatusStateSchema>;

export const StatusTargetResultSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    url: Type.String(),
    state: Nullable(StatusStateSchema),
  },
  { title: "StatusTargetResult", additionalProperties: false },
);
export type StatusTargetResult = Static<typeof StatusTargetResultSchema>;

export const StatusResponse = Type.Array(StatusTargetResultSchema, {
  description: "One entry per target of the widget, in config order; state is null before its first check",
});
