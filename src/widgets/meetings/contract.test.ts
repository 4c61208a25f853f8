import { describe, expect, it } from "vitest";
import { meetingsWidget } from "./contract.js";

const parse = meetingsWidget.parse;

describe("Meetings config", () => {
  it("reads calendar ids", () => {
    expect(parse({ calendars: ["primary", "team@group.calendar.google.com"] })).toEqual({
      calendars: ["primary", "team@group.calendar.google.com"],
    });
  });

  it("falls back to every calendar for missing, malformed or empty values", () => {
    expect(meetingsWidget.defaults()).toEqual({});
    for (const raw of [
      null,
      "primary",
      [],
      {},
      { calendars: "primary" },
      { calendars: [] },
      { calendars: [1, "a b"] },
    ])
      expect(parse(raw)).toEqual({});
    expect(parse({ calendars: ["primary", "primary", "<x>"] })).toEqual({ calendars: ["primary"] });
  });
});

describe("Meetings reminder setting", () => {
  it("reads remindMinutesBefore and is watched only when it is set", () => {
    const parse = meetingsWidget.parse;
    expect(parse({ remindMinutesBefore: 10 }).remindMinutesBefore).toBe(10);
    expect(parse({ remindMinutesBefore: 0 }).remindMinutesBefore).toBe(0);
    expect(meetingsWidget.alerts!.watched!(parse({ remindMinutesBefore: 10 }))).toBe(true);
    expect(meetingsWidget.alerts!.watched!(parse({}))).toBe(false);
  });

  it("refuses anything but a whole number of minutes up to a day", () => {
    const check = meetingsWidget.alerts!.check;
    expect(check({ remindMinutesBefore: 15 })).toEqual([]);
    for (const bad of [-1, 1.5, 1441, "10", null]) {
      expect(check({ remindMinutesBefore: bad })).toEqual([
        { path: "/remindMinutesBefore", message: "must be a whole number from 0 to 1440" },
      ]);
    }
  });
});
