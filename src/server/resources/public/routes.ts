import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { PublicDashboardSchema } from "../../../contract/data.js";
import { ProblemSchema, Uuid } from "../../../contract/resources.js";
import { PRIVATE_WIDGET_TYPES } from "../../../widgets/index.js";
import type { AppContext } from "../../context.js";
import { found } from "../../http/errors.js";
import { readPublicDashboard } from "./queries.js";

/**
 * Read-only view of a dashboard its owner published. No session needed; nothing identifies the
 * owner, and widgets that show the owner's connected accounts are left out.
 */
export const publicRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  app.get(
    "/api/public/dashboards/:id",
    {
      config: { access: "public" },
      schema: {
        tags: ["Public"],
        summary: "A published dashboard and its widgets, without a session",
        description: `404 unless the dashboard exists and is public. ${PRIVATE_WIDGET_TYPES.join(", ")} widgets are never included: they show the owner's connected accounts. Each config is read as the owner's app reads it (defaults for missing or malformed values, legacy keys renamed), and Weather locations are rounded to about a kilometre.`,
        security: [],
        params: Type.Object({ id: Uuid }),
        response: { 200: PublicDashboardSchema, 400: Type.Ref(ProblemSchema), 404: Type.Ref(ProblemSchema) },
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
