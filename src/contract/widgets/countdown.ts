import type { Static } from "@sinclair/typebox";
import { Type } from "../typebox.js";
import { type AlertConfigIssue, type AlertRule, defineWidgetType } from "./define.js";
import { Instant, Text } from "./fields.js";
import { isRecord } from "./parse.js";

export const DEFAULT_EMOJI = "🎉";

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
  const name = config.title.trim() || "Countdown";
  return [{ key: "end", at: config.target, message: `${config.emoji} ${name} has ended` }];
}

function checkCountdown(raw: unknown): AlertConfigIssue[] {
  if (!isRecord(raw) || raw.notify === undefined || typeof raw.notify === "boolean") return [];
  return [{ path: "/notify", message: "must be boolean" }];
}

export const countdownWidget = defineWidgetType({
  type: "Countdown",
  config: CountdownConfig,
  data: { kind: "config" },
  alerts: { rules: countdownRules, check: checkCountdown },
});
