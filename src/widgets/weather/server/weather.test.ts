import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInClient, TestClient } from "../../../../test/support/client.js";
import { upstreamConfig } from "../../../../test/support/config.js";
import { MODES, type ModeEnv, prepareMode } from "../../../../test/support/modes.js";
import type { BuiltApp } from "../../../server/app.js";
import { FakeWeather } from "../fake.js";

/** The upstream deadline of these tests: short, so a stalled upstream costs little time. */
const TIMEOUT_MS = 1500;

describe.each(MODES)("weather (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let weather: FakeWeather;

  beforeAll(async () => {
    weather = await FakeWeather.start();
    mode = await prepareMode(modeName);
    built = await mode.start({
      weatherApiUrl: weather.url,
      geocodingApiUrl: weather.url,
      upstream: upstreamConfig({ timeoutMs: TIMEOUT_MS }),
    });
  });
  afterAll(async () => {
    await mode.teardown();
    await weather.server.close();
  });

  it("needs a session", async () => {
    const anonymous = new TestClient(built.app);
    expect((await anonymous.get("/api/weather?lat=52.52&lon=13.41")).status).toBe(401);
    expect((await anonymous.get("/api/weather/search?q=Berlin")).status).toBe(401);
  });

  it("returns current conditions, the next 24 hours and 7 days", async () => {
    const client = await signedInClient(built.app);
    const res = await client.get("/api/weather?lat=52.5200&lon=13.4050");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      latitude: 52.52,
      longitude: 13.41,
      timezone: "Europe/Berlin",
      utcOffsetSeconds: 3600,
      unit: "celsius",
      units: { temperature: "°C", windSpeed: "km/h" },
      current: { temperature: 12, apparentTemperature: 10, humidity: 80, weatherCode: 3, isDay: true },
    });
    expect(res.body.hourly).toHaveLength(24);
    const firstHour = Date.parse(res.body.hourly[0].time);
    expect(firstHour).toBeLessThanOrEqual(Date.now());
    expect(Date.now() - firstHour).toBeLessThan(3_600_000);
    expect(res.body.daily).toHaveLength(7);
    expect(res.body.daily[0]).toMatchObject({ weatherCode: 0, temperatureMax: 20, temperatureMin: 5 });
    expect(res.body.daily[0].date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const sent = weather.server.calls("/v1/forecast").at(-1)!;
    expect(sent.query.get("latitude")).toBe("52.52");
    expect(sent.query.get("temperature_unit")).toBe("celsius");
  });

  it("answers in fahrenheit when asked, and caches by rounded coordinates and unit", async () => {
    const client = await signedInClient(built.app);
    const res = await client.get("/api/weather?lat=40.7128&lon=-74.006&unit=fahrenheit");
    expect(res.status).toBe(200);
    expect(res.body.unit).toBe("fahrenheit");
    expect(res.body.units).toEqual({ temperature: "°F", windSpeed: "mph" });
    expect(res.body.current.temperature).toBe(54);
    expect(res.body.daily[0].temperatureMax).toBe(68);

    const before = weather.server.calls("/v1/forecast").length;
    const again = await Promise.all([
      client.get("/api/weather?lat=40.713&lon=-74.0061&unit=fahrenheit"),
      client.get("/api/weather?lat=40.7131&lon=-74.006&unit=fahrenheit"),
    ]);
    expect(again.every((r) => r.status === 200)).toBe(true);
    expect(weather.server.calls("/v1/forecast").length).toBe(before);
    await client.get("/api/weather?lat=40.7128&lon=-74.006&unit=celsius");
    expect(weather.server.calls("/v1/forecast").length).toBe(before + 1);
  });

  it("rejects bad coordinates and units with 400", async () => {
    const client = await signedInClient(built.app);
    const before = weather.server.requests.length;
    for (const query of [
      "lat=91&lon=0",
      "lat=-90.5&lon=0",
      "lat=0&lon=180.01",
      "lat=abc&lon=0",
      "lat=1e2&lon=0",
      "lat=&lon=0",
      "lon=0",
      "lat=0&lon=0&unit=kelvin",
    ]) {
      const res = await client.get(`/api/weather?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code, query).toBe("validation_failed");
    }
    expect((await client.get("/api/weather/search?q=a")).status).toBe(400);
    expect((await client.get("/api/weather/search")).status).toBe(400);
    expect(weather.server.requests.length).toBe(before);
  });

  it("finds places by name", async () => {
    const client = await signedInClient(built.app);
    const res = await client.get("/api/weather/search?q=Berlin");
    expect(res.status).toBe(200);
    expect(res.body[0]).toEqual({
      id: 2950159,
      name: "Berlin",
      latitude: 52.52437,
      longitude: 13.41053,
      country: "Germany",
      countryCode: "DE",
      region: "Land Berlin",
      timezone: "Europe/Berlin",
    });
    expect(res.body).toHaveLength(2);
    const none = await client.get("/api/weather/search?q=Nowhere%20at%20all");
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
  });

  it("answers 502 when Open-Meteo fails and 504 when it does not answer", async () => {
    const client = await signedInClient(built.app);
    weather.server.fail({ status: 500 });
    const failed = await client.get("/api/weather?lat=10&lon=10");
    expect(failed.status).toBe(502);
    expect(failed.body.code).toBe("upstream_failed");
    // Not cached: the next request reaches the upstream and succeeds.
    expect((await client.get("/api/weather?lat=10&lon=10")).status).toBe(200);

    // An answer in another shape is the upstream's failure, named, never a crash of ours.
    weather.server.fail({ answer: { json: { current: { temperature_2m: "warm" } } } });
    const malformed = await client.get("/api/weather?lat=11&lon=11");
    expect(malformed.status).toBe(502);
    expect(malformed.body).toMatchObject({ code: "upstream_failed" });
    expect(malformed.body.detail).toMatch(/^Open-Meteo answered forecast in an unexpected shape/);

    weather.server.fail({ hang: true });
    const started = Date.now();
    const slow = await client.get("/api/weather/search?q=Hamburg");
    expect(slow.status).toBe(504);
    expect(slow.body.code).toBe("upstream_timeout");
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
  });
});
