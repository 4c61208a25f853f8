import { LANGUAGES } from "../i18n/i18n";
import { asBoolean, asEnum, isRecord, isValidTimeZone } from "./parse";

export const THEMES = ["light", "dark", "system"] as const;
export type Theme = (typeof THEMES)[number];
export type HourFormat = "12" | "24";

/** The preferences kept in settings.config; every key optional there, defaults filled in here. */
export interface AppSettings {
  theme: Theme;
  /** A language of ours ("de"); null follows the browser's. */
  locale: string | null;
  hourFormat: HourFormat;
  /** IANA zone; defaults to the browser's own, not UTC. */
  timezone: string;
  countdownReminder: boolean;
  todoReminder: boolean;
  /** Local "HH:MM" at which unfinished todos are reported. */
  todoReminderTime: string;
  meetingReminder: boolean;
  /** How long before a meeting starts its reminder arrives. */
  meetingReminderMinutes: number;
  /** A notification for each new unread message an Inbox widget sees. */
  mailReminder: boolean;
}

export const MEETING_REMINDER_MINUTES = [0, 1, 5, 10, 15, 30, 60] as const;

let browserZone: string | undefined;

/** Read once: it costs a DateTimeFormat, and every widget's settings default to it. */
export function browserTimeZone(): string {
  if (browserZone === undefined) {
    try {
      const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      browserZone = isValidTimeZone(zone) ? zone : "UTC";
    } catch {
      browserZone = "UTC";
    }
  }
  return browserZone;
}

export function defaultAppSettings(): AppSettings {
  return {
    theme: "system",
    locale: null,
    hourFormat: "24",
    timezone: browserTimeZone(),
    countdownReminder: true,
    todoReminder: true,
    todoReminderTime: "18:00",
    meetingReminder: true,
    meetingReminderMinutes: 10,
    mailReminder: false,
  };
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** settings.config may be any JSON value (spec); anything unusable falls back to the default. */
export function parseAppSettings(raw: unknown): AppSettings {
  const defaults = defaultAppSettings();
  if (!isRecord(raw)) return defaults;
  return {
    theme: asEnum(raw.theme, THEMES) ?? defaults.theme,
    locale: typeof raw.locale === "string" && LANGUAGES.includes(raw.locale) ? raw.locale : null,
    hourFormat: asEnum(raw.hourFormat, ["12", "24"] as const) ?? defaults.hourFormat,
    timezone: isValidTimeZone(raw.timezone) ? raw.timezone : defaults.timezone,
    countdownReminder: asBoolean(raw.countdownReminder, defaults.countdownReminder),
    todoReminder: asBoolean(raw.todoReminder, defaults.todoReminder),
    todoReminderTime:
      typeof raw.todoReminderTime === "string" && TIME.test(raw.todoReminderTime)
        ? raw.todoReminderTime
        : defaults.todoReminderTime,
    meetingReminder: asBoolean(raw.meetingReminder, defaults.meetingReminder),
    meetingReminderMinutes: (MEETING_REMINDER_MINUTES as readonly unknown[]).includes(
      raw.meetingReminderMinutes,
    )
      ? (raw.meetingReminderMinutes as number)
      : defaults.meetingReminderMinutes,
    mailReminder: asBoolean(raw.mailReminder, defaults.mailReminder),
  };
}

/** Writes a change while keeping keys this version does not know about (another client's, say). */
export function mergeAppSettings(raw: unknown, patch: Partial<AppSettings>): Record<string, unknown> {
  return { ...(isRecord(raw) ? raw : {}), ...patch };
}
