import { eq } from "drizzle-orm";
import type { AppContext } from "../../../server/context.js";
import { widgets } from "../../../server/db/schema.js";
import { notFoundBecause } from "../../../server/http/errors.js";
import type { WidgetData } from "../../../server/widgets/data.js";
import { defineWidgetServer } from "../../../server/widgets/kit.js";
import { CustomApiDataSchema, type CustomApiQuery, customApiWidget } from "../contract.js";
import { customApiConfigIssues } from "./config-issues.js";
import { customApiSource } from "./source.js";

function customApiData(ctx: AppContext): WidgetData<CustomApiQuery> {
  const load = customApiSource(ctx);
  return {
    response: CustomApiDataSchema,
    summary: "The values of a Custom API widget on a public dashboard, without a session",
    description:
      "The values the widget's stored JMESPath queries pick out of its service's JSON, loaded with its owner's integration or its plain address. Never the service's body or a secret. 404 unless the dashboard is public and the widget is a Custom API widget on it with a source and something to show.",
    load: async (query, widgetId, _request, ownerId) =>
      load(query.integrationId || query.url ? query : await withStoredAddress(ctx, widgetId, query), ownerId),
  };
}

/** A visitor's query has "" for the address (the public view hides it): the stored widget's. */
async function withStoredAddress(
  ctx: AppContext,
  widgetId: string,
  query: CustomApiQuery,
): Promise<CustomApiQuery> {
  const [stored] = await ctx.database.db
    .select({ config: widgets.config })
    .from(widgets)
    .where(eq(widgets.id, widgetId))
    .limit(1);
  const url = stored ? customApiWidget.parse(stored.config).url : undefined;
  if (!url) throw notFoundBecause("This Custom API widget has no address yet");
  return { ...query, url };
}

export default defineWidgetServer({ data: customApiData, configIssues: customApiConfigIssues });
