import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import {
  CreateDashboardBody,
  DashboardSchema,
  UpdateDashboardBody,
  Uuid,
} from "../../../contract/resources.js";
import type { AppContext } from "../../context.js";
import { found, notFound } from "../../http/errors.js";
import { errorResponses, IdQuery } from "../../http/schemas.js";
import { createDashboard, deleteDashboard, listDashboards, updateDashboard } from "./queries.js";

const tags = ["Dashboards"];
const DashboardList = Type.Array(Type.Ref(DashboardSchema));

export const dashboardRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const { db } = ctx.database;
  app.addHook("onRequest", ctx.authenticate);

  app.get(
    "/api/dashboards",
    {
      schema: {
        tags,
        summary: "List the user's dashboards (one when id is given)",
        querystring: Type.Object({ id: Type.Optional(Uuid) }),
        response: { 200: DashboardList, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { id } = request.query;
      const list = await listDashboards(db, request.user.id, id);
      if (id && list.length === 0) throw notFound("Dashboard");
      return list;
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
      reply.code(201).send(await createDashboard(db, request.user.id, request.body.name.trim())),
  );

  app.put(
    "/api/dashboards",
    {
      schema: {
        tags,
        summary: "Rename a dashboard (and optionally publish it)",
        body: UpdateDashboardBody,
        response: { 200: Type.Ref(DashboardSchema), ...errorResponses(404, 413, 415) },
      },
    },
    async (request) => {
      const { id, name, isPublic } = request.body;
      const patch = isPublic === undefined ? { name: name.trim() } : { name: name.trim(), isPublic };
      return found(await updateDashboard(db, request.user.id, id, patch), "Dashboard");
    },
  );

  app.delete(
    "/api/dashboards",
    {
      schema: {
        tags,
        summary: "Delete a dashboard and, permanently, all of its widgets",
        querystring: IdQuery,
        response: { 200: Type.Ref(DashboardSchema), ...errorResponses(404) },
      },
    },
    async (request) => found(await deleteDashboard(db, request.user.id, request.query.id), "Dashboard"),
  );
};
