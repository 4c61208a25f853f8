import { t } from "../../../web/i18n/i18n";
import type { Forecast, Place } from "../../../web/lib/data-api";
import { appLocale } from "../../../web/widget-kit/data/format";

/** "Berlin, Land Berlin, Germany" for the results list; the short name is what the widget shows. */
export function placeLabel(place: Place): string {
  return [place.name, place.region, place.country]
    .filter((part, i, all): part is string => Boolean(part) && all.indexOf(part) === i)
    .join(", ");
}

export type WeatherKind = "clear" | "partly" | "cloudy" | "fog" | "drizzle" | "rain" | "snow" | "thunder";

/** WMO weather interpretation codes (as Open-Meteo documents them) in words (the app's language) and a picture. */
export function describeWeather(code: number): { label: string; kind: WeatherKind } {
  if (code === 0) return { label: t("widgets.weather.condition.clear"), kind: "clear" };
  if (code === 1) return { label: t("widgets.weather.condition.mainlyClear"), kind: "partly" };
  if (code === 2) return { label: t("widgets.weather.condition.partlyCloudy"), kind: "partly" };
  if (code === 3) return { label: t("widgets.weather.condition.overcast"), kind: "cloudy" };
  if (code === 45 || code === 48) return { label: t("widgets.weather.condition.fog"), kind: "fog" };
  if (code >= 51 && code <= 55) return { label: t("widgets.weather.condition.drizzle"), kind: "drizzle" };
  if (code === 56 || code === 57)
    return { label: t("widgets.weather.condition.freezingDrizzle"), kind: "drizzle" };
  if (code === 61) return { label: t("widgets.weather.condition.lightRain"), kind: "rain" };
  if (code === 63) return { label: t("widgets.weather.condition.rain"), kind: "rain" };
  if (code === 65) return { label: t("widgets.weather.condition.heavyRain"), kind: "rain" };
  if (code === 66 || code === 67) return { label: t("widgets.weather.condition.freezingRain"), kind: "rain" };
  if (code === 71) return { label: t("widgets.weather.condition.lightSnow"), kind: "snow" };
  if (code === 73 || code === 77) return { label: t("widgets.weather.condition.snow"), kind: "snow" };
  if (code === 75) return { label: t("widgets.weather.condition.heavySnow"), kind: "snow" };
  if (code >= 80 && code <= 82) return { label: t("widgets.weather.condition.rainShowers"), kind: "rain" };
  if (code === 85 || code === 86) return { label: t("widgets.weather.condition.snowShowers"), kind: "snow" };
  if (code === 95) return { label: t("widgets.weather.condition.thunderstorm"), kind: "thunder" };
  if (code === 96 || code === 99)
    return { label: t("widgets.weather.condition.thunderstormHail"), kind: "thunder" };
  return { label: t("widgets.weather.condition.unknown"), kind: "cloudy" };
}

/** A whole-degree temperature in the app's number format: "18°", "-3°", never "-0°". */
export const temperature = (value: number, locale = appLocale()) =>
  `${new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(Math.round(value) || 0)}°`;

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
