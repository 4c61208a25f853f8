import { afterEach, describe, expect, it } from "vitest";
import { i18n } from "../i18n/i18n";
import { offlineMessage } from "./offline-message";

afterEach(() => i18n.changeLanguage("en"));

describe("the offline banner's sentence", () => {
  const now = new Date(2026, 2, 14, 16, 30).getTime();

  it("gives the time of the data loaded today", () => {
    const loaded = new Date(2026, 2, 14, 9, 5).getTime();
    expect(offlineMessage(loaded, now, "en-GB")).toBe("You're offline: showing what was loaded at 09:05");
  });

  it("gives the date too when it was loaded on another day", () => {
    const loaded = new Date(2026, 2, 13, 21, 15).getTime();
    expect(offlineMessage(loaded, now, "en-GB")).toBe(
      "You're offline: showing what was loaded on 13 Mar 2026, 21:15",
    );
  });

  it("says so when no time is known, and speaks the reader's language", async () => {
    expect(offlineMessage(null, now, "en-GB")).toBe("You're offline: showing what was loaded before");
    const { default: de } = await import("../i18n/locales/de.json");
    i18n.addResourceBundle("de", "translation", de, true, true);
    await i18n.changeLanguage("de");
    expect(offlineMessage(new Date(2026, 2, 14, 9, 5).getTime(), now, "de-DE")).toBe(
      "Du bist offline: Angezeigt wird, was um 09:05 geladen wurde",
    );
  });
});
