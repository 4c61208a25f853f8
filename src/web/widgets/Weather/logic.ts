import type { Forecast, Place } from "../../lib/data-api";

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
