import type { Static } from "@sinclair/typebox";
import { Type } from "../../contract/typebox.js";
import { type AlertConfigIssue, defineWidgetType } from "../../contract/widget-kit/define.js";
import { hostname, Id, ItemList, Text, WebAddress } from "../../contract/widget-kit/fields.js";
import { isRecord } from "../../contract/widget-kit/parse.js";

/** Every target is requested by the server on each watch pass; a status page is not a widget. */
export const STATUS_CHECKS_MAX = 20;

const StatusTarget = Type.Object({
  id: Id("target"),
  // "nas.lan:5000" and "192.168.1.10:8989" as typed, like a bookmark's address.
  url: WebAddress(),
  name: Text({ maxLength: 200, trim: true, default: "" }),
  /** The one HTTP status that means up (e.g. 200); absent: any answer a serving app gives. */
  expectStatus: Type.Optional(Type.Integer({ minimum: 100, maximum: 599 })),
});

export const StatusConfig = Type.Object({
  checks: ItemList(StatusTarget, { maxItems: STATUS_CHECKS_MAX }),
  /** A notification when a target goes down or comes back, sent by the server's watch pass. */
  notify: Type.Optional(Type.Boolean()),
});
export type StatusConfig = Static<typeof StatusConfig>;
export type StatusTarget = StatusConfig["checks"][number];

/** The key a target's last check is kept under (alert_watch_states), stable across renames. */
export const statusStateKey = (targetId: string) => `status:${targetId}`;

function checkStatus(raw: unknown): AlertConfigIssue[] {
  if (!isRecord(raw) || raw.notify === undefined || typeof raw.notify === "boolean") return [];
  return [{ path: "/notify", message: "must be boolean" }];
}

/** HTTP checks of a list of addresses, run by the server's watch pass (server/checks.ts). */
export const statusWidget = defineWidgetType({
  type: "Status",
  server: true,
  config: StatusConfig,
  data: {
    kind: "service",
    publicRoute: "status",
    // A visitor sees the states the server recorded for the stored checks, nothing fetched for them.
    visitorQuery: ({ checks }: StatusConfig) => (checks.length ? checks : null),
  },
  // A target without a name is named after its host.
  refine: (config) => ({
    ...config,
    checks: config.checks.map((t) => (t.name ? t : { ...t, name: hostname(t.url).slice(0, 200) })),
  }),
  alerts: { watched: (config) => config.checks.length > 0, check: checkStatus },
});
