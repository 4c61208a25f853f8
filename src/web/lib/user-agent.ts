import { t } from "../i18n/i18n";

/** A browser and operating system in plain words, from a User-Agent header. */
export interface Device {
  browser: string | null;
  os: string | null;
}

// Order matters: Edge and Opera say "Chrome" too, Chrome says "Safari", and so on.
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\bOPR\/|\bOpera\b/, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bVivaldi\//, "Vivaldi"],
  [/\bYaBrowser\//, "Yandex Browser"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\bHeadlessChrome\//, "Headless Chrome"],
  [/\bChromium\//, "Chromium"],
  [/\bChrome\/|\bCriOS\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
  [/\bcurl\//, "curl"],
  [/\bWget\//, "Wget"],
  [/\bnode-fetch\b|\bundici\b|^node\b/i, "Node.js"],
  [/\bpython-requests\/|\bPython-urllib\//, "Python"],
  [/\bokhttp\//, "OkHttp"],
  [/\bPostmanRuntime\//, "Postman"],
];

const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bUbuntu\b/, "Ubuntu"],
  [/\bFedora\b/, "Fedora"],
  [/\bLinux\b|\bX11\b/, "Linux"],
  [/\bFreeBSD\b/, "FreeBSD"],
];

export function parseUserAgent(userAgent: string | null | undefined): Device {
  const ua = userAgent ?? "";
  const find = (list: [RegExp, string][]) => list.find(([pattern]) => pattern.test(ua))?.[1] ?? null;
  return { browser: find(BROWSERS), os: find(SYSTEMS) };
}

/** "Chrome on Linux", "Safari on iPhone", "Firefox", "Windows", or "Unknown device". */
export function describeDevice(userAgent: string | null | undefined): string {
  const { browser, os } = parseUserAgent(userAgent);
  if (browser && os) return t("lib.device.browserOn", { browser, os });
  return browser ?? (os ? t("lib.device.someBrowserOn", { os }) : t("lib.device.unknown"));
}
