import type { Static, TSchema } from "@sinclair/typebox";
import { Type } from "../../contract/typebox.js";
import { defineWidgetType } from "../../contract/widget-kit/define.js";
import { Matching, OneOf } from "../../contract/widget-kit/fields.js";
import type { RepairKeywords } from "../../contract/widget-kit/parse.js";

/**
 * The Docker widget (DESIGN section 16): the containers of a saved `docker` integration, as a
 * list (state, health, uptime, CPU, memory) or as app tiles found from their labels
 * (`tessera.*`, or Homepage's `homepage.*` that people already set); editors may start, stop and
 * restart containers when an admin allows actions on the integration.
 */

/** A widget shows at most this many containers: a host with more is a page, not a widget. */
export const DOCKER_CONTAINERS_MAX = 200;
/**
 * Stats are asked of at most this many running containers per load: each sample takes the
 * daemon a second or two, so a host of hundreds would keep a widget loading for minutes.
 */
export const DOCKER_STATS_MAX = 40;
export const REFRESH_SECONDS_MIN = 10;
export const REFRESH_SECONDS_MAX = 3600;
export const REFRESH_SECONDS_DEFAULT = 30;

/** Docker's own rule for container names (`validContainerNamePattern`), without the leading "/". */
export const CONTAINER_NAME_PATTERN = "^[a-zA-Z0-9][a-zA-Z0-9_.-]+$";
export const CONTAINER_NAME_MAX = 128;
const containerNameExpression = new RegExp(CONTAINER_NAME_PATTERN);
export const isContainerName = (value: string) =>
  value.length <= CONTAINER_NAME_MAX && containerNameExpression.test(value);
/** "/jellyfin " as `docker ps` or an inspect shows it: the name Docker matches. */
export const containerNameOf = (input: string) => input.trim().replace(/^\//, "");

/** A container's full id, as the list answers it: actions name a container by it. */
export const CONTAINER_ID_PATTERN = "^[a-f0-9]{64}$";

export const DOCKER_DISPLAYS = ["list", "apps"] as const;
export type DockerDisplay = (typeof DOCKER_DISPLAYS)[number];
export const DOCKER_FILTERS = ["all", "names"] as const;

const UUID = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

const nameKeywords: RepairKeywords = { clean: (s) => containerNameOf(s) || undefined };

export const DockerConfig = Type.Object({
  /** A saved integration of kind `docker` the widget's owner may use. */
  integrationId: Type.Optional(Matching(UUID, { clean: (s) => s.toLowerCase() })),
  /** `all`: every container of the engine; `names`: the ones listed, in that order. */
  containers: OneOf(DOCKER_FILTERS, { default: "all" }),
  names: Type.Array(
    Type.String({ pattern: CONTAINER_NAME_PATTERN, maxLength: CONTAINER_NAME_MAX, ...nameKeywords }),
    { default: [], maxItems: DOCKER_CONTAINERS_MAX },
  ),
  /** CPU and memory of running containers (the list only). */
  stats: Type.Boolean({ default: true }),
  display: OneOf(DOCKER_DISPLAYS, { default: "list" }),
  refreshSeconds: Type.Integer({
    minimum: REFRESH_SECONDS_MIN,
    maximum: REFRESH_SECONDS_MAX,
    default: REFRESH_SECONDS_DEFAULT,
  }),
});
export type DockerConfig = Static<typeof DockerConfig>;

/** What the server loads for a config. */
export interface DockerQuery {
  integrationId: string;
  /** The containers named, in order; null for every one. */
  names: string[] | null;
  display: DockerDisplay;
  stats: boolean;
}

export const CONTAINER_STATES = [
  "created",
  "running",
  "paused",
  "restarting",
  "exited",
  "removing",
  "dead",
  "unknown",
] as const;
export type ContainerState = (typeof CONTAINER_STATES)[number];
export const CONTAINER_HEALTHS = ["starting", "healthy", "unhealthy"] as const;
export type ContainerHealth = (typeof CONTAINER_HEALTHS)[number];

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const DockerAppSchema = Type.Object({
  name: Type.String(),
  /** http(s) only; anything else a label holds is dropped. */
  url: Nullable(Type.String()),
  /** A bundled icon's slug ("jellyfin" of `si:jellyfin`, `jellyfin.png`, `si-jellyfin`). */
  icon: Nullable(Type.String()),
  group: Nullable(Type.String()),
  description: Nullable(Type.String()),
});
export type DockerApp = Static<typeof DockerAppSchema>;

export const DockerContainerSchema = Type.Object({
  /** The full id; "" for a named container the engine does not have. */
  id: Type.String(),
  name: Type.String(),
  image: Nullable(Type.String()),
  state: Type.Union(CONTAINER_STATES.map((s) => Type.Literal(s))),
  /** Docker's own words ("Up 4 days (healthy)"), in English as Docker writes them. */
  status: Nullable(Type.String()),
  /** The healthcheck's verdict; null when the image has none. */
  health: Nullable(Type.Union(CONTAINER_HEALTHS.map((s) => Type.Literal(s)))),
  startedAt: Nullable(Type.String()),
  finishedAt: Nullable(Type.String()),
  exitCode: Nullable(Type.Integer()),
  /** For running containers shown as a list with stats; null otherwise or when the sample failed. */
  stats: Nullable(
    Type.Object({
      cpuPercent: Nullable(Type.Number()),
      memoryBytes: Nullable(Type.Number()),
      memoryLimitBytes: Nullable(Type.Number()),
    }),
  ),
  /** From its labels; null when it has none of them. */
  app: Nullable(DockerAppSchema),
  /** False for a container named in the config that the engine does not have. */
  found: Type.Boolean(),
});
export type DockerContainer = Static<typeof DockerContainerSchema>;

export const DockerDataSchema = Type.Object(
  {
    containers: Type.Array(DockerContainerSchema),
    /** How many matched before the list was cut to DOCKER_CONTAINERS_MAX. */
    total: Type.Integer(),
    engine: Type.Union([Type.Literal("Docker"), Type.Literal("Podman")]),
    /** Whether an admin lets widgets act through the integration. */
    actions: Type.Boolean(),
  },
  { description: "The containers of a Docker widget, in its order" },
);
export type DockerData = Static<typeof DockerDataSchema>;

export const DOCKER_ACTIONS = ["start", "stop", "restart"] as const;
export type DockerAction = (typeof DOCKER_ACTIONS)[number];

/** What an action answers: the container as the engine reports it afterwards. */
export interface DockerActionResult {
  id: string;
  name: string;
  state: ContainerState;
  health: ContainerHealth | null;
  startedAt: string | null;
  /** Docker answered 304: it was already in the state asked for. */
  unchanged: boolean;
}

export const dockerWidget = defineWidgetType({
  type: "Docker",
  server: true,
  config: DockerConfig,
  data: {
    kind: "service",
    publicRoute: "docker",
    visitorQuery: ({
      integrationId,
      containers,
      names,
      display,
      stats,
    }: DockerConfig): DockerQuery | null => {
      if (!integrationId) return null;
      if (containers === "names" && names.length === 0) return null;
      return {
        integrationId,
        names: containers === "names" ? names : null,
        display,
        stats: display === "list" && stats,
      };
    },
  },
  // A name listed twice is shown once.
  refine: (config) => {
    const names = [...new Set(config.names)];
    return names.length === config.names.length ? config : { ...config, names };
  },
});
