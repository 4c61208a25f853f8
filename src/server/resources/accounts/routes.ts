import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { AccountSchema, ProviderSchema, UpdateAccountBody } from "../../../contract/resources.js";
import type { AppContext } from "../../context.js";
import { notConnected } from "../../http/errors.js";
import { errorResponses } from "../../http/schemas.js";
import { listAccounts, storeRefreshToken, unlinkAccount } from "./queries.js";

const tags = ["Accounts"];

export const accountRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const { db } = ctx.database;

  app.get(
    "/api/accounts",
    {
      schema: {
        tags,
        summary: "The user's connected OAuth accounts (tokens are always null)",
        response: { 200: Type.Array(Type.Ref(AccountSchema)), ...errorResponses() },
      },
    },
    async (request) => listAccounts(db, request.user.id),
  );

  app.put(
    "/api/accounts",
    {
      // Connecting and disconnecting providers is for people, not API keys (DESIGN section 9).
      config: { access: "session" },
      schema: {
        tags,
        summary: "Store a new refresh token for a connected account",
        body: UpdateAccountBody,
        response: { 200: Type.Ref(AccountSchema), ...errorResponses(404, 413, 415) },
      },
    },
    async (request) => {
      const { provider, refreshToken } = request.body;
      const updated = await storeRefreshToken(db, ctx.cipher, request.user.id, provider, refreshToken);
      if (!updated) throw notConnected(provider);
      return updated;
    },
  );

  app.delete(
    "/api/accounts",
    {
      config: { access: "session" },
      schema: {
        tags,
        summary: "Disconnect a provider; widgets that depend on it stop showing its data",
        querystring: Type.Object({ provider: ProviderSchema }),
        response: { 200: Type.Ref(AccountSchema), ...errorResponses(404) },
      },
    },
    async (request) => {
      const { provider } = request.query;
      const removed = await unlinkAccount(db, request.user.id, provider);
      if (!removed) throw notConnected(provider);
      return removed;
    },
  );
};
