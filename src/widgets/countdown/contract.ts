import type { Static } from "@sinclair/typebox";
import { serverText } from "../../contract/server-text.js";
import { Type } from "../../contract/typebox.js";
import { type AlertConfigIssue, type AlertRule, defineWidgetType } from "../../contract/widget-kit/define.js";
import { Instant, Text } from "../../contract/widget-kit/fields.js";
import { isRecord } from "../../contract/widget-kit/parse.js";

export const DEFAULT_EMOJI = "🎉";

/**
 * The emoji the settings offer with one click. With the default they have a slice of the emoji
 * font of their own (src/web/styles/emoji-common.ts), so a dashboard showing a picked one loads a
 * few KB of font, never the whole emoji font.
 */
export const EMOJI_CHOICES = ["🎉", "🚀", "🎂", "✈️", "🏖️", "📅", "⏰", "🎄", "💍", "🏁"];

export const CountdownConfig = Type.Object({
  title: Text({ maxLength: 200, default: "" }),
  emoji: Text({ maxLength: 16, minLength: 1, trim: true, default: DEFAULT_EMOJI }),
  /** Without a target the widget asks for a date. */
  target: Type.Optional(Instant({ description: "ISO 8601 instant" })),
  /** A reminder (notification, realtime, push) when the target passes, sent by the server. */
  notify: Type.Optional(Type.Boolean()),
});
export type CountdownConfig = Static<typeof CountdownConfig>;

/** The reminder a countdown asks for: one, at its target, when `notify` is on. */
export function countdownRules(config: CountdownConfig): AlertRule[] {
  if (config.notify !== true || !config.target) return [];
  const name = config.title.trim() || serverText("alerts.countdown.untitled");
  return [
    {
      key: "end",
      at: config.target,
      text: serverText("alerts.countdown.ended", { emoji: config.emoji, name }),
    },
  ];
}

function checkCountdown(raw: unknown): AlertConfigIssue[] {
  if (!isRecord(raw) || raw.notify === undefined || typeof raw.notify === "boolean") return [];
  return [{ path: "/notify", message: "must be boolean" }];
}

export const countdownWidget = defineWidgetType({
  type: "Countdown",
  emoji: [DEFAULT_EMOJI, ...EMOJI_CHOICES],
  config: CountdownConfig,
  data: { kind: "config" },
  alerts: { rules: countdownRules, check: checkCountdown },
});
