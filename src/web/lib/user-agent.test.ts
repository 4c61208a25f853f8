import { describe, expect, it } from "vitest";
import { switchLanguage } from "../i18n/i18n";
import { describeDevice, parseUserAgent } from "./user-agent";

const UA = {
  chromeLinux:
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  headless:
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
  edgeWindows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.70",
  operaMac:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0",
  firefoxWindows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
  firefoxUbuntu: "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
  safariMac:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
  safariIphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  chromeIpad:
    "Mozilla/5.0 (iPad; CPU OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
  chromeAndroid:
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
  samsung:
    "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
  chromebook:
    "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  curl: "curl/8.5.0",
};

describe("describeDevice", () => {
  it.each([
    [UA.chromeLinux, "Chrome on Linux"],
    [UA.headless, "Headless Chrome on Linux"],
    [UA.edgeWindows, "Edge on Windows"],
    [UA.operaMac, "Opera on macOS"],
    [UA.firefoxWindows, "Firefox on Windows"],
    [UA.firefoxUbuntu, "Firefox on Ubuntu"],
    [UA.safariMac, "Safari on macOS"],
    [UA.safariIphone, "Safari on iPhone"],
    [UA.chromeIpad, "Chrome on iPad"],
    [UA.chromeAndroid, "Chrome on Android"],
    [UA.samsung, "Samsung Internet on Android"],
    [UA.chromebook, "Chrome on ChromeOS"],
    [UA.curl, "curl"],
  ])("%s -> %s", (ua, expected) => {
    expect(describeDevice(ua)).toBe(expected);
  });

  it("says what it can and admits what it cannot", () => {
    expect(describeDevice(null)).toBe("Unknown device");
    expect(describeDevice("")).toBe("Unknown device");
    expect(describeDevice("SomeBot/1.0")).toBe("Unknown device");
    expect(describeDevice("Mozilla/5.0 (Windows NT 10.0) Gibberish/1")).toBe("A browser on Windows");
    expect(parseUserAgent(UA.safariIphone)).toEqual({ browser: "Safari", os: "iPhone" });
  });

  it("describes the device in the reader's language, brand names as they are", async () => {
    await switchLanguage("de");
    try {
      expect(describeDevice(UA.chromeLinux)).toBe("Chrome auf Linux");
      expect(describeDevice("Mozilla/5.0 (Windows NT 10.0) Gibberish/1")).toBe("Ein Browser auf Windows");
      expect(describeDevice(null)).toBe("Unbekanntes Gerät");
    } finally {
      await switchLanguage("en");
    }
  });
});
