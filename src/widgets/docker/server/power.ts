import { Type } from "@sinclair/typebox";
import { apiPath, dockerFailure, dockerTime } from "../../../integrations/docker/engine.js";
import { badRequest, notFoundBecause, ProblemError, upstreamTimeout } from "../../../server/http/errors.js";
import { requireActions } from "../../../server/integrations/service.js";
import type { WidgetAction } from "../../../server/widgets/kit.js";
import {
  CONTAINER_HEALTHS,
  CONTAINER_ID_PATTERN,
  CONTAINER_STATES,
  type ContainerHealth,
  type ContainerState,
  type DockerAction,
  type DockerActionResult,
  type DockerConfig,
} from "../contract.js";
import { engineOf, usableDocker } from "./connection.js";
import { forgetContainers, inspectContainer } from "./containers.js";

const PowerInput = Type.Object(
  { containerId: Type.String({ pattern: CONTAINER_ID_PATTERN }) },
  { additionalProperties: false },
);

const WORDS: Record<DockerAction, { done: string; already: string; doing: string }> = {
  start: { done: "Started", already: "was already running", doing: "starting" },
  stop: { done: "Stopped", already: "was already stopped", doing: "stopping" },
  restart: { done: "Restarted", already: "", doing: "restarting" },
};

/**
 * `start`, `stop`, `restart`: Docker's `POST /containers/{id}/<action>` for a container the
 * widget shows, through its owner's integration when an admin allows actions on it. No stop
 * timeout is sent, so the container's own (compose's `stop_grace_period`, 10 s by default)
 * applies, as with `docker stop`. Answers the container's state afterwards; what was kept of the
 * engine's containers is forgotten, so the next read is current.
 */
export function powerAction(action: DockerAction): WidgetAction {
  const words = WORDS[action];
  return {
    input: PowerInput,
    async run({ ctx, config, ownerId, input }) {
      const { integrationId, containers, names } = config as DockerConfig;
      const { containerId } = input as { containerId: string };
      if (!integrationId) throw notFoundBecause("This widget has no Docker integration");
      const integration = await usableDocker(ctx, ownerId, integrationId);
      requireActions(integration);
      const { apiVersion } = await engineOf(ctx, integration);
      const before = await inspectContainer(ctx, integration, apiVersion, containerId);
      if (!before)
        throw notFoundBecause(`${integration.name} has no such container (it may have been removed)`);
      const name = before.Name.replace(/^\//, "");
      if (containers === "names" && !names.includes(name))
        throw badRequest(`${name} is not one of this widget's containers`, [
          { path: "/input/containerId", message: "must be one of the widget's containers" },
        ]);
      let response: Awaited<ReturnType<typeof ctx.integrations.call>>;
      try {
        response = await ctx.integrations.call(integration, {
          path: apiPath(apiVersion, `/containers/${containerId}/${action}`),
          method: "POST",
          what: `${action} ${name}`,
        });
      } catch (error) {
        if (error instanceof ProblemError && error.status === 504)
          throw upstreamTimeout(
            `${integration.name} did not finish ${words.doing} ${name} in time; it may still be ${words.doing} (a container gets its stop timeout, 10 s by default, to exit): the widget shows its state once it has`,
          );
        throw error;
      } finally {
        forgetContainers(ctx, integration);
      }
      const unchanged = response.status === 304;
      if (response.status !== 204 && !unchanged) throw dockerFailure(response, integration.name, "power");
      const after = await inspectContainer(ctx, integration, apiVersion, containerId);
      const state = after?.State.Status.toLowerCase() ?? "unknown";
      const health = after?.State.Health?.Status ?? "";
      const result: DockerActionResult = {
        id: containerId,
        name,
        state: (CONTAINER_STATES as readonly string[]).includes(state)
          ? (state as ContainerState)
          : "unknown",
        health: (CONTAINER_HEALTHS as readonly string[]).includes(health)
          ? (health as ContainerHealth)
          : null,
        startedAt: dockerTime(after?.State.StartedAt),
        unchanged,
      };
      return {
        detail: unchanged
          ? `${name} ${words.already} (${integration.name})`
          : `${words.done} ${name} through ${integration.name}: ${result.state} now`,
        result,
      };
    },
  };
}
