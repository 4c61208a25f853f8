import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { CreateWidgetBody, UpdateWidgetBody, Uuid, WidgetSchema } from "../../../contract/resources.js";
import type { AppContext } from "../../context.js";
import { sendJsonText } from "../../http/encoded-json.js";
import { found, notFound } from "../../http/errors.js";
import { errorResponses, IdQuery } from "../../http/schemas.js";
import { assertConfigSize, isForeignKeyViolation } from "../../http/validation.js";
import { dashboardFor, mayReadDashboard } from "../../policies/records.js";
import {
  createWidget,
  deleteWidget,
  listDashboardWidgetsJson,
  listWidgets,
  updateWidget,
} from "./queries.js";

const tags = ["Widgets"];

export const widgetRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const { db } = ctx.database;

  app.get(
    "/api/widgets",
    {
      schema: {
        tags,
        summary: "List the user's widgets, or those of one dashboard",
        querystring: Type.Object({ dashboardId: Type.Optional(Uuid) }),
        response: { 200: Type.Array(Type.Ref(WidgetSchema)), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const { dashboardId } = request.query;
      if (!dashboardId) return listWidgets(db, request.actor);
      const json = await listDashboardWidgetsJson(ctx.database, request.user.id, dashboardId);
      // One query in the common case; only an empty answer needs to tell "no widgets" from "no dashboard".
      if (json === "[]" && !(await mayReadDashboard(db, request.actor, dashboardId)))
        throw notFound("Dashboard");
      return sendJsonText(reply, ctx.jsonBytes.of(json));
    },
  );

  app.post(
    "/api/widgets",
    {
      schema: {
        tags,
        summary: "Add a widget to one of the user's dashboards",
        body: CreateWidgetBody,
        response: { 201: Type.Ref(WidgetSchema), ...errorResponses(404, 413, 415) },
      },
    },
    async (request, reply) => {
      assertConfigSize(request.body.config);
      const dashboard = await dashboardFor(db, request.actor, "edit", request.body.dashboardId);
      if (!dashboard) throw notFound("Dashboard");
      // The widget is the dashboard's owner's, whoever adds it (quotas count against the owner).
      try {
        return reply
          .code(201)
          .send(await ctx.changes.apply(db, (tx) => createWidget(tx, dashboard.userId, request.body)));
      } catch (error) {
        if (isForeignKeyViolation(error)) throw notFound("Dashboard");
        throw error;
      }
    },
  );

  app.put(
    "/api/widgets",
    {
      schema: {
        tags,
        summary: "Move, resize or reconfigure a widget",
        description:
          "Owner, dashboard and widget type are not accepted fields and cannot change. With `revision`, the change is made only if the widget is still at that revision; else nothing is written and the answer is 409 `conflict` with the stored widget in `current`. Without it, the last write wins.",
        body: UpdateWidgetBody,
        response: { 200: Type.Ref(WidgetSchema), ...errorResponses(404, 409, 413, 415) },
      },
    },
    async (request) => {
      assertConfigSize(request.body.config);
      return found(
        await ctx.changes.apply(db, (tx) => updateWidget(tx, request.actor, request.body)),
        "Widget",
      );
    },
  );

  app.delete(
    "/api/widgets",
    {
      schema: {
        tags,
        summary: "Remove a widget",
        querystring: IdQuery,
        response: { 200: Type.Ref(WidgetSchema), ...errorResponses(404) },
      },
    },
    async (request) =>
      found(await ctx.changes.apply(db, (tx) => deleteWidget(tx, request.actor, request.query.id)), "Widget"),
  );
};
