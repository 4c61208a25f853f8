import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { NotesPageListSchema, NotesPageSchema } from "../../../contract/data.js";
import { errorResponses } from "../../http/schemas.js";
import type { ProviderServices } from "../client.js";
import { IntString, intParam } from "../params.js";
import { NOTION_ID, pageMarkdown, searchPages } from "./pages.js";

const tags = ["Providers"];
/** Notion pages for the Editor widget, under /api/providers/notes. */
export const notesRoutes: FastifyPluginAsyncTypebox<ProviderServices> = async (app, services) => {
  app.get(
    "/api/providers/notes/pages",
    {
      schema: {
        tags,
        summary: "Search the pages shared with Tessera, most recently edited first",
        querystring: Type.Object({
          q: Type.Optional(Type.String({ maxLength: 200 })),
          cursor: Type.Optional(Type.String({ pattern: "^[A-Za-z0-9-]{1,64}$" })),
          pageSize: Type.Optional(IntString("1 to 100, default 25")),
        }),
        response: { 200: NotesPageListSchema, ...errorResponses(404, 502, 504) },
      },
    },
    async (request) => {
      const { q, cursor } = request.query;
      const pageSize = intParam(request.query.pageSize, "pageSize", 1, 100, 25);
      const row = await services.account(request.user.id, "notes");
      return searchPages(services, row, { query: q?.trim() || undefined, cursor, pageSize });
    },
  );

  app.get(
    "/api/providers/notes/pages/:id",
    {
      schema: {
        tags,
        summary: "One page rendered as Markdown",
        params: Type.Object({ id: Type.String({ pattern: NOTION_ID.source }) }),
        response: { 200: NotesPageSchema, ...errorResponses(404, 502, 504) },
      },
    },
    async (request) =>
      pageMarkdown(services, await services.account(request.user.id, "notes"), request.params.id),
  );
};
