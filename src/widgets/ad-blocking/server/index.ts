import type { AppContext } from "../../../server/context.js";
import type { WidgetData } from "../../../server/widgets/data.js";
import { defineWidgetServer } from "../../../server/widgets/kit.js";
import { AdBlockingDataSchema, type AdBlockingQuery } from "../contract.js";
import { pauseAction, resumeAction } from "./actions.js";
import { adBlockingConfigIssues } from "./config-issues.js";
import { adBlockingSource } from "./source.js";

function adBlockingData(ctx: AppContext): WidgetData<AdBlockingQuery> {
  const load = adBlockingSource(ctx);
  return {
    response: AdBlockingDataSchema,
    summary:
      "A DNS blocker's counts and state for an Ad Blocking widget on a public dashboard, without a session",
    description:
      "Through the owner's Pi-hole (v6) or AdGuard Home integration: DNS queries and blocked ones over the last 24 hours, their share, and whether blocking is on, off or paused (until when). Never a password or session. 404 unless the dashboard is public and the widget is an Ad Blocking widget on it with an integration.",
    load: (query, _widgetId, _request, ownerId) => load(query, ownerId),
  };
}

export default defineWidgetServer({
  data: adBlockingData,
  configIssues: adBlockingConfigIssues,
  actions: { pause: pauseAction, resume: resumeAction },
});
