import type { AppContext } from "../../../server/context.js";
import type { WidgetData } from "../../../server/widgets/data.js";
import { defineWidgetServer } from "../../../server/widgets/kit.js";
import { JellyfinDataSchema, type JellyfinQuery } from "../contract.js";
import { jellyfinConfigIssues } from "./config-issues.js";
import { jellyfinRoutes } from "./routes.js";
import { jellyfinSource } from "./source.js";

function jellyfinData(ctx: AppContext): WidgetData<JellyfinQuery> {
  const load = jellyfinSource(ctx);
  return {
    response: JellyfinDataSchema,
    summary: "What plays on the Jellyfin server of a widget on a public dashboard, and its latest additions",
    description:
      "Through the owner's Jellyfin integration (its API key never leaves the server): the sessions playing now (title, episode, progress, paused) and the latest films and episodes of the widget's Jellyfin user, with posters at /api/public/dashboards/{id}/widgets/{widgetId}/jellyfin-posters/{itemId}. Visitors never see who watches or on which device. 404 unless the dashboard is public and the widget is a Jellyfin widget on it with an integration.",
    load: (query, _widgetId, _request, ownerId) => load(query, ownerId),
  };
}

export default defineWidgetServer({
  data: jellyfinData,
  routes: jellyfinRoutes,
  configIssues: jellyfinConfigIssues,
});
