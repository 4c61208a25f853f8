import type { Forecast, Place, TemperatureUnit as Unit } from "../../contract/data.js";
import { TtlCache } from "../providers/cache.js";
import { expectOk, fetchUpstream, upstreamFailed } from "../providers/upstream.js";

/** Open-Meteo forecast and geocoding (https://open-meteo.com/en/docs): keyless, so one cache serves all users. */
const FORECAST_CACHE_MS = 10 * 60_000;
const GEOCODING_CACHE_MS = 60 * 60_000;
const SERVICE = "Open-Meteo";

type Series = Record<string, unknown[] | undefined>;

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
const iso = (unixSeconds: unknown) => {
  const s = num(unixSeconds);
  return s === null ? null : new Date(s * 1000).toISOString();
};

export class OpenMeteo {
  private readonly cache = new TtlCache(2000);

  constructor(
    private readonly forecastUrl: string,
    private readonly geocodingUrl: string,
  ) {}

  close() {
    this.cache.clear();
  }

  /** Current conditions, the next 24 hours and 7 days. Coordinates are rounded to ~1 km for caching. */
  forecast(lat: number, lon: number, unit: Unit): Promise<Forecast> {
    const latitude = Math.round(lat * 100) / 100;
    const longitude = Math.round(lon * 100) / 100;
    return this.cache.get(`forecast|${latitude}|${longitude}|${unit}`, FORECAST_CACHE_MS, async () => {
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
      const res = await fetchUpstream(`${this.forecastUrl}/v1/forecast?${query}`, { service: SERVICE });
      return toForecast(expectOk(res, SERVICE, "forecast"), unit);
    });
  }

  search(name: string): Promise<Place[]> {
    const q = name.trim();
    return this.cache.get(`geo|${q.toLowerCase()}`, GEOCODING_CACHE_MS, async () => {
      const query = new URLSearchParams({ name: q, count: "10", language: "en", format: "json" });
      const res = await fetchUpstream(`${this.geocodingUrl}/v1/search?${query}`, { service: SERVICE });
      const body = expectOk(res, SERVICE, "place") as { results?: Record<string, unknown>[] };
      return (body.results ?? []).flatMap((r): Place[] => {
        const latitude = num(r.latitude);
        const longitude = num(r.longitude);
        if (typeof r.name !== "string" || latitude === null || longitude === null) return [];
        const text = (v: unknown) => (typeof v === "string" && v ? v : null);
        return [
          {
            id: num(r.id) ?? 0,
            name: r.name,
            latitude,
            longitude,
            country: text(r.country),
            countryCode: text(r.country_code),
            region: text(r.admin1),
            timezone: text(r.timezone),
          },
        ];
      });
    });
  }
}

function toForecast(raw: unknown, unit: Unit): Forecast {
  const body = (raw ?? {}) as {
    latitude?: number;
    longitude?: number;
    timezone?: string;
    utc_offset_seconds?: number;
    current?: Record<string, unknown>;
    hourly?: Series;
    daily?: Series;
  };
  const current = body.current;
  const hourly = body.hourly;
  const daily = body.daily;
  const temperature = num(current?.temperature_2m);
  if (!current || temperature === null || !Array.isArray(hourly?.time) || !Array.isArray(daily?.time)) {
    throw upstreamFailed(SERVICE, "the forecast is missing current, hourly or daily data");
  }
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
