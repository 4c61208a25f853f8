import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { PricesResponse } from "../../../contract/data.js";
import type { AppContext } from "../../../server/context.js";
import { sendEncodedJson } from "../../../server/http/encoded-json.js";
import { routePublicWidgetData } from "../../../server/resources/public/widget-data.js";
import { cryptoWidget } from "../contract.js";

/** Signed-in readers use /api/exchange/prices (server/exchange); visitors get the stored pairs only. */
export const cryptoRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  routePublicWidgetData(app, ctx.database.db, {
    definition: cryptoWidget,
    summary: "Prices for a Crypto widget on a public dashboard, without a session",
    description:
      "The pairs and timeframe come from the widget's stored config, read as the owner's app reads it (defaults where it has none). 404 unless the dashboard is public and the widget is a Crypto widget on it following at least one pair.",
    response: PricesResponse,
    serve: async ({ pairs, timeframe }, request, reply) =>
      sendEncodedJson(request, reply, await ctx.market.pricesBody(pairs, timeframe, request.log)),
  });
};
