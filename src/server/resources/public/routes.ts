import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { ConfigObject, ProblemSchema, Uuid, WidgetTypeSchema } from "../../../contract/resources.js";
import type { AppContext } from "../../context.js";
import { found } from "../../http/errors.js";
import { readPublicDashboard } from "./queries.js";

const PublicWidget = Type.Object({
  id: Uuid,
  widgetType: WidgetTypeSchema,
  height: Type.Number(),
  width: Type.Number(),
  positionX: Type.Number(),
  positionY: Type.Number(),
  config: ConfigObject,
});

const PublicDashboard = Type.Object({
  id: Uuid,
  name: Type.String(),
  updatedAt: Type.String({ format: "date-time" }),
  widgets: Type.Array(PublicWidget),
});

/**
 * Read-only view of a dashboard its owner published. No session needed; nothing identifies the
 * owner, and widgets that show the owner's connected accounts are left out.
 */
export const publicRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  app.get(
    "/api/public/dashboards/:id",
    {
      schema: {
        tags: ["Public"],
        summary: "A published dashboard and its widgets, without a session",
        description:
          "404 unless the dashboard exists and is public. Inbox, Meetings, Codehost and Codehost Heatmap widgets are never included: they show the owner's connected accounts.",
        security: [],
        params: Type.Object({ id: Uuid }),
        response: { 200: PublicDashboard, 400: Type.Ref(ProblemSchema), 404: Type.Ref(ProblemSchema) },
      },
    },
    async (request, reply) => {
      const dashboard = found(await readPublicDashboard(ctx.database.db, request.params.id), "Dashboard");
      // Shared links are read often and change rarely; a short shared cache keeps them cheap.
      reply.header("cache-control", "public, max-age=30");
      return dashboard;
    },
  );
};
