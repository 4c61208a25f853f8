import type { AppContext } from "../../../server/context.js";
import type { WidgetData } from "../../../server/widgets/data.js";
import { defineWidgetServer } from "../../../server/widgets/kit.js";
import { UptimeKumaDataSchema, type UptimeKumaQuery } from "../contract.js";
import { uptimeKumaConfigIssues } from "./config-issues.js";
import { uptimeKumaSource } from "./source.js";

function uptimeKumaData(ctx: AppContext): WidgetData<UptimeKumaQuery> {
  const load = uptimeKumaSource(ctx);
  return {
    response: UptimeKumaDataSchema,
    summary: "The monitors of an Uptime Kuma widget on a public dashboard, without a session",
    description:
      "Through the owner's Uptime Kuma integration: the monitors of the status page the widget names (by group, with their latest heartbeat and 24 h uptime), or every monitor from Uptime Kuma's metrics (with the integration's API key). 404 unless the dashboard is public and the widget is an Uptime Kuma widget on it with an integration.",
    load: (query, _widgetId, _request, ownerId) => load(query, ownerId),
  };
}

export default defineWidgetServer({ data: uptimeKumaData, configIssues: uptimeKumaConfigIssues });
