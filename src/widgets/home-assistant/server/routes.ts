import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { Uuid } from "../../../contract/resources.js";
import type { AppContext } from "../../../server/context.js";
import { errorResponses } from "../../../server/http/schemas.js";
import { answeredJson } from "../../../server/integrations/kit.js";
import type { UserActor } from "../../../server/policies/actor.js";
import { defineSource } from "../../../server/upstream/source.js";
import type { CachePolicy } from "../../../server/upstream/upstream.js";
import { domainOf, isEntityId } from "../contract.js";
import { connectionKey, refusals } from "./refusals.js";
import { usableHomeAssistant } from "./states.js";

/** Entities offered at most: a picker, not an inventory. */
const ENTITIES_MAX = 5000;

const ENTITY_LIST: CachePolicy = {
  kind: "homeassistant-entities",
  fresh: 60_000,
  failuresRemembered: true,
  staleIfError: false,
};

const AllStates = defineSource(
  Type.Array(
    Type.Object({
      entity_id: Type.String(),
      state: Type.String(),
      attributes: Type.Record(Type.String(), Type.Unknown()),
    }),
  ),
);

const EntityChoice = Type.Object({
  entityId: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  domain: Type.String(),
  state: Type.String(),
  unit: Type.Union([Type.String(), Type.Null()]),
});

/**
 * The entities of a Home Assistant integration, for the widget's settings to pick from: every
 * entity in one `GET /api/states` (once a minute at most per integration), answered small (id,
 * name, state, unit) and sorted by id. The preview route would cut a large house to fit 64 KiB.
 */
export const homeAssistantRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  app.get(
    "/api/home-assistant/entities",
    {
      schema: {
        tags: ["Widgets"],
        summary: "The entities of a Home Assistant integration the caller may use, to pick from",
        description: `At most ${ENTITIES_MAX}, sorted by entity id. 404 for an integration the caller may not use or of another kind; 502 when Home Assistant refuses the token (then it is not asked again with that token for an hour).`,
        querystring: Type.Object({ integrationId: Uuid }),
        response: { 200: Type.Array(EntityChoice), ...errorResponses(404, 502, 504) },
      },
    },
    async (request) => {
      const actor = request.actor as UserActor;
      const integration = await usableHomeAssistant(ctx, actor.user.id, request.query.integrationId);
      const memory = refusals(ctx);
      memory.check(integration);
      return ctx.upstream.cached(ENTITY_LIST, connectionKey(integration), async () => {
        const response = await ctx.integrations.call(integration, {
          path: "/api/states",
          what: "its entities",
        });
        memory.judge(integration, response);
        const states = AllStates.parse(answeredJson(response, integration.name), response);
        return states
          .filter((s) => isEntityId(s.entity_id))
          .sort((a, b) => (a.entity_id < b.entity_id ? -1 : a.entity_id > b.entity_id ? 1 : 0))
          .slice(0, ENTITIES_MAX)
          .map((s) => ({
            entityId: s.entity_id,
            name:
              typeof s.attributes.friendly_name === "string"
                ? s.attributes.friendly_name.slice(0, 200)
                : null,
            domain: domainOf(s.entity_id),
            state: s.state.slice(0, 100),
            unit:
              typeof s.attributes.unit_of_measurement === "string"
                ? s.attributes.unit_of_measurement.slice(0, 40)
                : null,
          }));
      });
    },
  );
};
