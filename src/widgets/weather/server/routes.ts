import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { LATITUDE_MAX, LONGITUDE_MAX } from "../../../contract/coordinates.js";
import { ForecastSchema, PlaceSchema, TemperatureUnitSchema } from "../../../contract/data.js";
import type { AppContext } from "../../../server/context.js";
import { badRequest } from "../../../server/http/errors.js";
import { errorResponses } from "../../../server/http/schemas.js";
import type { WidgetData } from "../../../server/widgets/data.js";
import type { weatherWidget } from "../contract.js";

type WeatherQuery = NonNullable<ReturnType<typeof weatherWidget.data.visitorQuery>>;

import { OpenMeteo } from "./open-meteo.js";

const tags = ["Weather"];
const Coordinate = (description: string) =>
  Type.String({ pattern: "^-?[0-9]{1,3}(\\.[0-9]{1,10})?$", description });

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
  const meteo = new OpenMeteo(ctx.config.weatherApiUrl, ctx.config.geocodingApiUrl, ctx.upstream);

  app.get(
    "/api/weather",
    {
      schema: {
        tags,
        summary: "Current conditions, the next 24 hours and 7 days for a place",
        querystring: Type.Object({
          lat: Coordinate(`latitude, -${LATITUDE_MAX} to ${LATITUDE_MAX}`),
          lon: Coordinate(`longitude, -${LONGITUDE_MAX} to ${LONGITUDE_MAX}`),
          unit: Type.Optional(TemperatureUnitSchema),
        }),
        response: { 200: ForecastSchema, ...errorResponses(502, 504) },
      },
    },
    async (request) => {
      const { lat, lon, unit } = request.query;
      return meteo.forecast(
        coordinate(lat, "lat", LATITUDE_MAX),
        coordinate(lon, "lon", LONGITUDE_MAX),
        unit ?? "celsius",
      );
    },
  );

  app.get(
    "/api/weather/search",
    {
      schema: {
        tags,
        summary: "Find places by name (geocoding)",
        querystring: Type.Object({ q: Type.String({ minLength: 2, maxLength: 100, pattern: "\\S" }) }),
        response: { 200: Type.Array(PlaceSchema), ...errorResponses(502, 504) },
      },
    },
    async (request) => meteo.search(request.query.q),
  );
};

/** The forecast for a Weather widget's stored place and unit (GET /api/widgets/data and public pages). */
export function weatherData(ctx: AppContext): WidgetData<WeatherQuery> {
  const meteo = new OpenMeteo(ctx.config.weatherApiUrl, ctx.config.geocodingApiUrl, ctx.upstream);
  return {
    response: ForecastSchema,
    summary: "The forecast for a Weather widget on a public dashboard, without a session",
    description:
      "For the location (rounded to about a kilometre) and unit stored in the widget's config. 404 unless the dashboard is public and the widget is a Weather widget on it with a location.",
    load: ({ latitude, longitude, unit }) => meteo.forecast(latitude, longitude, unit),
  };
}
