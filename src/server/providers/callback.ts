import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import type { FastifyReply } from "fastify";
import { ProblemSchema, ProviderSchema } from "../../contract/resources.js";
import type { AppContext } from "../context.js";
import { problemBody } from "../http/errors.js";

const Param = Type.Optional(Type.String({ maxLength: 4096 }));

/**
 * The provider's redirect back to us. better-auth does all the work (state and PKCE checks,
 * code exchange, linking to the user named in the state); this route exists so the callback is
 * a documented part of the API instead of hiding in the /api/auth/* catch-all.
 */
export const callbackRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const origin = new URL(ctx.config.baseUrl).origin;

  app.get(
    "/api/auth/callback/:provider",
    {
      exposeHeadRoute: false,
      // Reached by the provider's redirect and judged by better-auth (state cookie, PKCE).
      config: { access: "public" },
      schema: {
        tags: ["Providers"],
        summary: "OAuth callback of the connect flow (the provider redirects the browser here)",
        description:
          "Checks the state against the browser's signed state cookie, exchanges the code with the PKCE verifier, links the provider account to the user who started the flow, stores the tokens encrypted and redirects to the `returnTo` of `/api/providers/{provider}/connect` (with `connected={provider}`, or `connect={provider}&error={code}`). Register `{BASE_URL}/api/auth/callback/{provider}` as the redirect URI at each provider. For single sign-on (`oidc`) the same flow signs the user in (or creates their account when allowed) and redirects to the `callbackURL` given to `POST /api/auth/sign-in/social`, or to its `errorCallbackURL` with `error={code}`.",
        security: [],
        // `oidc` is single sign-on's (auth/sso.ts): same flow, and it signs the user in.
        params: Type.Object({
          provider: Type.Union([ProviderSchema, Type.Literal("oidc", { description: "single sign-on" })]),
        }),
        querystring: Type.Object({
          code: Param,
          state: Param,
          error: Param,
          error_description: Param,
          iss: Param,
        }),
        response: {
          302: Type.Null({ description: "to returnTo, or to the error page" }),
          400: Type.Ref(ProblemSchema),
        },
      },
    },
    async (request, typedReply) => {
      // The status is better-auth's (302 normally); the schema above documents, it does not decide.
      const reply = typedReply as unknown as FastifyReply;
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (value === undefined || name === "content-length") continue;
        for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
      }
      const response = await ctx.auth.handler(new Request(new URL(request.url, origin), { headers }));
      reply.code(response.status).header("cache-control", "no-store");
      const location = response.headers.get("location");
      if (location) reply.header("location", location);
      for (const cookie of response.headers.getSetCookie()) reply.header("set-cookie", cookie);
      if (response.status >= 400) {
        return reply
          .type("application/problem+json")
          .send(
            problemBody(response.status, "auth_callback_failed", "The provider callback was not accepted"),
          );
      }
      return reply.send();
    },
  );
};
