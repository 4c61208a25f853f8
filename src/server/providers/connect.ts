import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { isAPIError } from "better-auth/api";
import { ProviderSchema } from "../../contract/resources.js";
import { assertSameOrigin } from "../auth/plugin.js";
import type { AppContext } from "../context.js";
import { badRequest, providerNotConfigured, unauthenticated } from "../http/errors.js";
import { errorResponses } from "../http/schemas.js";
import { isConfigured } from "./registry.js";

/** Same-origin relative paths only: no scheme, no `//host`, no backslashes browsers read as slashes. */
const RETURN_TO = "^/(?![/\\\\])[!#-\\[\\]-~]{0,500}$";

/** Where the browser lands after the provider: our own page, with the outcome in the query. */
function landing(baseUrl: string, returnTo: string, outcome: Record<string, string>): string {
  const origin = new URL(baseUrl).origin;
  const url = new URL(returnTo, origin);
  if (url.origin !== origin) throw badRequest("returnTo must be a path on this site");
  for (const [k, v] of Object.entries(outcome)) url.searchParams.set(k, v);
  return url.toString();
}

/**
 * Starts linking a provider to the signed-in user: better-auth's link-social creates the state
 * (bound to this session by a signed cookie) and the PKCE verifier, and we redirect the browser
 * to the provider. The provider returns to /api/auth/callback/<provider>, where better-auth
 * exchanges the code and links the account to the user the state names; the browser then lands
 * on returnTo with `connected=<provider>`, or with `connect=<provider>&error=<code>`.
 */
export const connectRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const origin = new URL(ctx.config.baseUrl).origin;

  app.get(
    "/api/providers/:provider/connect",
    {
      exposeHeadRoute: false,
      schema: {
        tags: ["Providers"],
        summary: "Start connecting a provider account (OAuth authorization code with PKCE); redirects",
        description:
          "Open in the browser. Answers 302 to the provider's authorization page. The provider redirects back to `/api/auth/callback/{provider}`, which links the account to the signed-in user and redirects to `returnTo` with `connected={provider}`, or with `connect={provider}&error={code}` when linking failed.",
        params: Type.Object({ provider: ProviderSchema }),
        querystring: Type.Object({
          returnTo: Type.Optional(
            Type.String({ pattern: RETURN_TO, description: "a path on this site; default /" }),
          ),
        }),
        response: {
          302: Type.Null({ description: "to the provider's authorization page" }),
          ...errorResponses(403, 404),
        },
      },
    },
    async (request, reply) => {
      assertSameOrigin(request, origin);
      const { provider } = request.params;
      if (!isConfigured(ctx.config, provider)) {
        throw providerNotConfigured(provider);
      }
      const returnTo = request.query.returnTo ?? "/";
      const headers = new Headers();
      if (request.headers.cookie) headers.set("cookie", request.headers.cookie);
      if (request.headers.authorization) headers.set("authorization", request.headers.authorization);
      const started = await ctx.auth.api
        .linkSocialAccount({
          body: {
            provider,
            callbackURL: landing(ctx.config.baseUrl, returnTo, { connected: provider }),
            errorCallbackURL: landing(ctx.config.baseUrl, returnTo, { connect: provider }),
            disableRedirect: true,
          },
          headers,
          returnHeaders: true,
        })
        .catch((error: unknown) => {
          if (isAPIError(error) && error.statusCode === 401) throw unauthenticated();
          throw error;
        });
      for (const cookie of started.headers.getSetCookie()) reply.header("set-cookie", cookie);
      reply.header("cache-control", "no-store");
      return reply.redirect(started.response.url, 302);
    },
  );
};
