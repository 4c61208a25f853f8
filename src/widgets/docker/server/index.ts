import type { AppContext } from "../../../server/context.js";
import type { WidgetData } from "../../../server/widgets/data.js";
import { defineWidgetServer } from "../../../server/widgets/kit.js";
import { DockerDataSchema, type DockerQuery } from "../contract.js";
import { dockerConfigIssues } from "./config-issues.js";
import { dockerSource } from "./containers.js";
import { powerAction } from "./power.js";
import { dockerRoutes } from "./routes.js";

function dockerData(ctx: AppContext): WidgetData<DockerQuery> {
  const load = dockerSource(ctx);
  return {
    response: DockerDataSchema,
    summary: "The containers of a Docker widget on a public dashboard, without a session",
    description:
      "The containers the widget's config names (or all of them, at most 200), read through its owner's Docker integration: name, image, state, health, start and finish times, CPU and memory, and the app their labels describe. Never environment variables, mounts or other inspect fields. 404 unless the dashboard is public and the widget is a Docker widget on it with an integration.",
    load: (query, _widgetId, _request, ownerId) => load(query, ownerId),
  };
}

export default defineWidgetServer({
  data: dockerData,
  routes: dockerRoutes,
  configIssues: dockerConfigIssues,
  actions: { start: powerAction("start"), stop: powerAction("stop"), restart: powerAction("restart") },
});
