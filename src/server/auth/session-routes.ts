import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { and, desc, eq, gt } from "drizzle-orm";
import { DeviceSessionSchema } from "../../contract/operators.js";
import type { AppContext } from "../context.js";
import { session } from "../db/schema.js";
import { notFound } from "../http/errors.js";
import { errorResponses } from "../http/schemas.js";
import type { SessionActor } from "../policies/actor.js";

const tags = ["Account"];
const SessionIdQuery = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/** The user's signed-in devices (DESIGN section 12); API keys cannot see or end them. */
export const sessionRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const { db } = ctx.database;

  app.get(
    "/api/sessions",
    {
      config: { access: "session" },
      schema: {
        tags,
        summary: "The devices signed in as the caller, most recently active first",
        response: { 200: Type.Array(Type.Ref(DeviceSessionSchema)), ...errorResponses(403) },
      },
    },
    async (request) => {
      const current = (request.actor as SessionActor).session.id;
      const rows = await db
        .select()
        .from(session)
        .where(and(eq(session.userId, request.user.id), gt(session.expiresAt, new Date(ctx.clock()))))
        .orderBy(desc(session.updatedAt));
      return rows.map((row) => ({
        id: row.id,
        current: row.id === current,
        userAgent: row.userAgent,
        ipAddress: row.ipAddress,
        createdAt: row.createdAt.toISOString(),
        lastActiveAt: row.updatedAt.toISOString(),
        expiresAt: row.expiresAt.toISOString(),
      }));
    },
  );

  app.delete(
    "/api/sessions",
    {
      config: { access: "session" },
      schema: {
        tags,
        summary: "Sign one of the caller's devices out",
        querystring: SessionIdQuery,
        response: { 204: Type.Null(), ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      const removed = await db
        .delete(session)
        .where(and(eq(session.id, request.query.id), eq(session.userId, request.user.id)))
        .returning({ id: session.id });
      if (removed.length === 0) throw notFound("Session");
      await ctx.sessions.revokeUser(request.user.id);
      return reply.code(204).send(null);
    },
  );
};
