import type { Forecast, Place, TemperatureUnit as Unit } from "../../../contract/data.js";
import type { CachePolicy, Upstream } from "../../../server/upstream/upstream.js";
import { OpenMeteoForecast, type OpenMeteoForecastBody, OpenMeteoPlaces } from "./source.js";

/** Open-Meteo forecast and geocoding (https://open-meteo.com/en/docs): keyless, so one cache serves all users. */
const SERVICE = "Open-Meteo";

/** A forecast is current or useless: an old one is never served in its place. */
export const FORECASTS: CachePolicy = {
  kind: "forecast",
  fresh: "forecast",
  failuresRemembered: false,
  staleIfError: false,
};
/** Places do not move: a search answered once stands in while the geocoder fails. */
export const PLACES: CachePolicy = {
  kind: "geocoding",
  fresh: "geocoding",
  failuresRemembered: false,
  staleIfError: true,
};

const num = (v: number | null | undefined) => (typeof v === "number" && Number.isFinite(v) ? v : null);
const iso = (unixSeconds: number | null | undefined) => {
  const s = num(unixSeconds);
  return s === null ? null : new Date(s * 1000).toISOString();
};

export class OpenMeteo {
  constructor(
    private readonly forecastUrl: string,
    private readonly geocodingUrl: string,
    private readonly upstream: Upstream,
  ) {}

  /** Current conditions, the next 24 hours and 7 days. Coordinates are rounded to ~1 km for caching. */
  forecast(lat: number, lon: number, unit: Unit): Promise<Forecast> {
    const latitude = Math.round(lat * 100) / 100;
    const longitude = Math.round(lon * 100) / 100;
    return this.upstream.cached(FORECASTS, `${latitude}|${longitude}|${unit}`, async () => {
      const query = new URLSearchParams({
        latitude: String(latitude),
        longitude: String(longitude),
        current:
          "temperature_2m,apparent_temperature,relative_humidity_2m,weather_code,wind_speed_10m,is_day",
        hourly: "temperature_2m,weather_code,precipitation_probability",
        daily:
          "weather_code,temperature_2m_max,temperature_2m_min,precipitation_probability_max,sunrise,sunset",
        timezone: "auto",
        timeformat: "unixtime",
        forecast_days: "8",
        temperature_unit: unit,
        wind_speed_unit: unit === "fahrenheit" ? "mph" : "kmh",
      });
      const url = `${this.forecastUrl}/v1/forecast?${query}`;
      const res = await this.upstream.fetch({ url, service: SERVICE, what: "forecast", pinned: true });
      return toForecast(OpenMeteoForecast.read(res), unit);
    });
  }

  search(name: string): Promise<Place[]> {
    const q = name.trim();
    return this.upstream.cached(PLACES, q.toLowerCase(), async () => {
      const query = new URLSearchParams({ name: q, count: "10", language: "en", format: "json" });
      const url = `${this.geocodingUrl}/v1/search?${query}`;
      const body = OpenMeteoPlaces.read(
        await this.upstream.fetch({ url, service: SERVICE, what: "place", pinned: true }),
      );
      const text = (v: string | null | undefined) => v || null;
      return (body.results ?? []).map(
        (r): Place => ({
          id: num(r.id) ?? 0,
          name: r.name,
          latitude: r.latitude,
          longitude: r.longitude,
          country: text(r.country),
          countryCode: text(r.country_code),
          region: text(r.admin1),
          timezone: text(r.timezone),
        }),
      );
    });
  }
}

function toForecast(body: OpenMeteoForecastBody, unit: Unit): Forecast {
  const { current, hourly, daily } = body;
  const temperature = current.temperature_2m;
  const offset = num(body.utc_offset_seconds) ?? 0;
  const now = num(current.time) ?? Date.now() / 1000;
  const hourStart = now - (now % 3600);

  const hours: Forecast["hourly"] = [];
  hourly.time.forEach((t, i) => {
    const time = num(t);
    const temp = num(hourly.temperature_2m?.[i]);
    if (time === null || temp === null || time < hourStart || hours.length >= 24) return;
    hours.push({
      time: new Date(time * 1000).toISOString(),
      temperature: temp,
      weatherCode: num(hourly.weather_code?.[i]) ?? 0,
      precipitationProbability: num(hourly.precipitation_probability?.[i]),
    });
  });

  const today = new Date((now + offset) * 1000).toISOString().slice(0, 10);
  const days: Forecast["daily"] = [];
  daily.time.forEach((t, i) => {
    const time = num(t);
    const max = num(daily.temperature_2m_max?.[i]);
    const min = num(daily.temperature_2m_min?.[i]);
    if (time === null || max === null || min === null || days.length >= 7) return;
    // Open-Meteo's daily times are local midnights; the date is read in the place's own zone.
    const date = new Date((time + offset) * 1000).toISOString().slice(0, 10);
    if (date < today) return;
    days.push({
      date,
      weatherCode: num(daily.weather_code?.[i]) ?? 0,
      temperatureMax: max,
      temperatureMin: min,
      precipitationProbability: num(daily.precipitation_probability_max?.[i]),
      sunrise: iso(daily.sunrise?.[i]),
      sunset: iso(daily.sunset?.[i]),
    });
  });

  return {
    latitude: num(body.latitude) ?? 0,
    longitude: num(body.longitude) ?? 0,
    timezone: body.timezone ?? "GMT",
    utcOffsetSeconds: offset,
    unit,
    units: {
      temperature: unit === "fahrenheit" ? "°F" : "°C",
      windSpeed: unit === "fahrenheit" ? "mph" : "km/h",
    },
    current: {
      time: new Date(now * 1000).toISOString(),
      temperature,
      apparentTemperature: num(current.apparent_temperature),
      humidity: num(current.relative_humidity_2m),
      windSpeed: num(current.wind_speed_10m),
      weatherCode: num(current.weather_code) ?? 0,
      isDay: current.is_day === 1 || current.is_day === true,
    },
    hourly: hours,
    daily: days,
  };
}
