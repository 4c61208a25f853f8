import { t } from "../../../web/i18n/i18n";
import type { HourFormat } from "../../../web/lib/app-settings";

export interface Remaining {
  ended: boolean;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

export function remaining(targetMs: number, nowMs: number): Remaining {
  const left = Math.max(0, Math.floor((targetMs - nowMs) / 1000));
  return {
    ended: targetMs <= nowMs,
    days: Math.floor(left / 86_400),
    hours: Math.floor((left % 86_400) / 3600),
    minutes: Math.floor((left % 3600) / 60),
    seconds: left % 60,
  };
}

/** "datetime-local" input value (local wall time) ↔ ISO instant. */
export function toLocalInput(iso: string | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const time = new Date(value).getTime();
  return Number.isFinite(time) ? new Date(time).toISOString() : undefined;
}

/** "2 days 3 hours 4 minutes left", for the timer's accessible name, in the current language. */
export function timeLeftLabel(left: Remaining): string {
  return t("widgets.countdown.left", {
    days: t("widgets.countdown.days", { count: left.days }),
    hours: t("widgets.countdown.hours", { count: left.hours }),
    minutes: t("widgets.countdown.minutes", { count: left.minutes }),
  });
}

/** The target as the reader reads dates: in their zone, hour format and language. */
export function formatTarget(
  target: Date,
  options: { timezone: string; hourFormat: HourFormat },
  locale: string,
): string {
  return new Intl.DateTimeFormat(locale, {
    dateStyle: "medium",
    timeStyle: "short",
    hour12: options.hourFormat === "12",
    timeZone: options.timezone,
  }).format(target);
}
