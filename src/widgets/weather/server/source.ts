import { type Static, Type } from "@sinclair/typebox";
import { defineSource } from "../../../server/upstream/source.js";

/** Open-Meteo (https://open-meteo.com/en/docs) with `timeformat=unixtime`: columns of values. */
const Value = Type.Union([Type.Number(), Type.Null()]);
const Column = Type.Optional(Type.Array(Value));

export const OpenMeteoForecast = defineSource(
  Type.Object({
    latitude: Type.Optional(Type.Number()),
    longitude: Type.Optional(Type.Number()),
    timezone: Type.Optional(Type.String()),
    utc_offset_seconds: Type.Optional(Type.Number()),
    current: Type.Object({
      time: Type.Optional(Value),
      temperature_2m: Type.Number(),
      apparent_temperature: Type.Optional(Value),
      relative_humidity_2m: Type.Optional(Value),
      wind_speed_10m: Type.Optional(Value),
      weather_code: Type.Optional(Value),
      is_day: Type.Optional(Type.Union([Type.Number(), Type.Boolean(), Type.Null()])),
    }),
    hourly: Type.Object({
      time: Type.Array(Value),
      temperature_2m: Column,
      weather_code: Column,
      precipitation_probability: Column,
    }),
    daily: Type.Object({
      time: Type.Array(Value),
      weather_code: Column,
      temperature_2m_max: Column,
      temperature_2m_min: Column,
      precipitation_probability_max: Column,
      sunrise: Column,
      sunset: Column,
    }),
  }),
);
export type OpenMeteoForecastBody = Static<typeof OpenMeteoForecast.schema>;

const Text = Type.Optional(Type.Union([Type.String(), Type.Null()]));

export const OpenMeteoPlaces = defineSource(
  Type.Object({
    results: Type.Optional(
      Type.Array(
        Type.Object({
          id: Type.Optional(Type.Number()),
          name: Type.String(),
          latitude: Type.Number(),
          longitude: Type.Number(),
          country: Text,
          country_code: Text,
          admin1: Text,
          timezone: Text,
        }),
      ),
    ),
  }),
);
