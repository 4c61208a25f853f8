import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import {
  CreateIntegrationBody,
  IntegrationCheckSchema,
  IntegrationKindSchema,
  IntegrationSchema,
  PreviewBody,
  PreviewSchema,
  TestIntegrationBody,
  UpdateIntegrationBody,
} from "../../contract/integrations.js";
import { Uuid } from "../../contract/resources.js";
import type { AppContext } from "../context.js";
import { badRequest } from "../http/errors.js";
import type { RateLimitRule } from "../http/rate-limit.js";
import { errorResponses } from "../http/schemas.js";
import type { UserActor } from "../policies/actor.js";
import { normalizeUrl } from "./address.js";
import { answeredJson } from "./kit.js";
import { fitPreview } from "./preview.js";

const tags = ["Integrations"];
const Params = Type.Object({ id: Uuid });

/** Tests and previews call outside services: each person's calls are budgeted. */
const callBudget: RateLimitRule = {
  name: "integration-calls",
  key: (request) => request.user.id,
  limit: 60,
  windowMs: 60_000,
  detail: "Too many integration tests and previews; wait a minute",
};

/** Saved connections to services (DESIGN section 16). */
export const integrationRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const service = ctx.integrations;
  const actorOf = (request: { actor: unknown }) => request.actor as UserActor;

  app.get(
    "/api/integrations/kinds",
    {
      schema: {
        tags,
        summary: "The kinds of service an integration connects to, with the secrets each takes",
        response: { 200: Type.Array(Type.Ref(IntegrationKindSchema)), ...errorResponses(403) },
      },
    },
    async () => service.kinds(),
  );

  app.get(
    "/api/integrations",
    {
      schema: {
        tags,
        summary: "The caller's integrations, then the instance's (secrets as names only)",
        response: { 200: Type.Array(Type.Ref(IntegrationSchema)), ...errorResponses(403) },
      },
    },
    async (request) => service.list(actorOf(request)),
  );

  app.post(
    "/api/integrations",
    {
      schema: {
        tags,
        summary: "Save a connection to a service",
        description:
          "`owner: instance` (every user may use it), `allowPrivate` and `skipTlsVerify` are for admins (403 otherwise). A private, loopback or link-local address is 400 `address_not_allowed` unless `allowPrivate` is set or the instance's private networks (FETCH_ALLOW_PRIVATE) name it. Secrets are encrypted with the token key and never answered: `secrets` in the answer lists their names.",
        body: CreateIntegrationBody,
        response: { 201: Type.Ref(IntegrationSchema), ...errorResponses(403, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(actorOf(request), request.body)),
  );

  app.post(
    "/api/integrations/test",
    {
      config: { rateLimit: [callBudget] },
      schema: {
        tags,
        summary: "Call a service once and say what was reached or what went wrong",
        description:
          "`{id}` tests a saved integration the caller may use (its `lastCheck` is recorded); `{kind, url, secrets…}` tests one being filled in, checked as its creation would be, nothing saved. A failure of the service is `ok: false` with `detail` in words (refused credentials, not JSON, TLS, unreachable), not an error.",
        body: TestIntegrationBody,
        response: { 200: Type.Ref(IntegrationCheckSchema), ...errorResponses(403, 404, 429) },
      },
    },
    async (request) => service.test(actorOf(request), request.body),
  );

  app.post(
    "/api/integrations/preview",
    {
      config: { rateLimit: [callBudget] },
      schema: {
        tags,
        summary: "The JSON a service answers at a path, for picking values in a widget's settings",
        description:
          "Exactly one of `integrationId` (with an optional `path` below its address) or `url` (a plain address, checked by the address guard). At most 64 KiB comes back: longer lists keep their first items and `truncated` says so. A body that is not JSON is 502.",
        body: PreviewBody,
        response: { 200: Type.Ref(PreviewSchema), ...errorResponses(404, 429, 502, 504) },
      },
    },
    async (request) => {
      const { integrationId, url, path } = request.body;
      if ((integrationId === undefined) === (url === undefined))
        throw badRequest("name an integration or an address", [
          { path: "/integrationId", message: "exactly one of integrationId and url is needed" },
        ]);
      let response: Awaited<ReturnType<typeof service.call>>;
      let label: string;
      if (integrationId !== undefined) {
        const integration = await service.usable(actorOf(request).user.id, integrationId);
        label = integration.name;
        response = await service.call(integration, { path, what: "a preview" });
      } else {
        if (path)
          throw badRequest("path goes with an integration", [{ path: "/path", message: "put it in url" }]);
        const address = normalizeUrl(url!);
        label = address.host;
        response = await ctx.upstream.fetch({ url: address.href, service: address.host, what: "a preview" });
      }
      return { status: response.status, ...fitPreview(answeredJson(response, label)) };
    },
  );

  app.get(
    "/api/integrations/:id",
    {
      schema: {
        tags,
        summary: "One integration the caller may use",
        params: Params,
        response: { 200: Type.Ref(IntegrationSchema), ...errorResponses(403, 404) },
      },
    },
    async (request) => service.get(actorOf(request), request.params.id),
  );

  app.put(
    "/api/integrations/:id",
    {
      schema: {
        tags,
        summary: "Change an integration; only the secrets named change",
        description:
          "The caller's own, or (admins) an instance integration; another's is 404, an instance one for a non-admin 403. Fields left out stay. In `secrets`, a value replaces that secret and null removes it; secrets not named stay as they are. Changing the address or a secret clears `lastCheck`.",
        params: Params,
        body: UpdateIntegrationBody,
        response: { 200: Type.Ref(IntegrationSchema), ...errorResponses(403, 404) },
      },
    },
    async (request) => service.update(actorOf(request), request.params.id, request.body),
  );

  app.delete(
    "/api/integrations/:id",
    {
      schema: {
        tags,
        summary: "Delete an integration; widgets using it say it is gone",
        params: Params,
        response: { 204: Type.Null(), ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await service.remove(actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};

export const INTEGRATION_SCHEMAS = [
  IntegrationSchema,
  IntegrationKindSchema,
  IntegrationCheckSchema,
  PreviewSchema,
];
