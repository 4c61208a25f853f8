import type { Static } from "@sinclair/typebox";
import { Type } from "../typebox.js";
import { defineWidgetType } from "./define.js";
import { Instant, Text } from "./fields.js";

export const DEFAULT_EMOJI = "🎉";

export const CountdownConfig = Type.Object({
  title: Text({ maxLength: 200, default: "" }),
  emoji: Text({ maxLength: 16, minLength: 1, trim: true, default: DEFAULT_EMOJI }),
  /** Without a target the widget asks for a date. */
  target: Type.Optional(Instant({ description: "ISO 8601 instant" })),
});
export type CountdownConfig = Static<typeof CountdownConfig>;

export const countdownWidget = defineWidgetType({
  type: "Countdown",
  config: CountdownConfig,
  data: { kind: "config" },
});
