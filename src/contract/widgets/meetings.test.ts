import { describe, expect, it } from "vitest";
import { meetingsWidget } from "./meetings.js";

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
