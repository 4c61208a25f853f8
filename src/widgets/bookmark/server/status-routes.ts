import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { Uuid } from "../../../contract/resources.js";
import type { AppContext } from "../../../server/context.js";
import { notFound, notFoundBecause } from "../../../server/http/errors.js";
import { errorResponses } from "../../../server/http/schemas.js";
import type { Actor, UserActor } from "../../../server/policies/actor.js";
import { VISITOR } from "../../../server/policies/actor.js";
import { readableWidget } from "../../../server/policies/records.js";
import { NAMEABLE_CHECKS_MAX, nameableChecks } from "../../../server/widgets/status-checks/named.js";
import { BookmarkStatusDataSchema, bookmarkWidget, statusQueryOf } from "../contract.js";
import { bookmarkStatusSource } from "./status.js";

const NameableCheck = Type.Object({
  widgetId: Type.String({ format: "uuid" }),
  checkId: Type.String(),
  name: Type.String(),
  url: Type.String(),
  dashboardId: Type.String({ format: "uuid" }),
  dashboardName: Type.String(),
});

/**
 * A Bookmark widget's status dots, for readers of its dashboard and for visitors of a public one,
 * and the Status checks a dot may name. The dots are read here rather than through
 * GET /api/widgets/data: a Bookmark is a widget of its config (its links show with or without a
 * dot), and that route is for widgets that are their outside data.
 */
export const statusRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const { db } = ctx.database;
  const load = bookmarkStatusSource(ctx);

  /** The dots of a Bookmark widget the actor may read; 404 for any other widget, or one without dots. */
  async function dotsOf(actor: Actor, widgetId: string, dashboardId?: string) {
    const widget = await readableWidget(db, actor, widgetId, dashboardId);
    if (!widget || widget.widgetType !== bookmarkWidget.type) throw notFound("Bookmark widget");
    const config = bookmarkWidget.parse(widget.config);
    const query = statusQueryOf(actor.kind === "user" ? config : bookmarkWidget.publicConfig(config));
    if (!query) throw notFoundBecause("This Bookmark widget shows no status dots");
    return load(query, widget.userId, actor.kind !== "user");
  }

  app.get(
    "/api/bookmarks/status",
    {
      schema: {
        tags: ["Widgets"],
        summary: "The status dots of a Bookmark widget's links",
        description:
          "For the links whose `status` asks for a dot, in the widget's order: a link's own address checked (HEAD, GET when refused, through the address guard, kept 30 s), or the state the watch pass recorded for one of the widget owner's Status checks. 404 unless the caller may read the widget and it shows a dot.",
        querystring: Type.Object({ widgetId: Uuid }),
        response: { 200: BookmarkStatusDataSchema, ...errorResponses(404) },
      },
    },
    async (request) => dotsOf(request.actor, request.query.widgetId),
  );

  app.get(
    "/api/public/dashboards/:id/widgets/:widgetId/bookmark-status",
    {
      config: {
        access: "public",
        rateLimit: [
          {
            name: "public-data",
            key: (request) => request.ip,
            limit: 120,
            windowMs: 60_000,
            detail: "Too many requests for public widget data",
          },
        ],
      },
      schema: {
        tags: ["Public"],
        summary: "The status dots of a Bookmark widget on a public dashboard, without a session",
        description:
          "As GET /api/bookmarks/status, for a visitor, who gets a dot only where it reveals nothing private: a link's own address only when it is a public one, a named check only when its Status widget is on a public dashboard too. The other links are left out. Signed in or not, this is a visitor's view.",
        security: [],
        params: Type.Object({ id: Uuid, widgetId: Uuid }),
        response: { 200: BookmarkStatusDataSchema, ...errorResponses(404, 429) },
      },
    },
    async (request) => dotsOf(VISITOR, request.params.widgetId, request.params.id),
  );

  app.get(
    "/api/bookmarks/status-checks",
    {
      schema: {
        tags: ["Widgets"],
        summary: "The checks of the caller's own Status widgets, which a bookmark's status dot may name",
        description: `At most ${NAMEABLE_CHECKS_MAX}, by dashboard name and then in each widget's order. Checks on dashboards others own (shared with the caller or not) are not offered: a bookmark shows only its owner's checks.`,
        response: { 200: Type.Array(NameableCheck), ...errorResponses() },
      },
    },
    async (request) => nameableChecks(db, (request.actor as UserActor).user.id),
  );
};
