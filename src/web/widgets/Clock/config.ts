import type { HourFormat } from "../../lib/app-settings";
import { asBoolean, asEnum, isRecord, isValidTimeZone } from "../../lib/parse";

/** `timezone` and `hourFormat` left out mean "follow the app settings". */
export interface ClockConfig {
  timezone?: string;
  hourFormat?: HourFormat;
  showSeconds: boolean;
}

export const defaultClockConfig = (): ClockConfig => ({ showSeconds: true });

export function parseClockConfig(raw: unknown): ClockConfig {
  if (!isRecord(raw)) return defaultClockConfig();
  const out: ClockConfig = { showSeconds: asBoolean(raw.showSeconds, true) };
  if (isValidTimeZone(raw.timezone)) out.timezone = raw.timezone;
  const hourFormat = asEnum(raw.hourFormat, ["12", "24"] as const);
  if (hourFormat) out.hourFormat = hourFormat;
  return out;
}

export interface ClockFace {
  time: string;
  period: string;
  date: string;
  zone: string;
}

export function clockFace(
  now: Date,
  options: { timezone: string; hourFormat: HourFormat; showSeconds: boolean },
  locale?: string,
): ClockFace {
  const twelve = options.hourFormat === "12";
  const parts = new Intl.DateTimeFormat(locale, {
    timeZone: options.timezone,
    hour: "2-digit",
    minute: "2-digit",
    second: options.showSeconds ? "2-digit" : undefined,
    hourCycle: twelve ? "h12" : "h23",
  }).formatToParts(now);
  const time = parts
    .filter((p) => p.type !== "dayPeriod")
    .map((p) => p.value)
    .join("")
    .trim();
  const period = parts.find((p) => p.type === "dayPeriod")?.value ?? "";
  const date = new Intl.DateTimeFormat(locale, {
    timeZone: options.timezone,
    weekday: "long",
    month: "long",
    day: "numeric",
    year: "numeric",
  }).format(now);
  const zone = options.timezone.split("/").pop()?.replaceAll("_", " ") ?? options.timezone;
  return { time, period, date, zone };
}
