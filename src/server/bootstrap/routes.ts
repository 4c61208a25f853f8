import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { BootstrapSchema } from "../../contract/bootstrap.js";
import { Uuid } from "../../contract/resources.js";
import type { AppContext } from "../context.js";
import { sendJsonText } from "../http/encoded-json.js";
import { errorResponses } from "../http/schemas.js";
import { meOf, type SessionActor } from "../policies/actor.js";
import { listDashboardsJson, listSharedDashboards } from "../resources/dashboards/queries.js";
import { settingsAndReadMark } from "../resources/settings/queries.js";
import { listDashboardWidgetsJson } from "../resources/widgets/queries.js";

/**
 * `GET /api/bootstrap`: the first screen in one request after the bundle, instead of a chain of
 * session → dashboards and settings → widgets. Lists come from the same database-built JSON as
 * their own endpoints and are spliced into the answer as text. It composes several resources, so
 * it sits above them rather than among them.
 */
export const bootstrapRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  app.get(
    "/api/bootstrap",
    {
      // The web app's start: it names the session, so it is a session's (API keys read resources).
      config: { access: "session" },
      schema: {
        tags: ["Bootstrap"],
        summary:
          "The session, dashboards, settings, one dashboard's widgets and the notifications read mark in one answer",
        description:
          "What the web app loads on start. `dashboardId` asks for that dashboard's widgets (the one in the page's address); without it, or when the user may not read it, the last viewed dashboard opens, else the oldest. `dashboards` lists the user's own, then those shared with them (each with `owner`).",
        querystring: Type.Object({ dashboardId: Type.Optional(Uuid) }),
        response: { 200: Type.Ref(BootstrapSchema), ...errorResponses() },
      },
    },
    async (request, reply) => {
      const { user, session: current } = request.actor as SessionActor;
      const userId = user.id;
      const [dashboards, shared, mine] = await Promise.all([
        listDashboardsJson(ctx.database, userId, {}),
        listSharedDashboards(ctx.database.db, request.actor),
        settingsAndReadMark(ctx.database.db, userId),
      ]);
      const [settings] = mine.settings;
      const { readUpTo } = mine;
      const ids = [
        ...(JSON.parse(dashboards.json) as { id: string }[]).map((d) => d.id),
        ...shared.map((d) => d.id),
      ];
      const asked = request.query.dashboardId;
      const opened =
        (asked && ids.includes(asked) ? asked : null) ??
        (settings?.lastDashboardId && ids.includes(settings.lastDashboardId)
          ? settings.lastDashboardId
          : null) ??
        ids[0] ??
        null;
      // A shared dashboard's widgets are its owner's (the same cached read the owner's view makes).
      const ownerId = shared.find((d) => d.id === opened)?.userId ?? userId;
      const widgets = opened ? await listDashboardWidgetsJson(ctx.database, ownerId, opened) : "[]";
      const session = {
        user: { id: user.id, name: user.name, email: user.email },
        session: { id: current.id, expiresAt: new Date(current.expiresAt).toISOString() },
      };
      const body =
        `{"session":${JSON.stringify(session)},"me":${JSON.stringify(meOf(request.actor as SessionActor))},` +
        `"dashboards":${shared.length === 0 ? dashboards.json : JSON.stringify([...JSON.parse(dashboards.json), ...shared])},` +
        `"settings":${JSON.stringify(settings)},"dashboardId":${JSON.stringify(opened)},"widgets":${widgets},` +
        `"notificationsReadUpTo":${JSON.stringify(readUpTo)}}`;
      return sendJsonText(reply.header("cache-control", "no-store"), body);
    },
  );
};
