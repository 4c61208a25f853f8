import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { CreateWidgetBody, UpdateWidgetBody, Uuid, WidgetSchema } from "../../../contract/resources.js";
import { PATCH_OPS_MAX, PatchWidgetBody } from "../../../contract/widget-patch.js";
import type { AppContext } from "../../context.js";
import { sendJsonText } from "../../http/encoded-json.js";
import { found, notFound } from "../../http/errors.js";
import { errorResponses, IdQuery } from "../../http/schemas.js";
import { assertConfigSize, isForeignKeyViolation } from "../../http/validation.js";
import { writeOrigin } from "../../http/write-origin.js";
import { dashboardFor, refuseDashboard } from "../../policies/records.js";
import { assertPatchable } from "./apply-patch.js";
import { patchWidget } from "./patch.js";
import {
  createWidget,
  deleteWidget,
  listDashboardWidgetsJson,
  listWidgets,
  updateWidget,
} from "./queries.js";
import { Turns } from "./turns.js";

const tags = ["Widgets"];

export const widgetRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const { db } = ctx.database;

  app.get(
    "/api/widgets",
    {
      schema: {
        tags,
        summary: "List the user's widgets, or those of one dashboard they may read (their own or shared)",
        querystring: Type.Object({ dashboardId: Type.Optional(Uuid) }),
        response: { 200: Type.Array(Type.Ref(WidgetSchema)), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const { dashboardId } = request.query;
      if (!dashboardId) return listWidgets(db, request.actor);
      const json = await listDashboardWidgetsJson(ctx.database, request.user.id, dashboardId);
      // One query in the common case (the caller's own dashboard); only an empty answer needs to
      // tell "no widgets" from "no dashboard" from "someone else's, shared with the caller".
      if (json !== "[]") return sendJsonText(reply, ctx.jsonBytes.of(json));
      const dashboard = await dashboardFor(db, request.actor, "read", dashboardId);
      if (!dashboard) throw notFound("Dashboard");
      if (dashboard.userId === request.user.id) return sendJsonText(reply, ctx.jsonBytes.of(json));
      const shared = await listDashboardWidgetsJson(ctx.database, dashboard.userId, dashboardId);
      return sendJsonText(reply, ctx.jsonBytes.of(shared));
    },
  );

  app.post(
    "/api/widgets",
    {
      schema: {
        tags,
        summary: "Add a widget to one of the user's dashboards",
        body: CreateWidgetBody,
        response: { 201: Type.Ref(WidgetSchema), ...errorResponses(403, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      assertConfigSize(request.body.config);
      const dashboard = await dashboardFor(db, request.actor, "edit", request.body.dashboardId);
      if (!dashboard) throw await refuseDashboard(db, request.actor, request.body.dashboardId);
      // The widget is the dashboard's owner's, whoever adds it (quotas count against the owner).
      try {
        return reply
          .code(201)
          .send(
            await ctx.changes.apply(
              db,
              (tx) => createWidget(tx, dashboard.userId, request.body),
              writeOrigin(request),
            ),
          );
      } catch (error) {
        if (isForeignKeyViolation(error)) throw notFound("Dashboard");
        throw error;
      }
    },
  );

  app.put(
    "/api/widgets",
    {
      schema: {
        tags,
        summary: "Move, resize or reconfigure a widget",
        description:
          "Owner, dashboard and widget type are not accepted fields and cannot change. With `revision`, the change is made only if the widget is still at that revision; else nothing is written and the answer is 409 `conflict` with the stored widget in `current`. Without it, the last write wins.",
        body: UpdateWidgetBody,
        response: { 200: Type.Ref(WidgetSchema), ...errorResponses(403, 404, 409, 413, 415) },
      },
    },
    async (request) => {
      assertConfigSize(request.body.config);
      return found(
        await ctx.changes.apply(
          db,
          (tx) => updateWidget(tx, request.actor, request.body),
          writeOrigin(request),
        ),
        "Widget",
      );
    },
  );

  // Patches of one widget queue on its row lock (patch.ts), each waiter holding a pooled
  // connection, and PostgreSQL lets a newcomer take a lock just freed ahead of those waiting: ten
  // editors on one Todo filled the pool and some patches waited many turns (p99 ~450 ms against
  // ~130 ms, bench/patch-contention.ts). Here at most two per widget reach the database, one
  // writing and one already waiting for the lock (as fast as no limit; one at a time lost a third
  // of the throughput); the rest wait in arrival order, without a connection. The embedded engine
  // has one connection and serves its transactions in order already.
  const patchTurns = ctx.database.kind === "postgres" ? new Turns(2) : null;
  app.patch(
    "/api/widgets",
    {
      schema: {
        tags,
        summary: "Change parts of a widget's config with JSON Patch (RFC 6902)",
        description: `Applies \`ops\` (at most ${PATCH_OPS_MAX}) in order to the widget record as stored at the moment of the write, all or none, so concurrent patches of one widget each land on what the one before wrote. Paths are JSON Pointers into the record and must be \`/config\` or below it (\`/config/todos/-\` appends to the Todo's list); others are 400 \`validation_failed\` naming \`/ops/<i>/path\`. An op that cannot apply (a missing location, a bad index) is 400 naming \`/ops/<i>\`; a failed \`test\` is 409 \`conflict\` with the stored widget in \`current\`, as is a \`revision\` that is not the stored one. The result must be a JSON object within the config size limit that the widget type's config schema accepts (unlike PUT, which stores any object): what it refuses is 400 naming the place in \`/config\`. The revision moves on by one.`,
        body: PatchWidgetBody,
        response: { 200: Type.Ref(WidgetSchema), ...errorResponses(403, 404, 409, 413, 415) },
      },
    },
    async (request) => {
      assertPatchable(request.body.ops);
      const write = () =>
        ctx.changes.apply(db, (tx) => patchWidget(tx, request.actor, request.body), writeOrigin(request));
      return found(await (patchTurns ? patchTurns.take(request.body.id, write) : write()), "Widget");
    },
  );

  app.delete(
    "/api/widgets",
    {
      schema: {
        tags,
        summary: "Remove a widget",
        querystring: IdQuery,
        response: { 200: Type.Ref(WidgetSchema), ...errorResponses(403, 404) },
      },
    },
    async (request) =>
      found(
        await ctx.changes.apply(
          db,
          (tx) => deleteWidget(tx, request.actor, request.query.id),
          writeOrigin(request),
        ),
        "Widget",
      ),
  );
};
