import { Type } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { badRequest, notFoundBecause } from "../../../server/http/errors.js";
import { answeredJson } from "../../../server/integrations/kit.js";
import { requireActions } from "../../../server/integrations/service.js";
import type { WidgetAction } from "../../../server/widgets/kit.js";
import {
  domainOf,
  ENTITY_ID_MAX,
  ENTITY_ID_PATTERN,
  type HomeAssistantConfig,
  type HomeAssistantToggleResult,
  isTogglable,
  TOGGLABLE_DOMAINS,
} from "../contract.js";
import { refusals } from "./refusals.js";
import { fetchState, forgetStates, type HaState, isoOf, usableHomeAssistant } from "./states.js";

const ToggleInput = Type.Object(
  { entityId: Type.String({ pattern: ENTITY_ID_PATTERN, maxLength: ENTITY_ID_MAX }) },
  { additionalProperties: false },
);

/** HA answers the states that changed during the call: any entity's, so ours is looked for. */
const ChangedStates = TypeCompiler.Compile(
  Type.Array(Type.Object({ entity_id: Type.String(), state: Type.String() })),
);

/**
 * `toggle`: Home Assistant's `<domain>/toggle` service for one of the widget's own entities, of a
 * domain whose toggle flips on and off, through the widget owner's integration when an admin has
 * allowed actions on it. Answers the entity's state after the call; the states kept for the
 * integration are forgotten, so the next read shows what changed.
 */
export const toggleAction: WidgetAction = {
  input: ToggleInput,
  async run({ ctx, config, ownerId, input }) {
    const { integrationId, entities } = config as HomeAssistantConfig;
    const { entityId } = input as { entityId: string };
    if (!entities.some((e) => e.entityId === entityId))
      throw badRequest(`${entityId} is not one of this widget's entities`, [
        { path: "/input/entityId", message: "must be one of the widget's entities" },
      ]);
    if (!isTogglable(entityId))
      throw badRequest(`${entityId} cannot be switched from a dashboard`, [
        {
          path: "/input/entityId",
          message: `must be of a domain that toggles: ${TOGGLABLE_DOMAINS.join(", ")}`,
        },
      ]);
    if (!integrationId) throw notFoundBecause("This widget has no Home Assistant integration");
    const integration = await usableHomeAssistant(ctx, ownerId, integrationId);
    requireActions(integration);
    const memory = refusals(ctx);
    memory.check(integration);
    const domain = domainOf(entityId);
    const response = await ctx.integrations.call(integration, {
      path: `/api/services/${domain}/toggle`,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ entity_id: entityId }),
      what: `the ${domain}.toggle service`,
    });
    memory.judge(integration, response);
    const changed = answeredJson(response, integration.name);
    forgetStates(ctx, integration.id);
    // A device that reports its new state after the call returned is not in the answer: ask once.
    const own = ChangedStates.Check(changed) ? changed.find((s) => s.entity_id === entityId) : undefined;
    const after: HaState | null = own ? (own as HaState) : await fetchState(ctx, integration, entityId);
    const result: HomeAssistantToggleResult = {
      entityId,
      state: after?.state ?? null,
      lastChanged: isoOf(after?.last_changed),
    };
    return {
      detail: `Toggled ${entityId} through ${integration.name}: ${result.state ?? "unknown"} now`,
      result,
    };
  },
};
