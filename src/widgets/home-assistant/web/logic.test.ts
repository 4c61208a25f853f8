import { describe, expect, it } from "vitest";
import type { HomeAssistantEntityState } from "../contract";
import { entityName, stateWords, switchable } from "./logic";

const entity = (more: Partial<HomeAssistantEntityState>): HomeAssistantEntityState => ({
  entityId: "light.kitchen",
  domain: "light",
  friendlyName: "Kitchen",
  state: "on",
  unit: null,
  deviceClass: null,
  lastChanged: "2026-11-27T20:01:02.123Z",
  togglable: true,
  found: true,
  ...more,
});

describe("Home Assistant widget logic", () => {
  it("says common states in words, and binary sensors by what they sense", () => {
    expect(stateWords(entity({}), "en")).toBe("On");
    expect(stateWords(entity({ state: "off" }), "en")).toBe("Off");
    expect(stateWords(entity({ state: "unavailable" }), "en")).toBe("Unavailable");
    const door = { entityId: "binary_sensor.front_door", domain: "binary_sensor", deviceClass: "door" };
    expect(stateWords(entity({ ...door, state: "on" }), "en")).toBe("Open");
    expect(stateWords(entity({ ...door, state: "off" }), "en")).toBe("Closed");
    expect(stateWords(entity({ ...door, deviceClass: "motion", state: "on" }), "en")).toBe("Detected");
    expect(stateWords(entity({ domain: "person", state: "not_home" }), "en")).toBe("Away");
    expect(stateWords(entity({ found: false, state: null }), "en")).toBe("Not found");
    // Anything else as Home Assistant says it.
    expect(stateWords(entity({ domain: "vacuum", state: "cleaning" }), "en")).toBe("cleaning");
  });

  it("writes numbers as the reader does, with their unit and HA's decimals", () => {
    const sensor = { domain: "sensor", unit: "°C", togglable: false };
    expect(stateWords(entity({ ...sensor, state: "21.5" }), "en")).toBe("21.5 °C");
    expect(stateWords(entity({ ...sensor, state: "1234.50" }), "de")).toBe("1.234,50 °C");
    expect(stateWords(entity({ ...sensor, state: "-3" }), "en")).toBe("-3 °C");
  });

  it("names rows by label, then friendly name, then entity id", () => {
    expect(entityName({ entityId: "light.kitchen", label: "Over the sink" }, entity({}))).toBe(
      "Over the sink",
    );
    expect(entityName({ entityId: "light.kitchen" }, entity({}))).toBe("Kitchen");
    expect(entityName(undefined, entity({ friendlyName: null }))).toBe("light.kitchen");
  });

  it("offers the switch only for an on/off state of a togglable domain", () => {
    expect(switchable(entity({}))).toBe(true);
    expect(switchable(entity({ state: "unavailable" }))).toBe(false);
    expect(switchable(entity({ togglable: false, state: "on" }))).toBe(false);
  });
});
