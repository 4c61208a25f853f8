import { describe, expect, it } from "vitest";
import { browserTimeZone, defaultAppSettings, mergeAppSettings, parseAppSettings } from "./app-settings";

describe("app settings (settings.config)", () => {
  it("reads every preference", () => {
    const config = {
      theme: "dark",
      locale: "de",
      hourFormat: "12",
      timezone: "America/Chicago",
      countdownReminder: false,
      todoReminder: false,
      todoReminderTime: "17:45",
      meetingReminder: false,
      meetingReminderMinutes: 30,
      mailReminder: true,
    };
    expect(parseAppSettings(config)).toEqual(config);
  });

  it("keeps a language only when a catalog for it exists; anything else follows the browser", () => {
    expect(parseAppSettings({ locale: "en" }).locale).toBe("en");
    expect(parseAppSettings({ locale: "xx" }).locale).toBeNull();
    expect(parseAppSettings({ locale: 7 }).locale).toBeNull();
  });

  it("falls back to defaults for any value that is missing, malformed, or not an object at all", () => {
    for (const raw of [null, "dark", 42, [], {}]) expect(parseAppSettings(raw)).toEqual(defaultAppSettings());
    expect(
      parseAppSettings({
        theme: "neon",
        hourFormat: 24,
        timezone: "Nowhere/Land",
        todoReminder: "yes",
        todoReminderTime: "25:00",
        meetingReminder: 1,
        meetingReminderMinutes: 7,
        mailReminder: "on",
      }),
    ).toEqual(defaultAppSettings());
    expect(parseAppSettings({ meetingReminderMinutes: "30" }).meetingReminderMinutes).toBe(10);
    expect(parseAppSettings({ meetingReminderMinutes: 0 }).meetingReminderMinutes).toBe(0);
  });

  it("defaults the time zone to the browser's own, not UTC", () => {
    expect(defaultAppSettings().timezone).toBe(browserTimeZone());
    expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBe(browserTimeZone());
  });

  it("keeps keys it does not know when writing a change", () => {
    expect(mergeAppSettings({ theme: "light", fromAnotherVersion: [1] }, { theme: "dark" })).toEqual({
      theme: "dark",
      fromAnotherVersion: [1],
    });
    expect(mergeAppSettings("garbage", { hourFormat: "12" })).toEqual({ hourFormat: "12" });
  });
});
