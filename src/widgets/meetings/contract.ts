import type { Static } from "@sinclair/typebox";
import { Type } from "../../contract/typebox.js";
import { defineWidgetType } from "../../contract/widget-kit/define.js";
import { Matching } from "../../contract/widget-kit/fields.js";
import {
  REMIND_MINUTES_MAX,
  RemindMinutesBefore,
  remindMinutesIssues,
} from "../../contract/widget-kit/reminders.js";

export const MAX_CALENDARS = 20;
/** A reminder at most a day ahead: further would need the calendar read further ahead. */
export const MAX_REMIND_MINUTES = REMIND_MINUTES_MAX;

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
  remindMinutesBefore: RemindMinutesBefore(),
});
export type MeetingsConfig = Static<typeof MeetingsConfig>;

export const meetingsWidget = defineWidgetType({
  type: "Meetings",
  server: true,
  config: MeetingsConfig,
  data: { kind: "account", provider: "suite" },
  alerts: { watched: (config) => config.remindMinutesBefore !== undefined, check: remindMinutesIssues },
});
