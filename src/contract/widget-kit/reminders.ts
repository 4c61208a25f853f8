import { type ServerText, serverText } from "../server-text.js";
import { Type } from "../typebox.js";
import type { AlertConfigIssue } from "./define.js";
import { isRecord } from "./parse.js";

/** A reminder at most a day ahead (Meetings, Calendar: DESIGN section 11). */
export const REMIND_MINUTES_MAX = 1440;

/** `remindMinutesBefore`: a reminder this many minutes before each timed event; absent, none. */
export const RemindMinutesBefore = () =>
  Type.Optional(Type.Integer({ minimum: 0, maximum: REMIND_MINUTES_MAX }));

/** The strict check of `remindMinutesBefore` the alerts hook makes (the parser would drop a bad one). */
export function remindMinutesIssues(raw: unknown): AlertConfigIssue[] {
  if (!isRecord(raw) || raw.remindMinutesBefore === undefined) return [];
  const minutes = raw.remindMinutesBefore;
  if (
    typeof minutes === "number" &&
    Number.isInteger(minutes) &&
    minutes >= 0 &&
    minutes <= REMIND_MINUTES_MAX
  )
    return [];
  return [
    { path: "/remindMinutesBefore", message: `must be a whole number from 0 to ${REMIND_MINUTES_MAX}` },
  ];
}

/** What a reminder says `inMinutes` (rounded, 0 for now) before an event or a meeting starts. */
export function startsText(title: string | ServerText, inMinutes: number): ServerText {
  return inMinutes === 0
    ? serverText("alerts.starts.now", { title })
    : serverText("alerts.starts.soon", { title, count: inMinutes });
}
