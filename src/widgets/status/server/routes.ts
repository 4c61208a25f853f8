import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { and, eq } from "drizzle-orm";
import { StatusResponse } from "../../../contract/data.js";
import { Uuid } from "../../../contract/resources.js";
import type { AppContext } from "../../../server/context.js";
import { widgets } from "../../../server/db/schema.js";
import { notFound } from "../../../server/http/errors.js";
import { errorResponses } from "../../../server/http/schemas.js";
import { readableWidgets } from "../../../server/policies/records.js";
import type { WidgetData } from "../../../server/widgets/data.js";
import { storedCheckStates } from "../../../server/widgets/status-checks/stored.js";
import { type StatusTarget, statusWidget } from "../contract.js";

/**
 * What the Status widgets show: the checks the server's watch pass records
 * (checks.ts). Reading never fetches anything, so a page refreshing every 30 s
 * costs the checks nothing.
 */
export const statusRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const { db } = ctx.database;

  app.get(
    "/api/status",
    {
      schema: {
        tags: ["Status"],
        summary: "The last check of each target of one of the user's Status widgets",
        description:
          "Checks run on the server's watch pass (ALERTS_WATCH_SECONDS). Targets on private, loopback or link-local networks are recorded as address_not_allowed unless FETCH_ALLOW_PRIVATE names them.",
        querystring: Type.Object({ widgetId: Uuid }),
        response: { 200: StatusResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      const [row] = await db
        .select({ config: widgets.config })
        .from(widgets)
        .where(
          and(
            eq(widgets.id, request.query.widgetId),
            readableWidgets(request.actor),
            eq(widgets.widgetType, statusWidget.type),
          ),
        )
        .limit(1);
      if (!row) throw notFound("Status widget");
      return storedCheckStates(db, request.query.widgetId, statusWidget.parse(row.config).checks);
    },
  );
};

/** The last checks of a Status widget's stored targets (GET /api/widgets/data and public pages). */
export function statusData(ctx: AppContext): WidgetData<readonly StatusTarget[]> {
  return {
    response: StatusResponse,
    summary: "The checks of a Status widget on a public dashboard, without a session",
    description:
      "For the checks stored in the widget's config. 404 unless the dashboard is public and the widget is a Status widget on it with at least one target.",
    load: (checks, widgetId) => storedCheckStates(ctx.database.db, widgetId, checks),
  };
}
