import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import {
  CreateDashboardBody,
  type Dashboard,
  DashboardSchema,
  UpdateDashboardBody,
  Uuid,
} from "../../../contract/resources.js";
import type { AppContext } from "../../context.js";
import { sendJsonText } from "../../http/encoded-json.js";
import { badRequest, notFound } from "../../http/errors.js";
import { errorResponses, IdQuery } from "../../http/schemas.js";
import { writeOrigin } from "../../http/write-origin.js";
import { refuseDashboard } from "../../policies/records.js";
import {
  createDashboard,
  decodeCursor,
  deleteDashboard,
  listDashboards,
  listDashboardsJson,
  listSharedDashboards,
  updateDashboard,
} from "./queries.js";

const tags = ["Dashboards"];
const DashboardList = Type.Array(Type.Ref(DashboardSchema));
export const MAX_PAGE = 1000;

const ListQuery = Type.Object({
  id: Type.Optional(Uuid),
  limit: Type.Optional(
    Type.String({
      pattern: "^([1-9][0-9]{0,2}|1000)$",
      description: `Page size, 1 to ${MAX_PAGE}. Without it the whole list is answered.`,
    }),
  ),
  cursor: Type.Optional(
    Type.String({
      pattern: "^[A-Za-z0-9_-]{1,200}$",
      description: "Where the page starts: the cursor from the previous answer's Link header (rel=next).",
    }),
  ),
  include: Type.Optional(
    Type.Literal("shared", {
      description:
        "`shared` adds the dashboards shared with the caller after their own, each with `owner`; the whole list, without `limit`",
    }),
  ),
});

export const dashboardRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const { db } = ctx.database;

  app.get(
    "/api/dashboards",
    {
      schema: {
        tags,
        summary: "List the user's dashboards, oldest first (one when id is given)",
        description:
          "Paginated with `limit` and `cursor`: when more dashboards follow, the answer carries a " +
          '`Link: </api/dashboards?limit=N&cursor=C>; rel="next"` header; the last page has none. ' +
          "With `id`, any dashboard the caller may read (their own or one shared with them). Every " +
          "dashboard says the caller's `access`: owner, editor or viewer.",
        querystring: ListQuery,
        response: {
          200: {
            ...DashboardList,
            headers: Type.Object({
              link: Type.Optional(Type.String({ description: 'The next page, rel="next" (RFC 8288)' })),
            }),
          },
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const { id, limit, cursor, include } = request.query;
      if (id) {
        const list = await listDashboards(db, request.actor, id);
        if (list.length === 0) throw notFound("Dashboard");
        return list;
      }
      if (include === "shared") {
        if (limit !== undefined || cursor !== undefined)
          throw badRequest("include=shared answers the whole list; leave out limit and cursor", [
            { path: "/include", message: "cannot be combined with limit or cursor" },
          ]);
        const own = await listDashboardsJson(ctx.database, request.user.id, {});
        const shared = await listSharedDashboards(db, request.actor);
        if (shared.length === 0) return sendJsonText(reply, ctx.jsonBytes.of(own.json));
        return [...(JSON.parse(own.json) as Dashboard[]), ...shared];
      }
      const after = cursor === undefined ? null : decodeCursor(cursor);
      if (cursor !== undefined && after === null)
        throw badRequest("cursor is not one this server gave out", [
          { path: "/cursor", message: "unknown cursor" },
        ]);
      const pageSize = limit === undefined ? undefined : Number(limit);
      const page = await listDashboardsJson(ctx.database, request.user.id, { limit: pageSize, after });
      if (page.next !== null)
        reply.header("link", `</api/dashboards?limit=${pageSize}&cursor=${page.next}>; rel="next"`);
      return sendJsonText(reply, ctx.jsonBytes.of(page.json));
    },
  );

  app.post(
    "/api/dashboards",
    {
      schema: {
        tags,
        summary: "Create a dashboard",
        body: CreateDashboardBody,
        response: { 201: Type.Ref(DashboardSchema), ...errorResponses(413, 415) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await ctx.changes.apply(
            db,
            (tx) => createDashboard(tx, request.user.id, request.body.name.trim()),
            writeOrigin(request),
          ),
        ),
  );

  app.put(
    "/api/dashboards",
    {
      schema: {
        tags,
        summary: "Rename a dashboard (and optionally publish it or set its look)",
        description:
          "With `revision`, the change is made only if the dashboard is still at that revision; else nothing is written and the answer is 409 `conflict` with the stored dashboard in `current`. Without it, the last write wins.",
        body: UpdateDashboardBody,
        response: { 200: Type.Ref(DashboardSchema), ...errorResponses(403, 404, 409, 413, 415) },
      },
    },
    async (request) => {
      const { id, name, isPublic, look, revision } = request.body;
      const patch = {
        name: name.trim(),
        revision,
        ...(isPublic === undefined ? {} : { isPublic }),
        // Absent leaves the look as it is; null and {} both clear it.
        ...(look === undefined ? {} : { look: look ?? {} }),
      };
      const updated = await ctx.changes.apply(
        db,
        (tx) => updateDashboard(tx, request.actor, id, patch),
        writeOrigin(request),
      );
      if (!updated) throw await refuseDashboard(db, request.actor, id);
      return updated;
    },
  );

  app.delete(
    "/api/dashboards",
    {
      schema: {
        tags,
        summary: "Delete a dashboard and, permanently, all of its widgets",
        querystring: IdQuery,
        response: { 200: Type.Ref(DashboardSchema), ...errorResponses(403, 404) },
      },
    },
    async (request) => {
      const { id } = request.query;
      const deleted = await ctx.changes.apply(
        db,
        (tx) => deleteDashboard(tx, request.actor, id),
        writeOrigin(request),
      );
      if (!deleted) throw await refuseDashboard(db, request.actor, id);
      return deleted;
    },
  );
};
