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

const FramingReason = Type.Union([Type.Literal("x-frame-options"), Type.Literal("frame-ancestors")]);
export type FramingReason = Static<typeof FramingReason>;

/**
 * What the server learnt by asking the page itself: a browser shows no words when a page refuses
 * to be framed (its load event fires either way and the frame cannot be read), so the widget
 * learns it here and explains it instead of showing an empty frame.
 */
export const FrameCheck = Type.Object(
  {
    url: Type.String({ description: "The address that was checked: the widget's stored url" }),
    framing: Type.Union(
      [
        Type.Literal("allowed"),
        Type.Literal("refused"),
        Type.Literal("unreachable"),
        Type.Literal("unknown"),
      ],
      {
        description:
          "refused: its X-Frame-Options or Content-Security-Policy frame-ancestors forbid showing it inside this Tessera; unreachable: the server could not reach it (a browser elsewhere may); unknown: not checked (an address on a private network the server may not reach, an error page)",
      },
    ),
    reason: Type.Optional(FramingReason),
  },
  { description: "Whether the page of a Frame widget may be shown inside Tessera" },
);
export type FrameCheck = Static<typeof FrameCheck>;

export const frameWidget = defineWidgetType({
  type: "Frame",
  server: true,
  config: FrameConfig,
  // The page itself is loaded by the browser; the server half only asks whether it may be framed.
  data: { kind: "config" },
});
