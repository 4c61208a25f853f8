import { Type } from "./typebox.js";

/**
 * Places on Earth, as Weather widgets store them and the weather routes accept them: the one
 * definition of their bounds and of how precisely a place is shown to others.
 */

export const LATITUDE_MAX = 90;
export const LONGITUDE_MAX = 180;

export const Latitude = Type.Number({
  minimum: -LATITUDE_MAX,
  maximum: LATITUDE_MAX,
  description: "degrees north, -90 to 90",
});
export const Longitude = Type.Number({
  minimum: -LONGITUDE_MAX,
  maximum: LONGITUDE_MAX,
  description: "degrees east, -180 to 180",
});

const within = (value: unknown, limit: number): value is number =>
  typeof value === "number" && Number.isFinite(value) && Math.abs(value) <= limit;

export const isLatitude = (value: unknown): value is number => within(value, LATITUDE_MAX);
export const isLongitude = (value: unknown): value is number => within(value, LONGITUDE_MAX);

/**
 * Two decimals, about a kilometre: plenty for a forecast, and not the spot. Positions from the
 * browser are stored this way, and public dashboards show every place this way.
 */
export function coarseCoordinate(value: number): number {
  return Math.round(value * 100) / 100;
}

/** "52.52°N 13.40°E": the name of a place that has none. */
export function formatCoordinates(latitude: number, longitude: number): string {
  const lat = `${Math.abs(latitude).toFixed(2)}°${latitude >= 0 ? "N" : "S"}`;
  const lon = `${Math.abs(longitude).toFixed(2)}°${longitude >= 0 ? "E" : "W"}`;
  return `${lat} ${lon}`;
}
