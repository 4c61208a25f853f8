import type { Forecast, Place, TemperatureUnit } from "../../lib/data-api";
import { asEnum, isRecord } from "../../lib/parse";

export interface WeatherLocation {
  name: string;
  latitude: number;
  longitude: number;
}
export interface WeatherConfig {
  /** Absent until the user picks a place (or shares the browser's position). */
  location?: WeatherLocation;
  unit: TemperatureUnit;
}

export const defaultWeatherConfig = (): WeatherConfig => ({ unit: "celsius" });

const coordinate = (value: unknown, limit: number): number | null =>
  typeof value === "number" && Number.isFinite(value) && Math.abs(value) <= limit ? value : null;

export function parseWeatherConfig(raw: unknown): WeatherConfig {
  if (!isRecord(raw)) return defaultWeatherConfig();
  const out: WeatherConfig = { unit: asEnum(raw.unit, ["celsius", "fahrenheit"] as const) ?? "celsius" };
  const loc = raw.location;
  if (isRecord(loc)) {
    const latitude = coordinate(loc.latitude, 90);
    const longitude = coordinate(loc.longitude, 180);
    if (latitude !== null && longitude !== null) {
      const name = typeof loc.name === "string" && loc.name.trim() ? loc.name.trim().slice(0, 120) : "";
      out.location = { name: name || formatCoordinates(latitude, longitude), latitude, longitude };
    }
  }
  return out;
}

export function formatCoordinates(latitude: number, longitude: number): string {
  const lat = `${Math.abs(latitude).toFixed(2)}°${latitude >= 0 ? "N" : "S"}`;
  const lon = `${Math.abs(longitude).toFixed(2)}°${longitude >= 0 ? "E" : "W"}`;
  return `${lat} ${lon}`;
}

/** "Berlin, Land Berlin, Germany" for the results list; the short name is what the widget shows. */
export function placeLabel(place: Place): string {
  return [place.name, place.region, place.country]
    .filter((part, i, all): part is string => Boolean(part) && all.indexOf(part) === i)
    .join(", ");
}

export type WeatherKind = "clear" | "partly" | "cloudy" | "fog" | "drizzle" | "rain" | "snow" | "thunder";

/** WMO weather interpretation codes (as Open-Meteo documents them) in words and a picture. */
export function describeWeather(code: number): { label: string; kind: WeatherKind } {
  if (code === 0) return { label: "Clear", kind: "clear" };
  if (code === 1) return { label: "Mainly clear", kind: "partly" };
  if (code === 2) return { label: "Partly cloudy", kind: "partly" };
  if (code === 3) return { label: "Overcast", kind: "cloudy" };
  if (code === 45 || code === 48) return { label: "Fog", kind: "fog" };
  if (code >= 51 && code <= 55) return { label: "Drizzle", kind: "drizzle" };
  if (code === 56 || code === 57) return { label: "Freezing drizzle", kind: "drizzle" };
  if (code === 61) return { label: "Light rain", kind: "rain" };
  if (code === 63) return { label: "Rain", kind: "rain" };
  if (code === 65) return { label: "Heavy rain", kind: "rain" };
  if (code === 66 || code === 67) return { label: "Freezing rain", kind: "rain" };
  if (code === 71) return { label: "Light snow", kind: "snow" };
  if (code === 73 || code === 77) return { label: "Snow", kind: "snow" };
  if (code === 75) return { label: "Heavy snow", kind: "snow" };
  if (code >= 80 && code <= 82) return { label: "Rain showers", kind: "rain" };
  if (code === 85 || code === 86) return { label: "Snow showers", kind: "snow" };
  if (code === 95) return { label: "Thunderstorm", kind: "thunder" };
  if (code === 96 || code === 99) return { label: "Thunderstorm with hail", kind: "thunder" };
  return { label: "Unknown", kind: "cloudy" };
}

export const temperature = (value: number) => `${Math.round(value)}°`;

/** The next `count` hours from the current one (the server starts the list at the current hour). */
export function nextHours(forecast: Forecast, now: number, count = 12): Forecast["hourly"] {
  const hourStart = now - (now % 3_600_000);
  return forecast.hourly.filter((h) => Date.parse(h.time) >= hourStart).slice(0, count);
}

/** The days' range for the bars: the lowest low and highest high of the week. */
export function weekRange(days: Forecast["daily"]): { min: number; max: number } {
  if (days.length === 0) return { min: 0, max: 1 };
  const min = Math.min(...days.map((d) => d.temperatureMin));
  const max = Math.max(...days.map((d) => d.temperatureMax));
  return { min, max: max === min ? min + 1 : max };
}
