import type { Static } from "@sinclair/typebox";
import { Type } from "../../contract/typebox.js";
import { defineWidgetType } from "../../contract/widget-kit/define.js";
import { Matching } from "../../contract/widget-kit/fields.js";

/** GitHub's login rules, as the server checks them. */
export const LOGIN_PATTERN_SOURCE = "^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$";

export const HeatmapConfig = Type.Object({
  /** Another GitHub login; absent means the connected account's own. */
  login: Type.Optional(Matching(LOGIN_PATTERN_SOURCE, { clean: (s) => s.trim().replace(/^@/, "") })),
});
export type HeatmapConfig = Static<typeof HeatmapConfig>;

export const heatmapWidget = defineWidgetType({
  type: "Codehost Heatmap",
  config: HeatmapConfig,
  data: { kind: "account", provider: "codehost" },
});
