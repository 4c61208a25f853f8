import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import type { AppContext } from "../context.js";
import { badRequest, notFound } from "../http/errors.js";
import { errorResponses } from "../http/schemas.js";
import { coarseLocation } from "../resources/public/queries.js";
import { PublicWidgetParams, publicDataErrors, publicWidgetConfig } from "../resources/public/widget-data.js";
import { OpenMeteo } from "./open-meteo.js";

const tags = ["Weather"];
const Iso = Type.String({ format: "date-time" });
const NullableNumber = Type.Union([Type.Number(), Type.Null()]);
const NullableString = Type.Union([Type.String(), Type.Null()]);
const Coordinate = (description: string) =>
  Type.String({ pattern: "^-?[0-9]{1,3}(\\.[0-9]{1,10})?$", description });

const ForecastSchema = Type.Object({
  latitude: Type.Number(),
  longitude: Type.Number(),
  timezone: Type.String(),
  utcOffsetSeconds: Type.Integer(),
  unit: Type.Union([Type.Literal("celsius"), Type.Literal("fahrenheit")]),
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
      sunrise: Type.Union([Iso, Type.Null()]),
      sunset: Type.Union([Iso, Type.Null()]),
    }),
    { description: "7 days from today" },
  ),
});

const PlaceSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  latitude: Type.Number(),
  longitude: Type.Number(),
  country: NullableString,
  countryCode: NullableString,
  region: NullableString,
  timezone: NullableString,
});

function coordinate(value: string, name: string, limit: number): number {
  const n = Number(value);
  if (!Number.isFinite(n) || Math.abs(n) > limit) {
    throw badRequest(`${name} must be between -${limit} and ${limit}`, [
      { path: `/${name}`, message: `must be between -${limit} and ${limit}` },
    ]);
  }
  return n;
}

/** Keyless weather forecast and geocoding (DESIGN section 6), cached on the server. */
export const weatherRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const meteo = new OpenMeteo(ctx.config.weatherApiUrl, ctx.config.geocodingApiUrl);
  app.addHook("onClose", async () => meteo.close());

  app.get(
    "/api/weather",
    {
      onRequest: ctx.authenticate,
      schema: {
        tags,
        summary: "Current conditions, the next 24 hours and 7 days for a place",
        querystring: Type.Object({
          lat: Coordinate("latitude, -90 to 90"),
          lon: Coordinate("longitude, -180 to 180"),
          unit: Type.Optional(Type.Union([Type.Literal("celsius"), Type.Literal("fahrenheit")])),
        }),
        response: { 200: ForecastSchema, ...errorResponses(502, 504) },
      },
    },
    async (request) => {
      const { lat, lon, unit } = request.query;
      return meteo.forecast(coordinate(lat, "lat", 90), coordinate(lon, "lon", 180), unit ?? "celsius");
    },
  );

  app.get(
    "/api/weather/search",
    {
      onRequest: ctx.authenticate,
      schema: {
        tags,
        summary: "Find places by name (geocoding)",
        querystring: Type.Object({ q: Type.String({ minLength: 2, maxLength: 100, pattern: "\\S" }) }),
        response: { 200: Type.Array(PlaceSchema), ...errorResponses(502, 504) },
      },
    },
    async (request) => meteo.search(request.query.q),
  );

  app.get(
    "/api/public/dashboards/:id/widgets/:widgetId/weather",
    {
      schema: {
        tags: ["Public"],
        summary: "The forecast for a Weather widget on a public dashboard, without a session",
        description:
          "For the location (rounded to about a kilometre) and unit stored in the widget's config. 404 unless the dashboard is public and the widget is a Weather widget on it with a location.",
        security: [],
        params: PublicWidgetParams,
        response: { 200: ForecastSchema, ...publicDataErrors },
      },
    },
    async (request) => {
      const config = coarseLocation(await publicWidgetConfig(ctx, request, request.params, "Weather"));
      const { latitude, longitude } = config.location ?? {};
      const valid = (v: unknown, limit: number): v is number =>
        typeof v === "number" && Number.isFinite(v) && Math.abs(v) <= limit;
      if (!valid(latitude, 90) || !valid(longitude, 180)) throw notFound("A location for this widget");
      const unit = (config as { unit?: unknown }).unit === "fahrenheit" ? "fahrenheit" : "celsius";
      return meteo.forecast(latitude, longitude, unit);
    },
  );
};
