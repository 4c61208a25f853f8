import type { Static } from "@sinclair/typebox";
import { Type } from "../typebox.js";
import { defineWidgetType } from "./define.js";
import { Matching } from "./fields.js";

export const MAX_LABELS = 10;

export const InboxConfig = Type.Object({
  /** Gmail label ids; messages carrying any of them are shown. None would show nothing. */
  labels: Type.Array(Matching("^[A-Za-z0-9_-]{1,100}$"), {
    minItems: 1,
    maxItems: MAX_LABELS,
    uniqueItems: true,
    default: ["INBOX"],
  }),
});
export type InboxConfig = Static<typeof InboxConfig>;

export const inboxWidget = defineWidgetType({
  type: "Inbox",
  config: InboxConfig,
  data: { kind: "account", provider: "suite" },
});
