import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Uuid } from "../../../contract/resources.js";
import { Type } from "../../../contract/typebox.js";
import type { AppContext } from "../../../server/context.js";
import type { Db } from "../../../server/db/client.js";
import { found } from "../../../server/http/errors.js";
import { errorResponses } from "../../../server/http/schemas.js";
import { type Actor, VISITOR } from "../../../server/policies/actor.js";
import { readableWidget } from "../../../server/policies/records.js";
import { FrameCheck, frameWidget } from "../contract.js";
import { createFramingCheck } from "./framing.js";

const tags = ["Widgets"];

/** The page a Frame widget the actor may read shows; null for any other widget, or none chosen yet. */
async function framedPage(
  db: Db,
  actor: Actor,
  widgetId: string,
  dashboardId?: string,
): Promise<string | null> {
  const row = await readableWidget(db, actor, widgetId, dashboardId);
  if (row?.widgetType !== frameWidget.type) return null;
  return frameWidget.parse(row.config).url || null;
}

/**
 * Whether a Frame widget's page lets Tessera show it, asked of the page by the server (the
 * browser cannot tell: contract.ts). Only the stored page is ever asked, never one a request
 * names, so the routes cannot be turned into a fetcher of arbitrary addresses.
 */
export const frameRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const { db } = ctx.database;
  const check = createFramingCheck(ctx.upstream, new URL(ctx.config.baseUrl).origin);
  const description =
    "From the headers the page answers with (X-Frame-Options, Content-Security-Policy frame-ancestors), judged for this server's BASE_URL and kept for 5 minutes. 404 for a widget the caller may not read, another type, or a Frame widget without a page.";

  app.get(
    "/api/widgets/framing",
    {
      schema: {
        tags,
        summary: "Whether the page of a Frame widget may be shown in a frame",
        description,
        querystring: Type.Object({ id: Uuid }),
        response: { 200: FrameCheck, ...errorResponses(404) },
      },
    },
    async (request) => {
      const url = found(await framedPage(db, request.actor, request.query.id), "Framed page");
      return check(url);
    },
  );

  app.get(
    "/api/public/dashboards/:id/widgets/:widgetId/framing",
    {
      config: {
        access: "public",
        // Visitors have no session: counted per client address, as the public widget data is.
        rateLimit: [
          {
            name: "public-framing",
            key: (request) => request.ip,
            limit: 120,
            windowMs: 60_000,
            detail: "Too many requests for public widget data",
          },
        ],
      },
      schema: {
        tags: ["Public"],
        summary: "Whether the page of a Frame widget on a public dashboard may be shown in a frame",
        description: `As GET /api/widgets/framing, for a visitor of a public dashboard, without a session. ${description}`,
        security: [],
        params: Type.Object({ id: Uuid, widgetId: Uuid }),
        response: { 200: FrameCheck, ...errorResponses(400, 404, 429) },
      },
    },
    async (request) => {
      const { id, widgetId } = request.params;
      return check(found(await framedPage(db, VISITOR, widgetId, id), "Framed page"));
    },
  );
};
