import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { errorResponses } from "../../http/schemas.js";
import type { ProviderServices } from "../client.js";
import { IntString, intParam } from "../params.js";
import { MAX_BLOCKS, MAX_DEPTH, NOTION_ID, pageMarkdown, searchPages } from "./pages.js";

const tags = ["Providers"];
const Nullable = (schema: ReturnType<typeof Type.String>) => Type.Union([schema, Type.Null()]);

const PageSummaryProps = {
  id: Type.String(),
  title: Type.String(),
  url: Nullable(Type.String()),
  icon: Nullable(Type.String({ description: "an emoji" })),
  lastEditedAt: Nullable(Type.String({ format: "date-time" })),
  parentId: Nullable(Type.String()),
};

const PageListSchema = Type.Object({
  pages: Type.Array(Type.Object(PageSummaryProps)),
  nextCursor: Nullable(Type.String({ description: "pass as cursor for more" })),
});

const PageSchema = Type.Object({
  ...PageSummaryProps,
  markdown: Type.String(),
  truncated: Type.Boolean({
    description: `true when nesting beyond ${MAX_DEPTH} levels or more than ${MAX_BLOCKS} blocks were left out`,
  }),
});

/** Notion pages for the Editor widget, under /api/providers/notes. */
export const notesRoutes: FastifyPluginAsyncTypebox<ProviderServices> = async (app, s) => {
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
        response: { 200: PageListSchema, ...errorResponses(404, 502, 504) },
      },
    },
    async (request) => {
      const { q, cursor } = request.query;
      const pageSize = intParam(request.query.pageSize, "pageSize", 1, 100, 25);
      const row = await s.account(request.user.id, "notes");
      return searchPages(s, row, { query: q?.trim() || undefined, cursor, pageSize });
    },
  );

  app.get(
    "/api/providers/notes/pages/:id",
    {
      schema: {
        tags,
        summary: "One page rendered as Markdown",
        params: Type.Object({ id: Type.String({ pattern: NOTION_ID.source }) }),
        response: { 200: PageSchema, ...errorResponses(404, 502, 504) },
      },
    },
    async (request) => pageMarkdown(s, await s.account(request.user.id, "notes"), request.params.id),
  );
};
