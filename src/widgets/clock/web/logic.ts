import type { HourFormat } from "../../../web/lib/app-settings";

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
