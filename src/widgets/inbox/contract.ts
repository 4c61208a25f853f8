import type { Static } from "@sinclair/typebox";
import { Type } from "../../contract/typebox.js";
import { type AlertConfigIssue, defineWidgetType } from "../../contract/widget-kit/define.js";
import { Matching } from "../../contract/widget-kit/fields.js";
import { isRecord } from "../../contract/widget-kit/parse.js";

export const MAX_LABELS = 10;

export const InboxConfig = Type.Object({
  /** Gmail label ids; messages carrying any of them are shown. None would show nothing. */
  labels: Type.Array(Matching("^[A-Za-z0-9_-]{1,100}$"), {
    minItems: 1,
    maxItems: MAX_LABELS,
    uniqueItems: true,
    default: ["INBOX"],
  }),
  /** A notification for each new message under these labels, sent by the server. */
  notifyNewMail: Type.Optional(Type.Boolean()),
});
export type InboxConfig = Static<typeof InboxConfig>;

function checkInbox(raw: unknown): AlertConfigIssue[] {
  if (!isRecord(raw) || raw.notifyNewMail === undefined || typeof raw.notifyNewMail === "boolean") return [];
  return [{ path: "/notifyNewMail", message: "must be boolean" }];
}

export const inboxWidget = defineWidgetType({
  type: "Inbox",
  server: true,
  config: InboxConfig,
  data: { kind: "account", provider: "suite" },
  alerts: { watched: (config) => config.notifyNewMail === true, check: checkInbox },
});
