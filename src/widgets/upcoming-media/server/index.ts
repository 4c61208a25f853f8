import type { AppContext } from "../../../server/context.js";
import type { WidgetData } from "../../../server/widgets/data.js";
import { defineWidgetServer } from "../../../server/widgets/kit.js";
import { UpcomingMediaDataSchema, type UpcomingMediaQuery } from "../contract.js";
import { upcomingMediaConfigIssues } from "./config-issues.js";
import { upcomingMediaSource } from "./source.js";

function upcomingMediaData(ctx: AppContext): WidgetData<UpcomingMediaQuery> {
  const load = upcomingMediaSource(ctx);
  return {
    response: UpcomingMediaDataSchema,
    summary:
      "The upcoming episodes, movies and downloads of an Upcoming Media widget on a public dashboard, without a session",
    description:
      "Through the owner's Sonarr and Radarr integrations: episodes airing and movies released from the start of yesterday (UTC) to `days` ahead, and each queue's downloads closest to done (progress, time left, state, the service's warnings). An integration that fails is named in `sources` with why, beside the others' data. Never an API key. 404 unless the dashboard is public and the widget is an Upcoming Media widget on it with an integration.",
    load: (query, _widgetId, _request, ownerId) => load(query, ownerId),
  };
}

export default defineWidgetServer({ data: upcomingMediaData, configIssues: upcomingMediaConfigIssues });
