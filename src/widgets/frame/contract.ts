import type { Static } from "@sinclair/typebox";
import { Type } from "../../contract/typebox.js";
import { defineWidgetType } from "../../contract/widget-kit/define.js";
import { Text, WebAddress } from "../../contract/widget-kit/fields.js";

export const FrameConfig = Type.Object({
  /** "" until a page is chosen. */
  url: WebAddress({ default: "" }),
  /** The header's title; "" shows the page's host. */
  title: Text({ maxLength: 100, trim: true, default: "" }),
});
export type FrameConfig = Static<typeof FrameConfig>;

export const frameWidget = defineWidgetType({
  type: "Frame",
  config: FrameConfig,
  data: { kind: "config" },
});
