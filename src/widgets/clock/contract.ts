import type { Static } from "@sinclair/typebox";
import { Type } from "../../contract/typebox.js";
import { defineWidgetType } from "../../contract/widget-kit/define.js";
import { OneOf, TimeZone } from "../../contract/widget-kit/fields.js";

export const HOUR_FORMATS = ["12", "24"] as const;

/** `timezone` and `hourFormat` left out mean "follow the app settings". */
export const ClockConfig = Type.Object({
  timezone: Type.Optional(TimeZone()),
  hourFormat: Type.Optional(OneOf(HOUR_FORMATS)),
  showSeconds: Type.Boolean({ default: true }),
});
export type ClockConfig = Static<typeof ClockConfig>;

export const clockWidget = defineWidgetType({
  type: "Clock",
  config: ClockConfig,
  data: { kind: "config" },
});
