import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { and, desc, eq, lt, or, type SQL } from "drizzle-orm";
import { AUDIT_PAGE_DEFAULT, AuditPageSchema, AuditQuery } from "../../contract/audit.js";
import type { AppContext } from "../context.js";
import { auditEvents } from "../db/schema.js";
import { notFound } from "../http/errors.js";
import { errorResponses } from "../http/schemas.js";

/** `GET /api/admin/audit`: what happened, newest first, a page at a time. */
export const auditRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const { db } = ctx.database;
  app.get(
    "/api/admin/audit",
    {
      config: { access: "admin" },
      schema: {
        tags: ["Administration"],
        summary: "The audit log, newest first: widget actions, integrations saved, changed and deleted",
        description:
          "Kept 90 days. `cursor`: the `nextCursor` of the previous page; an unknown cursor is 404.",
        querystring: AuditQuery,
        response: { 200: Type.Ref(AuditPageSchema), ...errorResponses(403, 404) },
      },
    },
    async (request) => {
      const limit = Number(request.query.limit ?? AUDIT_PAGE_DEFAULT);
      let after: SQL | undefined;
      if (request.query.cursor) {
        const [from] = await db
          .select({ at: auditEvents.at, id: auditEvents.id })
          .from(auditEvents)
          .where(eq(auditEvents.id, request.query.cursor))
          .limit(1);
        if (!from) throw notFound("Audit cursor");
        after = or(
          lt(auditEvents.at, from.at),
          and(eq(auditEvents.at, from.at), lt(auditEvents.id, from.id)),
        );
      }
      const rows = await db
        .select()
        .from(auditEvents)
        .where(after)
        .orderBy(desc(auditEvents.at), desc(auditEvents.id))
        .limit(limit + 1);
      const page = rows.slice(0, limit);
      return {
        events: page.map((row) => ({
          id: row.id,
          at: row.at.toISOString(),
          actor: { id: row.actorId, name: row.actorName },
          action: row.action,
          target: row.target,
          detail: row.detail,
        })),
        nextCursor: rows.length > limit ? page.at(-1)!.id : null,
      };
    },
  );
};
