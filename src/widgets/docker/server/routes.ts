import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { Uuid } from "../../../contract/resources.js";
import type { AppContext } from "../../../server/context.js";
import { errorResponses } from "../../../server/http/schemas.js";
import type { UserActor } from "../../../server/policies/actor.js";
import { engineOf, usableDocker } from "./connection.js";
import { listContainers, nameOf, stateOf } from "./containers.js";

/** Containers offered at most: a picker, not an inventory. */
const CHOICES_MAX = 1000;

const ContainerChoice = Type.Object({
  name: Type.String(),
  image: Type.Union([Type.String(), Type.Null()]),
  state: Type.String(),
});

/**
 * The containers of a Docker integration, for the widget's settings to pick names from: one list
 * call (kept five seconds, as the widget's), answered small (name, image, state) and by name.
 */
export const dockerRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  app.get(
    "/api/docker/containers",
    {
      schema: {
        tags: ["Widgets"],
        summary: "The containers of a Docker integration the caller may use, to pick from",
        description: `At most ${CHOICES_MAX}, by name. 404 for an integration the caller may not use or of another kind; 502 when Docker or its socket proxy refuses.`,
        querystring: Type.Object({ integrationId: Uuid }),
        response: { 200: Type.Array(ContainerChoice), ...errorResponses(404, 502, 504) },
      },
    },
    async (request) => {
      const actor = request.actor as UserActor;
      const integration = await usableDocker(ctx, actor.user.id, request.query.integrationId);
      const { apiVersion } = await engineOf(ctx, integration);
      const listed = await listContainers(ctx, integration, apiVersion);
      return listed
        .map((c) => ({
          name: nameOf(c),
          image: c.Image ? c.Image.slice(0, 200) : null,
          state: stateOf(c.State),
        }))
        .sort((a, b) => a.name.localeCompare(b.name, "en"))
        .slice(0, CHOICES_MAX);
    },
  );
};
