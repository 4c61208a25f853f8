import { describe, expect, it } from "vitest";
import { formatCoordinates } from "../../../contract/coordinates";
import type { Forecast } from "../../../web/lib/data-api";
import { describeWeather, nextHours, placeLabel, weekRange } from "./logic";

describe("Weather places", () => {
  it("names a place by its coordinates", () => {
    expect(formatCoordinates(52.5, 13.4)).toBe("52.50°N 13.40°E");
    expect(formatCoordinates(-33.87, -151.2)).toBe("33.87°S 151.20°W");
  });

  it("labels places without repeating parts", () => {
    const place = {
      id: 1,
      name: "Berlin",
      latitude: 0,
      longitude: 0,
      country: "Germany",
      countryCode: "DE",
      region: "Berlin",
      timezone: null,
    };
    expect(placeLabel(place)).toBe("Berlin, Germany");
    expect(placeLabel({ ...place, region: "Land Berlin" })).toBe("Berlin, Land Berlin, Germany");
    expect(placeLabel({ ...place, region: null, country: null })).toBe("Berlin");
  });
});

describe("weather shaping", () => {
  it("describes WMO codes", () => {
    expect(describeWeather(0)).toEqual({ label: "Clear", kind: "clear" });
    expect(describeWeather(3).kind).toBe("cloudy");
    expect(describeWeather(45).kind).toBe("fog");
    expect(describeWeather(63)).toEqual({ label: "Rain", kind: "rain" });
    expect(describeWeather(75).kind).toBe("snow");
    expect(describeWeather(99).kind).toBe("thunder");
    expect(describeWeather(1234).label).toBe("Unknown");
  });

  it("takes the next hours from the current hour on, and the week's range", () => {
    const hour = (h: number) => ({
      time: new Date(Date.UTC(2026, 2, 2, h)).toISOString(),
      temperature: h,
      weatherCode: 0,
      precipitationProbability: null,
    });
    const forecast = { hourly: [hour(9), hour(10), hour(11), hour(12)] } as Forecast;
    const now = Date.UTC(2026, 2, 2, 10, 40);
    expect(nextHours(forecast, now, 2).map((h) => h.temperature)).toEqual([10, 11]);
    const day = (min: number, max: number) =>
      ({ temperatureMin: min, temperatureMax: max }) as Forecast["daily"][0];
    expect(weekRange([day(3, 9), day(-2, 5)])).toEqual({ min: -2, max: 9 });
    expect(weekRange([day(4, 4)])).toEqual({ min: 4, max: 5 });
    expect(weekRange([])).toEqual({ min: 0, max: 1 });
  });
});
