import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { and, eq, inArray } from "drizzle-orm";
import { ProviderStatusSchema } from "../../contract/data.js";
import { PROVIDER_LABELS, PROVIDERS } from "../../contract/providers.js";
import type { AppContext } from "../context.js";
import { account } from "../db/schema.js";
import { errorResponses } from "../http/schemas.js";
import { callbackRoutes } from "./callback.js";
import { createProviderServices } from "./client.js";
import { codehostRoutes } from "./codehost/routes.js";
import { connectRoutes } from "./connect.js";
import { notesRoutes } from "./notes/routes.js";
import { isConfigured } from "./registry.js";
import { suiteRoutes } from "./suite/routes.js";
import { expiresSoon } from "./tokens.js";

/** Connected-account data for widgets, under /api/providers (DESIGN sections 3 and 6). */
export const providerRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  // The callback is reached by the provider's redirect and judged by better-auth, not our guard.
  await app.register(callbackRoutes, ctx);
  await app.register(signedInRoutes, ctx);
};

const signedInRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const services = createProviderServices(ctx);

  app.get(
    "/api/providers",
    {
      schema: {
        tags: ["Providers"],
        summary: "The three providers: configured on this server, connected by the user",
        response: { 200: Type.Array(ProviderStatusSchema), ...errorResponses() },
      },
    },
    async (request) => {
      const rows = await ctx.database.db
        .select()
        .from(account)
        .where(and(eq(account.userId, request.user.id), inArray(account.providerId, [...PROVIDERS])));
      return PROVIDERS.map((provider) => {
        const row = rows.find((r) => r.providerId === provider);
        return {
          provider,
          label: PROVIDER_LABELS[provider],
          configured: isConfigured(ctx.config, provider),
          connected: row !== undefined,
          reconnectRequired:
            row !== undefined && (!row.accessToken || (expiresSoon(row) && !row.refreshToken)),
        };
      });
    },
  );

  await app.register(connectRoutes, ctx);
  await app.register(suiteRoutes, services);
  await app.register(codehostRoutes, services);
  await app.register(notesRoutes, services);
};
