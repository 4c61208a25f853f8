import { type Static, Type } from "@sinclair/typebox";
import type { AppContext } from "../../../server/context.js";
import { notFoundBecause, ProblemError } from "../../../server/http/errors.js";
import { answeredJson } from "../../../server/integrations/kit.js";
import type { UsableIntegration } from "../../../server/integrations/types.js";
import { defineSource } from "../../../server/upstream/source.js";
import type { CachePolicy } from "../../../server/upstream/upstream.js";
import {
  domainOf,
  type HomeAssistantData,
  type HomeAssistantEntityState,
  type HomeAssistantQuery,
  isTogglable,
} from "../contract.js";
import { connectionKey, refusals } from "./refusals.js";

/**
 * One entity's state per call (`GET /api/states/<id>`), not `GET /api/states` filtered here: the
 * latter is every entity of the house, megabytes on a large install (past what the upstream layer
 * reads from a home server) for the handful a widget shows. A widget has at most 30, asked a few
 * at a time, and each state is kept briefly per integration and entity, so widgets showing the
 * same light share one call and a crowd of viewers costs nothing more.
 */
export const HA_STATES: CachePolicy = {
  kind: "homeassistant-state",
  fresh: 10_000,
  // Home Assistant is at home, on a small machine: a failure is not asked again by every viewer.
  failuresRemembered: true,
  // A light shown "on" that is off would be wrong, not stale.
  staleIfError: false,
};

/** Calls to one Home Assistant at once for one widget. */
const PARALLEL = 4;
const STATE_MAX = 255;

const HaState = defineSource(
  Type.Object({
    entity_id: Type.String(),
    state: Type.String(),
    attributes: Type.Record(Type.String(), Type.Unknown()),
    last_changed: Type.Optional(Type.String()),
  }),
);
export type HaState = Static<typeof HaState.schema>;

/** HA's "2026-11-27T20:01:02.123456+00:00" as ISO 8601 UTC with milliseconds; null when unreadable. */
export function isoOf(value: string | undefined): string | null {
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

const text = (value: unknown, max = 200) => (typeof value === "string" && value ? value.slice(0, max) : null);

/** What a widget shows of a state: only these attributes, never the rest (tokens, locations, pictures). */
export function shownState(entityId: string, state: HaState | null): HomeAssistantEntityState {
  return {
    entityId,
    domain: domainOf(entityId),
    friendlyName: text(state?.attributes.friendly_name),
    state: state ? state.state.slice(0, STATE_MAX) : null,
    unit: text(state?.attributes.unit_of_measurement, 40),
    deviceClass: text(state?.attributes.device_class, 40),
    lastChanged: isoOf(state?.last_changed),
    togglable: isTogglable(entityId),
    found: state !== null,
  };
}

/**
 * `fn` for each item, `limit` at a time, in order. The first goes alone: a refused token then
 * costs one refused call, not `limit` of them at once (each counts towards HA's ban). After a
 * failure no further item is started.
 */
async function inTurns<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  if (items.length === 0) return results;
  results[0] = await fn(items[0]!);
  let next = 1;
  let failed = false;
  const worker = async () => {
    while (next < items.length && !failed) {
      const at = next++;
      try {
        results[at] = await fn(items[at]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length - 1) }, worker));
  return results;
}

/** The integration the widget's owner may use, of this kind; gone or not theirs is a 404 that says so. */
export async function usableHomeAssistant(ctx: AppContext, ownerId: string, integrationId: string) {
  try {
    return await ctx.integrations.usable(ownerId, integrationId, "homeassistant");
  } catch (error) {
    if (error instanceof ProblemError && error.status === 404)
      throw notFoundBecause("This Home Assistant integration is gone or not yours");
    throw error;
  }
}

/** One entity's state from Home Assistant (null: it has no such entity), without the cache. */
export async function fetchState(
  ctx: AppContext,
  integration: UsableIntegration,
  entityId: string,
): Promise<HaState | null> {
  const memory = refusals(ctx);
  memory.check(integration);
  const response = await ctx.integrations.call(integration, {
    path: `/api/states/${entityId}`,
    what: `the state of ${entityId}`,
  });
  memory.judge(integration, response);
  if (response.status === 404) return null;
  return HaState.parse(answeredJson(response, integration.name), response);
}

/** The states a Home Assistant widget shows, in its order, through its owner's integration. */
export function homeAssistantSource(ctx: AppContext) {
  return async function load(query: HomeAssistantQuery, ownerId: string): Promise<HomeAssistantData> {
    const integration = await usableHomeAssistant(ctx, ownerId, query.integrationId);
    // A refused token is not asked again, whatever the cache holds.
    refusals(ctx).check(integration);
    const entities = await inTurns(query.entityIds, PARALLEL, (entityId) =>
      ctx.upstream.cached(HA_STATES, `${connectionKey(integration)}|${entityId}`, async () =>
        shownState(entityId, await fetchState(ctx, integration, entityId)),
      ),
    );
    return { entities, actions: integration.allowActions };
  };
}

/** Forgets every state of the integration: a toggle may change more than its own entity (groups). */
export function forgetStates(ctx: AppContext, integrationId: string) {
  ctx.upstream.invalidate(HA_STATES, `${integrationId}|`);
}
