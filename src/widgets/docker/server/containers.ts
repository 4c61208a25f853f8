import {
  apiPath,
  ContainerInspect,
  ContainerList,
  ContainerStats,
  cpuPercent,
  dockerFailure,
  dockerTime,
  type InspectedContainer,
  type ListedContainer,
  memoryUsed,
} from "../../../integrations/docker/engine.js";
import type { AppContext } from "../../../server/context.js";
import type { UsableIntegration } from "../../../server/integrations/types.js";
import { jsonOf } from "../../../server/upstream/source.js";
import type { CachePolicy } from "../../../server/upstream/upstream.js";
import {
  CONTAINER_HEALTHS,
  CONTAINER_STATES,
  type ContainerHealth,
  type ContainerState,
  DOCKER_CONTAINERS_MAX,
  DOCKER_STATS_MAX,
  type DockerContainer,
  type DockerData,
  type DockerQuery,
} from "../contract.js";
import { appOf } from "./apps.js";
import { connectionKey, engineOf, usableDocker } from "./connection.js";
import { inParallel } from "./parallel.js";

/**
 * Kept briefly per engine, so widgets of the same integration and a crowd of viewers share one
 * call. A container's state must not look current when it is not: no stale answers stand in.
 */
export const DOCKER_LIST: CachePolicy = {
  kind: "docker-containers",
  fresh: 5_000,
  failuresRemembered: true,
  staleIfError: false,
};
/** Keyed by the list's status words too, which change with the state and the healthcheck. */
export const DOCKER_INSPECT: CachePolicy = {
  kind: "docker-inspect",
  fresh: 10_000,
  failuresRemembered: true,
  staleIfError: false,
};
export const DOCKER_STATS: CachePolicy = {
  kind: "docker-stats",
  fresh: 15_000,
  failuresRemembered: true,
  staleIfError: false,
};

/** Calls to one engine at once for one load. */
const PARALLEL = 6;
/** A stats sample takes the daemon one or two seconds (two collection cycles). */
const STATS_TIMEOUT_MS = 5_000;
/** No stats call starts after this long: the rest are asked on the next load. */
const STATS_BUDGET_MS = 8_000;
const STATUS_MAX = 100;
const NAME_MAX = 128;

export const nameOf = (listed: ListedContainer) =>
  (listed.Names?.[0] ?? listed.Id.slice(0, 12)).replace(/^\//, "").slice(0, NAME_MAX);

export const stateOf = (value: string | undefined): ContainerState => {
  const state = value?.toLowerCase();
  return (CONTAINER_STATES as readonly string[]).includes(state ?? "")
    ? (state as ContainerState)
    : "unknown";
};

const healthOf = (value: string | undefined): ContainerHealth | null =>
  (CONTAINER_HEALTHS as readonly string[]).includes(value ?? "") ? (value as ContainerHealth) : null;

/** Every container of the engine (`all=true`: stopped ones too), kept five seconds. */
export async function listContainers(ctx: AppContext, integration: UsableIntegration, apiVersion: string) {
  return ctx.upstream.cached(DOCKER_LIST, connectionKey(integration), async () => {
    const response = await ctx.integrations.call(integration, {
      path: apiPath(apiVersion, "/containers/json"),
      query: { all: "true" },
      what: "the containers",
    });
    if (response.status !== 200) throw dockerFailure(response, integration.name, "read");
    return ContainerList.parse(jsonOf(response), response);
  });
}

/** The state, health and times of one container; null when it went away since the list. */
export async function inspectContainer(
  ctx: AppContext,
  integration: UsableIntegration,
  apiVersion: string,
  id: string,
): Promise<InspectedContainer | null> {
  const response = await ctx.integrations.call(integration, {
    path: apiPath(apiVersion, `/containers/${id}/json`),
    what: "a container",
  });
  if (response.status === 404) return null;
  if (response.status !== 200) throw dockerFailure(response, integration.name, "read");
  return ContainerInspect.parse(jsonOf(response), response);
}

type Stats = NonNullable<DockerContainer["stats"]>;

/** One sample (`stream=false`, so the previous one is filled in and CPU % can be computed). */
async function sampleStats(
  ctx: AppContext,
  integration: UsableIntegration,
  apiVersion: string,
  id: string,
): Promise<Stats> {
  const response = await ctx.integrations.call(integration, {
    path: apiPath(apiVersion, `/containers/${id}/stats`),
    query: { stream: "false" },
    what: "a container's stats",
    timeoutMs: STATS_TIMEOUT_MS,
  });
  if (response.status !== 200) throw dockerFailure(response, integration.name, "read");
  const sample = ContainerStats.parse(jsonOf(response), response);
  return {
    cpuPercent: cpuPercent(sample),
    memoryBytes: memoryUsed(sample),
    memoryLimitBytes: sample.memory_stats.limit ?? null,
  };
}

/** A container as the widget shows it, from the list and (when it answered) its inspection. */
function shown(
  listed: ListedContainer,
  inspected: InspectedContainer | null,
  withApp: boolean,
): DockerContainer {
  const state = inspected?.State;
  return {
    id: listed.Id,
    name: nameOf(listed),
    image: listed.Image ? listed.Image.slice(0, 200) : null,
    state: stateOf(state?.Status ?? listed.State),
    status: listed.Status ? listed.Status.slice(0, STATUS_MAX) : null,
    health: healthOf(state?.Health?.Status),
    startedAt: dockerTime(state?.StartedAt),
    finishedAt: dockerTime(state?.FinishedAt),
    exitCode: typeof state?.ExitCode === "number" && Number.isInteger(state.ExitCode) ? state.ExitCode : null,
    stats: null,
    app: withApp ? appOf(listed.Labels) : null,
    found: true,
  };
}

const missing = (name: string): DockerContainer => ({
  id: "",
  name,
  image: null,
  state: "unknown",
  status: null,
  health: null,
  startedAt: null,
  finishedAt: null,
  exitCode: null,
  stats: null,
  app: null,
  found: false,
});

/**
 * The containers a widget shows: named ones in the config's order (a name the engine lacks is a
 * row that says so), or every one by name; as app tiles, only those whose labels name an app
 * (or, when named, each with its name). Cut to DOCKER_CONTAINERS_MAX; each is inspected for its
 * health and times, and running ones sampled for CPU and memory when the list shows stats.
 */
export function dockerSource(ctx: AppContext) {
  return async function load(query: DockerQuery, ownerId: string): Promise<DockerData> {
    const integration = await usableDocker(ctx, ownerId, query.integrationId);
    const { apiVersion, engine } = await engineOf(ctx, integration);
    const listed = await listContainers(ctx, integration, apiVersion);
    const apps = query.display === "apps";
    let chosen: (ListedContainer | string)[];
    if (query.names) {
      const byName = new Map(listed.map((c) => [nameOf(c), c]));
      chosen = query.names.map((name) => byName.get(name) ?? name);
    } else {
      chosen = listed
        .filter((c) => !apps || appOf(c.Labels) !== null)
        .sort((a, b) => nameOf(a).localeCompare(nameOf(b), "en"));
    }
    const total = chosen.length;
    chosen = chosen.slice(0, DOCKER_CONTAINERS_MAX);
    const key = connectionKey(integration);

    const containers = await inParallel(chosen, PARALLEL, async (item) => {
      if (typeof item === "string") return missing(item);
      let inspected: InspectedContainer | null = null;
      try {
        inspected = await ctx.upstream.cached(DOCKER_INSPECT, `${key}|${item.Id}|${item.Status ?? ""}`, () =>
          inspectContainer(ctx, integration, apiVersion, item.Id),
        );
      } catch {
        // The list still says its state; only the health and times are missing.
      }
      const container = shown(item, inspected, apps);
      // Named as tiles without labels of their own: a tile under the container's name.
      if (apps && !container.app)
        container.app = { name: container.name, url: null, icon: null, group: null, description: null };
      return container;
    });

    if (query.stats) {
      const started = performance.now();
      const running = containers.filter((c) => c.state === "running").slice(0, DOCKER_STATS_MAX);
      await inParallel(running, PARALLEL, async (container) => {
        if (performance.now() - started > STATS_BUDGET_MS) return;
        try {
          container.stats = await ctx.upstream.cached(DOCKER_STATS, `${key}|${container.id}`, () =>
            sampleStats(ctx, integration, apiVersion, container.id),
          );
        } catch {
          // A container whose sample failed or stalled shows no figures; the others still do.
        }
      });
    }
    return { containers, total, engine, actions: integration.allowActions };
  };
}

/** Forgets what was kept of the engine's containers: after an action, the next read is current. */
export function forgetContainers(ctx: AppContext, integration: UsableIntegration) {
  const key = connectionKey(integration);
  ctx.upstream.invalidate(DOCKER_LIST, key);
  ctx.upstream.invalidate(DOCKER_INSPECT, key);
  ctx.upstream.invalidate(DOCKER_STATS, key);
}
