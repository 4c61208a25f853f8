import { type FakeRequest, FakeServer } from "../../../test/fakes/oauth-http.js";

/**
 * Open-Meteo's forecast (open-meteo.com/en/docs) and geocoding (open-meteo.com/en/docs/geocoding-api)
 * endpoints, keyless, answering in the documented shape with `timeformat=unixtime`.
 */
export class FakeWeather {
  constructor(readonly server: FakeServer) {}

  static async start() {
    let fake: FakeWeather;
    const server = await FakeServer.start((req) => fake.handle(req));
    fake = new FakeWeather(server);
    return fake;
  }

  get url() {
    return this.server.url;
  }

  private handle(req: FakeRequest) {
    if (req.path === "/v1/forecast") return this.forecast(req);
    if (req.path === "/v1/search") return this.search(req);
    return { status: 404, json: { error: true, reason: "Not Found" } };
  }

  private forecast(req: FakeRequest) {
    const q = req.query;
    const lat = Number(q.get("latitude"));
    const lon = Number(q.get("longitude"));
    const required = ["current", "hourly", "daily"].every((k) => q.get(k));
    if (
      !Number.isFinite(lat) ||
      Math.abs(lat) > 90 ||
      !Number.isFinite(lon) ||
      !required ||
      q.get("timeformat") !== "unixtime"
    ) {
      return { status: 400, json: { error: true, reason: "Invalid parameters" } };
    }
    const fahrenheit = q.get("temperature_unit") === "fahrenheit";
    const t = (c: number) => (fahrenheit ? Math.round((c * 9) / 5 + 32) : c);
    const offset = 3600;
    const now = Math.floor(Date.now() / 1000);
    const localMidnight = now - ((now + offset) % 86400);
    const days = Number(q.get("forecast_days") ?? 7);
    const hourly = {
      time: [] as number[],
      temperature_2m: [] as number[],
      weather_code: [] as number[],
      precipitation_probability: [] as number[],
    };
    for (let h = 0; h < days * 24; h++) {
      hourly.time.push(localMidnight + h * 3600);
      hourly.temperature_2m.push(t(10 + (h % 24) / 2));
      hourly.weather_code.push(h % 2 ? 3 : 61);
      hourly.precipitation_probability.push(h % 100);
    }
    const daily = {
      time: [] as number[],
      weather_code: [] as number[],
      temperature_2m_max: [] as number[],
      temperature_2m_min: [] as number[],
      precipitation_probability_max: [] as number[],
      sunrise: [] as number[],
      sunset: [] as number[],
    };
    for (let d = 0; d < days; d++) {
      const day = localMidnight + d * 86400;
      daily.time.push(day);
      daily.weather_code.push(d);
      daily.temperature_2m_max.push(t(20 + d));
      daily.temperature_2m_min.push(t(5 + d));
      daily.precipitation_probability_max.push(d * 10);
      daily.sunrise.push(day + 7 * 3600);
      daily.sunset.push(day + 17 * 3600);
    }
    return {
      json: {
        latitude: lat,
        longitude: lon,
        generationtime_ms: 0.1,
        utc_offset_seconds: offset,
        timezone: "Europe/Berlin",
        timezone_abbreviation: "GMT+1",
        elevation: 38,
        current_units: { time: "unixtime", temperature_2m: fahrenheit ? "°F" : "°C" },
        current: {
          time: now - (now % 900),
          interval: 900,
          temperature_2m: t(12),
          apparent_temperature: t(10),
          relative_humidity_2m: 80,
          weather_code: 3,
          wind_speed_10m: 11.5,
          is_day: 1,
        },
        hourly_units: { time: "unixtime", temperature_2m: fahrenheit ? "°F" : "°C" },
        hourly,
        daily_units: { time: "unixtime" },
        daily,
      },
    };
  }

  private search(req: FakeRequest) {
    const name = req.query.get("name") ?? "";
    if (name.length < 2) return { status: 400, json: { error: true, reason: "Parameter name too short" } };
    if (name.toLowerCase() !== "berlin") return { json: { generationtime_ms: 0.2 } };
    return {
      json: {
        results: [
          {
            id: 2950159,
            name: "Berlin",
            latitude: 52.52437,
            longitude: 13.41053,
            elevation: 74,
            feature_code: "PPLC",
            country_code: "DE",
            admin1: "Land Berlin",
            timezone: "Europe/Berlin",
            population: 3426354,
            country: "Germany",
          },
          {
            id: 5083330,
            name: "Berlin",
            latitude: 44.46867,
            longitude: -71.18508,
            country_code: "US",
            admin1: "New Hampshire",
            timezone: "America/New_York",
            country: "United States",
          },
        ],
        generationtime_ms: 0.5,
      },
    };
  }
}
