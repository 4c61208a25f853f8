import type { Static } from "@sinclair/typebox";
import { coarseCoordinate, formatCoordinates, Latitude, Longitude } from "../../contract/coordinates.js";
import { Type } from "../../contract/typebox.js";
import { TEMPERATURE_UNITS } from "../../contract/units.js";
import { defineWidgetType } from "../../contract/widget-kit/define.js";
import { OneOf, Text } from "../../contract/widget-kit/fields.js";

export const WeatherConfig = Type.Object({
  /** Absent until the user picks a place (or shares the browser's position). */
  location: Type.Optional(
    Type.Object({
      name: Text({ maxLength: 120, trim: true, default: "" }),
      latitude: Latitude,
      longitude: Longitude,
    }),
  ),
  unit: OneOf(TEMPERATURE_UNITS, { default: "celsius" }),
});
export type WeatherConfig = Static<typeof WeatherConfig>;
export type WeatherLocation = NonNullable<WeatherConfig["location"]>;

export const weatherWidget = defineWidgetType({
  type: "Weather",
  server: true,
  config: WeatherConfig,
  data: {
    kind: "service",
    publicRoute: "weather",
    visitorQuery: ({ location, unit }: WeatherConfig) =>
      location ? { latitude: location.latitude, longitude: location.longitude, unit } : null,
  },
  // A place without a name is named by its coordinates.
  refine: (config) =>
    config.location && !config.location.name
      ? {
          ...config,
          location: {
            ...config.location,
            name: formatCoordinates(config.location.latitude, config.location.longitude),
          },
        }
      : config,
  // The owner's exact position (from the browser) stays private: visitors see the area.
  publicConfig: (config) =>
    config.location
      ? {
          ...config,
          location: {
            ...config.location,
            latitude: coarseCoordinate(config.location.latitude),
            longitude: coarseCoordinate(config.location.longitude),
          },
        }
      : config,
});
