import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { ApiKeySchema, CreateApiKeyBody, CreatedApiKeySchema } from "../../contract/operators.js";
import type { AppContext } from "../context.js";
import { notFound } from "../http/errors.js";
import { errorResponses } from "../http/schemas.js";

const tags = ["API keys"];
const KeyIdQuery = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
// Keys never manage keys (DESIGN section 9).
const session = { access: "session" } as const;

export const apiKeyRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const { keys } = ctx;

  app.post(
    "/api/keys",
    {
      config: session,
      schema: {
        tags,
        summary: "Create an API key for scripts (the key is in this answer only)",
        body: CreateApiKeyBody,
        response: { 201: Type.Ref(CreatedApiKeySchema), ...errorResponses(403, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await keys.create(request.user.id, request.body)),
  );

  app.get(
    "/api/keys",
    {
      config: session,
      schema: {
        tags,
        summary: "The caller's API keys, without the keys themselves",
        response: { 200: Type.Array(Type.Ref(ApiKeySchema)), ...errorResponses(403) },
      },
    },
    async (request) => keys.list(request.user.id),
  );

  app.delete(
    "/api/keys",
    {
      config: session,
      schema: {
        tags,
        summary: "Revoke an API key, at once, on every instance",
        querystring: KeyIdQuery,
        response: { 204: Type.Null(), ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      if (!(await keys.revoke(request.user.id, request.query.id))) throw notFound("API key");
      // Realtime streams opened with the key re-check it and end.
      await ctx.sessions.revokeUser(request.user.id);
      return reply.code(204).send(null);
    },
  );
};
