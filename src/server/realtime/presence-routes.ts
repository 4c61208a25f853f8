import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { Uuid } from "../../contract/resources.js";
import { PRESENCE, PresenceBody } from "../../contract/sharing.js";
import type { AppContext } from "../context.js";
import { notFound } from "../http/errors.js";
import { errorResponses } from "../http/schemas.js";
import { dashboardFor } from "../policies/records.js";
import type { PresenceBoard } from "./presence.js";

const PresenceListSchema = Type.Object({
  dashboardId: Uuid,
  present: Type.Array(
    Type.Object({
      userId: Type.String(),
      name: Type.String(),
      image: Type.Union([Type.String(), Type.Null()]),
      editing: Type.Union([Uuid, Type.Null()], { description: "The widget they edit, or null" }),
    }),
  ),
});

/** Saying what one is editing on a dashboard one watches (DESIGN section 14). */
export const presenceRoutes: FastifyPluginAsyncTypebox<AppContext & { presence: PresenceBoard }> = async (
  app,
  ctx,
) => {
  app.post(
    "/api/dashboards/presence",
    {
      schema: {
        tags: ["Realtime"],
        summary: "Say which widget of a dashboard you are editing, or that you stopped",
        description: `Sets \`editing\` on every stream of yours that watches the dashboard (GET /api/realtime?dashboard=),
on any instance; each of its watchers then gets a \`${PRESENCE}\` event. Any dashboard you may read, else 404.
Without a stream watching the dashboard nothing changes. Answers the dashboard's presence list, as the event carries it.`,
        body: PresenceBody,
        response: { 200: PresenceListSchema, ...errorResponses(404, 415) },
      },
    },
    async (request) => {
      const { id, editing } = request.body;
      const dashboard = await dashboardFor(ctx.database.db, request.actor, "read", id);
      if (!dashboard) throw notFound("Dashboard");
      await ctx.presence.setEditing(request.user.id, dashboard.id, editing?.toLowerCase() ?? null);
      return ctx.presence.list(dashboard.id);
    },
  );
};
