import type { Static } from "@sinclair/typebox";
import { Type } from "../typebox.js";
import { defineWidgetType } from "./define.js";
import { Matching } from "./fields.js";

export const MAX_CALENDARS = 20;

export const MeetingsConfig = Type.Object({
  /** Calendar ids to show; absent means all of the user's calendars, later ones too. */
  calendars: Type.Optional(
    Type.Array(Matching("^[A-Za-z0-9._%+#@:-]{1,255}$"), {
      minItems: 1,
      maxItems: MAX_CALENDARS,
      uniqueItems: true,
    }),
  ),
});
export type MeetingsConfig = Static<typeof MeetingsConfig>;

export const meetingsWidget = defineWidgetType({
  type: "Meetings",
  config: MeetingsConfig,
  data: { kind: "account", provider: "suite" },
});
