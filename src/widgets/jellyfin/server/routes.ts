import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import type { FastifyContextConfig } from "fastify";
import { Uuid } from "../../../contract/resources.js";
import type { AppContext } from "../../../server/context.js";
import { found, notFoundBecause } from "../../../server/http/errors.js";
import { errorResponses } from "../../../server/http/schemas.js";
import { type Actor, VISITOR } from "../../../server/policies/actor.js";
import { readableWidget } from "../../../server/policies/records.js";
import {
  JELLYFIN_ID_PATTERN,
  JELLYFIN_TAG_PATTERN,
  type JellyfinConfig,
  jellyfinWidget,
} from "../contract.js";
import { jellyfinId } from "./latest.js";
import { posterOf } from "./poster.js";
import { latestOf, usableJellyfin, usersOf } from "./source.js";

const JellyfinUserChoice = Type.Object({
  id: Type.String(),
  name: Type.String(),
  admin: Type.Boolean(),
});

const PosterParams = { itemId: Type.String({ pattern: JELLYFIN_ID_PATTERN }) };
const PosterQuery = Type.Object({ tag: Type.String({ pattern: JELLYFIN_TAG_PATTERN }) });
const PosterBytes = Type.String({ format: "binary", description: "The poster (JPEG, PNG, WebP or GIF)" });

/** Visitors have no session: counted per address, with room for a page of posters per minute. */
const publicPosterRoute: FastifyContextConfig = {
  access: "public",
  rateLimit: [
    {
      name: "public-jellyfin-posters",
      key: (request) => request.ip,
      limit: 600,
      windowMs: 60_000,
      detail: "Too many requests for posters",
    },
  ],
};

/**
 * A poster of one of the widget's latest additions, as whoever asks may see the widget: the item
 * and tag must be among what the widget shows now, so the route never fetches other pictures
 * (another user's library, anything by id) from the owner's Jellyfin.
 */
async function widgetPoster(
  ctx: AppContext,
  actor: Actor,
  ids: { widgetId: string; dashboardId?: string },
  itemId: string,
  tag: string,
) {
  const widget = await readableWidget(ctx.database.db, actor, ids.widgetId, ids.dashboardId);
  const stored = found(widget?.widgetType === jellyfinWidget.type ? widget : null, "Widget");
  const parsed = jellyfinWidget.parse(stored.config);
  const config: JellyfinConfig = actor === VISITOR ? jellyfinWidget.publicConfig(parsed) : parsed;
  if (!config.integrationId || !config.showLatest)
    throw notFoundBecause("This Jellyfin widget shows no latest additions");
  const integration = await usableJellyfin(ctx, stored.userId, config.integrationId);
  const latest = await latestOf(ctx, integration, config.userId);
  const shown = latest.items
    .slice(0, config.latestCount)
    .some((item) => item.poster?.itemId === itemId && item.poster.tag === tag);
  if (!shown) throw notFoundBecause("This poster is not one of the widget's latest additions");
  return posterOf(ctx, integration, itemId, tag);
}

/**
 * The Jellyfin widget's own routes: the users of an integration (for its settings) and the
 * posters of its latest additions, fetched by the server with the key in the header, so the key
 * never reaches a browser (an image address to Jellyfin would have to carry it) and the browser
 * needs no way to Jellyfin of its own.
 */
export const jellyfinRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  app.get(
    "/api/jellyfin/users",
    {
      schema: {
        tags: ["Widgets"],
        summary: "The users of a Jellyfin integration the caller may use, to pick whose additions are shown",
        description:
          "Enabled users only, administrators first, then by name. 404 for an integration the caller may not use or of another kind.",
        querystring: Type.Object({ integrationId: Uuid }),
        response: { 200: Type.Array(JellyfinUserChoice), ...errorResponses(404, 502, 504) },
      },
    },
    async (request) => {
      const actor = request.actor as { user: { id: string } };
      const integration = await usableJellyfin(ctx, actor.user.id, request.query.integrationId);
      const users = await usersOf(ctx, integration);
      return users
        .filter((u) => u.Policy?.IsDisabled !== true && jellyfinId(u.Id))
        .map((u) => ({
          id: jellyfinId(u.Id)!,
          name: u.Name?.slice(0, 200) ?? "",
          admin: u.Policy?.IsAdministrator === true,
        }))
        .sort((a, b) => Number(b.admin) - Number(a.admin) || a.name.localeCompare(b.name));
    },
  );

  app.get(
    "/api/jellyfin/posters/:widgetId/:itemId",
    {
      schema: {
        tags: ["Widgets"],
        summary: "A poster of a Jellyfin widget's latest additions",
        description:
          "For a widget the caller may read; the item and tag must be one of the posters the widget shows now (404 otherwise). Fetched from Jellyfin by the server; the browser may keep it a day (the tag changes with the picture).",
        params: Type.Object({ widgetId: Uuid, ...PosterParams }),
        querystring: PosterQuery,
        response: { 200: PosterBytes, ...errorResponses(404, 502, 504) },
      },
    },
    async (request, reply) => {
      const { widgetId, itemId } = request.params;
      const poster = await widgetPoster(ctx, request.actor, { widgetId }, itemId, request.query.tag);
      // A Buffer is sent as it is (no serializer); the schema's string only documents the bytes.
      return reply
        .type(poster.type)
        .header("cache-control", "private, max-age=86400")
        .send(poster.bytes as unknown as string);
    },
  );

  app.get(
    "/api/public/dashboards/:id/widgets/:widgetId/jellyfin-posters/:itemId",
    {
      config: publicPosterRoute,
      schema: {
        tags: ["Public"],
        summary: "A poster of a Jellyfin widget on a public dashboard, without a session",
        description:
          "As GET /api/jellyfin/posters/{widgetId}/{itemId}, for a visitor: 404 unless the dashboard is public and the widget on it shows that poster.",
        security: [],
        params: Type.Object({ id: Uuid, widgetId: Uuid, ...PosterParams }),
        querystring: PosterQuery,
        response: { 200: PosterBytes, ...errorResponses(400, 404, 429, 502, 504) },
      },
    },
    async (request, reply) => {
      const { id, widgetId, itemId } = request.params;
      const poster = await widgetPoster(
        ctx,
        VISITOR,
        { widgetId, dashboardId: id },
        itemId,
        request.query.tag,
      );
      return reply
        .type(poster.type)
        .header("cache-control", "public, max-age=86400")
        .send(poster.bytes as unknown as string);
    },
  );
};
