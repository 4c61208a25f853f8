import type { Static } from "@sinclair/typebox";
import { Type } from "../../contract/typebox.js";
import { type AlertConfigIssue, defineWidgetType } from "../../contract/widget-kit/define.js";
import { Matching } from "../../contract/widget-kit/fields.js";
import { isRecord } from "../../contract/widget-kit/parse.js";

export const MAX_CALENDARS = 20;
/** A reminder at most a day ahead: further would need the calendar read further ahead. */
export const MAX_REMIND_MINUTES = 1440;

export const MeetingsConfig = Type.Object({
  /** Calendar ids to show; absent means all of the user's calendars, later ones too. */
  calendars: Type.Optional(
    Type.Array(Matching("^[A-Za-z0-9._%+#@:-]{1,255}$"), {
      minItems: 1,
      maxItems: MAX_CALENDARS,
      uniqueItems: true,
    }),
  ),
  /** A reminder this many minutes before each event of the shown calendars, sent by the server. */
  remindMinutesBefore: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_REMIND_MINUTES })),
});
export type MeetingsConfig = Static<typeof MeetingsConfig>;

function checkMeetings(raw: unknown): AlertConfigIssue[] {
  if (!isRecord(raw) || raw.remindMinutesBefore === undefined) return [];
  const minutes = raw.remindMinutesBefore;
  if (
    typeof minutes === "number" &&
    Number.isInteger(minutes) &&
    minutes >= 0 &&
    minutes <= MAX_REMIND_MINUTES
  )
    return [];
  return [
    { path: "/remindMinutesBefore", message: `must be a whole number from 0 to ${MAX_REMIND_MINUTES}` },
  ];
}

export const meetingsWidget = defineWidgetType({
  type: "Meetings",
  server: true,
  config: MeetingsConfig,
  data: { kind: "account", provider: "suite" },
  alerts: { watched: (config) => config.remindMinutesBefore !== undefined, check: checkMeetings },
});
