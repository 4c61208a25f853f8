import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import {
  DashboardDocument,
  DOCUMENT_MAX_BYTES,
  type DocumentWidget,
} from "../../contract/dashboard-document.js";
import { DASHBOARD_RESTORED, userChannel } from "../../contract/notifications.js";
import { DashboardSchema, Uuid, WidgetSchema } from "../../contract/resources.js";
import { AuthorSchema } from "../../contract/sharing.js";
import type { AppContext } from "../context.js";
import { badRequest, forbidden, found, notFound } from "../http/errors.js";
import { errorResponses, IdQuery } from "../http/schemas.js";
import { writeOrigin } from "../http/write-origin.js";
import type { Actor, UserActor } from "../policies/actor.js";
import { can, mayChangeDashboard, provisionedRefusal } from "../policies/records.js";
import { listDashboards } from "../resources/dashboards/queries.js";
import { listWidgets } from "../resources/widgets/queries.js";
import { documentOf, readDocument } from "./document.js";
import { createFromDocument, freeCopyName, freeDashboardName, replaceWidgets } from "./queries.js";
import { listVersions, readVersion, versionRecorder } from "./versions.js";

const tags = ["Export, import and history"];
const DashboardName = Type.String({ minLength: 1, maxLength: 100, pattern: "\\S" });
const Created = Type.Object({ dashboard: DashboardSchema, widgets: Type.Array(WidgetSchema) });
const VersionSchema = Type.Object({
  id: Uuid,
  createdAt: Type.String({ format: "date-time" }),
  updatedAt: Type.String({ format: "date-time", description: "Changes within a minute fold into a version" }),
  widgetCount: Type.Integer(),
  by: Type.Union([Type.Ref(AuthorSchema), Type.Null()], {
    description: "Who made the change; null for versions the server made or recorded before sharing",
  }),
});

/** `name.tessera.json`, with what a file name cannot hold replaced. */
const fileName = (name: string) => `${name.replace(/[\\/:*?"<>|]|\p{Cc}/gu, "_").slice(0, 100)}.tessera.json`;

/**
 * A dashboard as a file and back, a copy, and its history (DESIGN section 10). Every write goes
 * through the change seam, so limits hold and history records it in the same transaction.
 */
export const portabilityRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const { db } = ctx.database;
  if (ctx.config.historyEnabled)
    ctx.changes.listenAll(versionRecorder(ctx.clock, ctx.config.limits, ctx.config.historyFoldMs));

  /** A dashboard the actor may read; 404 for any other. */
  const readable = async (actor: Actor, id: string) =>
    found((await listDashboards(db, actor, id))[0], "Dashboard");

  app.get(
    "/api/schemas/dashboard-document.json",
    {
      config: { access: "public" },
      schema: {
        tags,
        summary: "The JSON Schema of the dashboard document (also in docs/ of the repository)",
        security: [],
        response: { 200: Type.Object({}, { additionalProperties: true }), ...errorResponses() },
      },
    },
    async () => ({ $schema: "https://json-schema.org/draft/2020-12/schema", ...DashboardDocument }),
  );

  app.get(
    "/api/dashboards/export",
    {
      schema: {
        tags,
        summary: "The dashboard as a Tessera document, as a file download",
        querystring: IdQuery,
        response: { 200: DashboardDocument, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const dashboard = await readable(request.actor, request.query.id);
      const widgets = await listWidgets(db, request.actor, dashboard.id);
      const name = fileName(dashboard.name);
      reply.header(
        "content-disposition",
        `attachment; filename="${name.replace(/[^\x20-\x7e]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      );
      return documentOf(dashboard, widgets, new Date(ctx.clock()));
    },
  );

  app.post(
    "/api/dashboards/import",
    {
      bodyLimit: DOCUMENT_MAX_BYTES,
      schema: {
        tags,
        summary: "Create a dashboard from a Tessera document (up to 5 MiB, 500 widgets)",
        description:
          "Everything is checked before anything is written: an unknown format is 400 validation_failed, a newer version 400 unsupported_version, and every invalid field is listed with its JSON path (a widget type this server does not have is named, with the types it has). A top-level `name` overrides the document's and is taken as given; without it, a name the caller already has on one of their dashboards (in any case) becomes the first free `name (2)`, `name (3)`….",
        body: Type.Object(
          {},
          { additionalProperties: true, description: "A dashboard document, optionally with `name`" },
        ),
        response: { 201: Created, ...errorResponses(404, 409, 413) },
      },
    },
    async (request, reply) => {
      const document = readDocument(request.body);
      const override = (request.body as { name?: unknown }).name;
      if (
        override !== undefined &&
        (typeof override !== "string" || !/\S/.test(override) || override.length > 100)
      )
        throw badRequest("name must be 1 to 100 characters, not only white space", [
          { path: "/name", message: "must be 1 to 100 characters, not only white space" },
        ]);
      const userId = request.user.id;
      const created = await ctx.changes.apply(
        db,
        async (tx) => {
          // Asked for by name: that name, even if taken; the file's own name is only a suggestion.
          const name =
            typeof override === "string"
              ? override.trim()
              : await freeDashboardName(tx, userId, document.dashboard.name.trim());
          return createFromDocument(tx, userId, name, document.widgets, document.dashboard.look);
        },
        writeOrigin(request),
      );
      await ctx.audit.after(
        request.actor as UserActor,
        {
          action: "dashboard.imported",
          target: `dashboard:${created.dashboard.id}`,
          detail: { name: created.dashboard.name, widgets: created.widgets.length },
        },
        request.log,
      );
      return reply.code(201).send(created);
    },
  );

  app.post(
    "/api/dashboards/duplicate",
    {
      schema: {
        tags,
        summary: "Copy a dashboard and its widgets",
        body: Type.Object({ id: Uuid, name: Type.Optional(DashboardName) }),
        response: { 201: Created, ...errorResponses(404, 409, 413) },
      },
    },
    async (request, reply) => {
      const source = await readable(request.actor, request.body.id);
      const widgets = await listWidgets(db, request.actor, source.id);
      const asked = request.body.name?.trim();
      const copy = await ctx.changes.apply(
        db,
        async (tx) =>
          createFromDocument(
            tx,
            request.user.id,
            asked ?? (await freeCopyName(tx, request.user.id, source.name)),
            documentOf(source, widgets, new Date()).widgets,
            source.look,
          ),
        writeOrigin(request),
      );
      return reply.code(201).send(copy);
    },
  );

  app.get(
    "/api/dashboards/versions",
    {
      schema: {
        tags,
        summary: "The dashboard's versions, newest first (at most 50)",
        querystring: IdQuery,
        response: { 200: Type.Array(VersionSchema), ...errorResponses(404) },
      },
    },
    async (request) => {
      const dashboard = await readable(request.actor, request.query.id);
      return listVersions(db, dashboard.id);
    },
  );

  /** A version of a dashboard the caller may change; 404 for anyone else's. */
  const versionOf = async (actor: Actor, versionId: string) => {
    const version = await readVersion(db, versionId);
    if (!version || !(await mayChangeDashboard(db, actor, version.dashboardId))) throw notFound("Version");
    return version;
  };

  app.get(
    "/api/dashboards/versions/document",
    {
      schema: {
        tags,
        summary: "One version of a dashboard as a Tessera document",
        querystring: IdQuery,
        response: { 200: DashboardDocument, ...errorResponses(404) },
      },
    },
    async (request) => (await versionOf(request.actor, request.query.id)).document,
  );

  app.post(
    "/api/dashboards/restore",
    {
      schema: {
        tags,
        summary: "Put a dashboard's widgets back as a version had them (itself recorded, so undoable)",
        body: Type.Object({ id: Uuid, versionId: Uuid }),
        response: { 200: Created, ...errorResponses(404, 409, 413) },
      },
    },
    async (request) => {
      const dashboard = await readable(request.actor, request.body.id);
      if (dashboard.provisionLocked) throw provisionedRefusal();
      if (!can(request.actor, "edit", dashboard))
        throw forbidden("Only the dashboard's owner and editors can restore its versions");
      const version = await versionOf(request.actor, request.body.versionId);
      if (version.dashboardId !== dashboard.id) throw notFound("Version");
      const restored = await ctx.changes.apply(
        db,
        (tx) =>
          replaceWidgets(tx, dashboard, request.body.versionId, version.document.widgets as DocumentWidget[]),
        writeOrigin(request),
      );
      await ctx.bus
        .publish(userChannel(request.user.id), {
          event: DASHBOARD_RESTORED,
          data: { userId: request.user.id, dashboardId: dashboard.id },
        })
        .catch((error: unknown) => request.log.warn({ err: error }, "could not announce a restore"));
      await ctx.audit.after(
        request.actor as UserActor,
        {
          action: "dashboard.restored",
          target: `dashboard:${dashboard.id}`,
          detail: { name: dashboard.name, versionId: request.body.versionId },
        },
        request.log,
      );
      return restored;
    },
  );
};
