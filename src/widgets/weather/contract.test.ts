import { describe, expect, it } from "vitest";
import { weatherWidget } from "./contract.js";

const parse = weatherWidget.parse;

describe("Weather config", () => {
  it("reads a place and the unit", () => {
    const config = { location: { name: "Berlin", latitude: 52.52, longitude: 13.41 }, unit: "fahrenheit" };
    expect(parse(config)).toEqual(config);
  });

  it("falls back to defaults for missing or malformed values", () => {
    expect(weatherWidget.defaults()).toEqual({ unit: "celsius" });
    for (const raw of [null, "Berlin", [], {}]) expect(parse(raw)).toEqual(weatherWidget.defaults());
    expect(parse({ unit: "kelvin", location: { name: "Mars", latitude: 91, longitude: 0 } })).toEqual({
      unit: "celsius",
    });
    expect(parse({ location: { name: "X", latitude: "52", longitude: 13 } })).toEqual({ unit: "celsius" });
    expect(parse({ location: { latitude: Number.NaN, longitude: 1 } })).toEqual({ unit: "celsius" });
    expect(parse({ location: { latitude: 0, longitude: -180.5 } })).toEqual({ unit: "celsius" });
  });

  it("names a nameless place by its coordinates", () => {
    expect(parse({ location: { latitude: -33.87, longitude: -151.2, name: "  " } }).location).toEqual({
      name: "33.87°S 151.20°W",
      latitude: -33.87,
      longitude: -151.2,
    });
  });

  it("shows visitors the area, not the spot, and asks their forecast for it", () => {
    const stored = parse({
      location: { name: "Home", latitude: 48.858372, longitude: 2.294481 },
      unit: "fahrenheit",
    });
    const shown = weatherWidget.publicConfig(stored);
    expect(shown.location).toEqual({ name: "Home", latitude: 48.86, longitude: 2.29 });
    expect(weatherWidget.data.visitorQuery(shown)).toEqual({
      latitude: 48.86,
      longitude: 2.29,
      unit: "fahrenheit",
    });
    expect(weatherWidget.data.visitorQuery(parse({}))).toBeNull();
  });
});
