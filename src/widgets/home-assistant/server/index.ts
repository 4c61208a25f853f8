import type { AppContext } from "../../../server/context.js";
import type { WidgetData } from "../../../server/widgets/data.js";
import { defineWidgetServer } from "../../../server/widgets/kit.js";
import { HomeAssistantDataSchema, type HomeAssistantQuery } from "../contract.js";
import { homeAssistantConfigIssues } from "./config-issues.js";
import { homeAssistantRoutes } from "./routes.js";
import { homeAssistantSource } from "./states.js";
import { toggleAction } from "./toggle.js";

function homeAssistantData(ctx: AppContext): WidgetData<HomeAssistantQuery> {
  const load = homeAssistantSource(ctx);
  return {
    response: HomeAssistantDataSchema,
    summary: "The entity states of a Home Assistant widget on a public dashboard, without a session",
    description:
      "The states of the entities stored in the widget's config, read through its owner's Home Assistant integration: state, friendly name, unit, device class, last change. Never a token or other attributes. 404 unless the dashboard is public and the widget is a Home Assistant widget on it with an integration and entities.",
    load: (query, _widgetId, _request, ownerId) => load(query, ownerId),
  };
}

export default defineWidgetServer({
  data: homeAssistantData,
  routes: homeAssistantRoutes,
  configIssues: homeAssistantConfigIssues,
  actions: { toggle: toggleAction },
});
