import { Type } from "@sinclair/typebox";
import { notFoundBecause, type ProblemError, upstreamFailed } from "../../server/http/errors.js";
import { answered, type IntegrationCall } from "../../server/integrations/kit.js";
import type { UpstreamResponse } from "../../server/upstream/fetch.js";
import { defineSource, maybeJson } from "../../server/upstream/source.js";

/**
 * The Docker Engine API as Tessera speaks it, shared by the kind's connection test and the Docker
 * widget: which API version to ask for, how its answers are read, and what its refusals mean.
 */

/**
 * The newest API version this code and its fake follow (dockerd 27). Asked for as
 * min(the daemon's newest, this): Docker 29.0 to 29.2 refuse anything below 1.44, and Podman
 * before 5.8 speaks 1.41 at most, so no single fixed version reaches every engine.
 */
export const DOCKER_API_NEWEST = "1.47";
/** The oldest the daemon itself still accepts with DOCKER_MIN_API_VERSION lowered; older is refused. */
export const DOCKER_API_OLDEST = "1.24";

const versionNumber = (version: string) => {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return major * 1000 + minor;
};

/** The version to ask for, given what `/_ping` said the engine speaks at most (its `Api-Version`). */
export function chooseApiVersion(engineNewest: string | null): string {
  if (!engineNewest || !/^\d+\.\d+$/.test(engineNewest)) return DOCKER_API_NEWEST;
  return versionNumber(engineNewest) < versionNumber(DOCKER_API_NEWEST) ? engineNewest : DOCKER_API_NEWEST;
}

/** A versioned path: `/v1.47/containers/json`. Unversioned paths are deprecated by Docker. */
export const apiPath = (version: string, path: string) => `/v${version}${path}`;

/** Docker's `{"message": …}`, one line and short; null when the body is not that (a proxy's page). */
export function dockerMessage(response: UpstreamResponse): string | null {
  const json = maybeJson(response.text) as { message?: unknown } | undefined;
  if (typeof json?.message !== "string" || !json.message) return null;
  return json.message.replace(/\s+/g, " ").trim().slice(0, 200);
}

/** What a request was for, so a refusal can say what to allow. */
export type DockerPurpose = "ping" | "read" | "power";

/**
 * Why a Docker answer is not a success, in words: a socket proxy's 403 says which setting to
 * allow, a version refusal quotes the daemon, anything else carries Docker's own message.
 */
export function dockerFailure(
  response: UpstreamResponse,
  label: string,
  purpose: DockerPurpose,
): ProblemError {
  const { status, what } = response;
  const message = dockerMessage(response);
  if (status === 403) {
    if (purpose === "power")
      return upstreamFailed(
        `${label} refused to ${what} (403): its socket proxy is read-only. To let Tessera start, stop and restart containers, run LinuxServer's socket-proxy with ALLOW_START=1, ALLOW_STOP=1 and ALLOW_RESTARTS=1 (POST can stay 0)`,
      );
    if (purpose === "ping")
      return upstreamFailed(`${label} refused the ping (403): allow it in the socket proxy (PING=1)`);
    return upstreamFailed(
      `${label} refused ${what} (403): let the socket proxy read containers (CONTAINERS=1)`,
    );
  }
  if (status === 400 && message?.startsWith("client version"))
    return upstreamFailed(`${label} does not speak this Docker API version: ${message}`);
  if (status === 404 && message?.startsWith("No such container"))
    return notFoundBecause(`${label} has no such container (it may have been removed)`);
  if (status === 404)
    return upstreamFailed(
      `${label} answered 404 for ${what}: this address is not a Docker Engine API (check it, and the socket proxy's port)`,
    );
  if (status === 401 || (status >= 300 && status < 400)) {
    // Something in front of Docker (a redirect, a sign-in): the kit's words say what.
    try {
      answered(response, label);
    } catch (error) {
      return error as ProblemError;
    }
  }
  return upstreamFailed(`${label} answered ${status} for ${what}${message ? `: ${message}` : ""}`);
}

/** What the engine says about itself on `/_ping`. */
export interface EnginePing {
  /** The version to ask for (see chooseApiVersion). */
  apiVersion: string;
  engine: "Docker" | "Podman";
}

/**
 * `GET /_ping` (socket proxies let it through by default): the engine's newest API version from
 * its `Api-Version` header, and whether it is Podman (`Server: Libpod/…`).
 */
export async function pingEngine(call: IntegrationCall, label: string): Promise<EnginePing> {
  const response = await call({ path: "/_ping", what: "the ping" });
  if (response.status !== 200) throw dockerFailure(response, label, "ping");
  const newest = response.headers.get("api-version");
  if (newest && /^\d+\.\d+$/.test(newest) && versionNumber(newest) < versionNumber(DOCKER_API_OLDEST))
    throw upstreamFailed(
      `${label} speaks Docker API ${newest} at most; Tessera needs ${DOCKER_API_OLDEST} or later`,
    );
  const podman =
    /^libpod\//i.test(response.headers.get("server") ?? "") || response.headers.has("libpod-api-version");
  return { apiVersion: chooseApiVersion(newest), engine: podman ? "Podman" : "Docker" };
}

const Labels = Type.Optional(Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()]));

/** `GET /containers/json?all=true`: only the fields Tessera reads are checked. */
export const ContainerList = defineSource(
  Type.Array(
    Type.Object({
      Id: Type.String(),
      Names: Type.Union([Type.Array(Type.String()), Type.Null()]),
      Image: Type.Optional(Type.String()),
      State: Type.String(),
      Status: Type.Optional(Type.String()),
      Labels,
    }),
  ),
);
export type ListedContainer = (typeof ContainerList.schema)["static"][number];

/** `GET /containers/{id}/json`: the state, its healthcheck and times. Never Env or mounts. */
export const ContainerInspect = defineSource(
  Type.Object({
    Id: Type.String(),
    Name: Type.String(),
    State: Type.Object({
      Status: Type.String(),
      ExitCode: Type.Optional(Type.Number()),
      StartedAt: Type.Optional(Type.String()),
      FinishedAt: Type.Optional(Type.String()),
      Health: Type.Optional(Type.Union([Type.Object({ Status: Type.String() }), Type.Null()])),
    }),
  }),
);
export type InspectedContainer = (typeof ContainerInspect.schema)["static"];

const CpuStats = Type.Object({
  cpu_usage: Type.Object({
    total_usage: Type.Number(),
    percpu_usage: Type.Optional(Type.Union([Type.Array(Type.Number()), Type.Null()])),
  }),
  system_cpu_usage: Type.Optional(Type.Number()),
  online_cpus: Type.Optional(Type.Number()),
});

/** `GET /containers/{id}/stats?stream=false`: one sample with the previous one's CPU beside it. */
export const ContainerStats = defineSource(
  Type.Object({
    cpu_stats: CpuStats,
    precpu_stats: Type.Object({
      cpu_usage: Type.Optional(Type.Object({ total_usage: Type.Number() })),
      system_cpu_usage: Type.Optional(Type.Number()),
    }),
    memory_stats: Type.Object({
      usage: Type.Optional(Type.Number()),
      limit: Type.Optional(Type.Number()),
      stats: Type.Optional(Type.Record(Type.String(), Type.Number())),
    }),
  }),
);
export type ContainerStatsSample = (typeof ContainerStats.schema)["static"];

/**
 * CPU % as `docker stats` computes it: the container's share of the host's CPU time between the
 * two samples, times the CPUs online (so one busy core of four is 100 %). Null when the previous
 * sample is missing (a one-shot read), which would otherwise divide by the host's whole uptime.
 */
export function cpuPercent(sample: ContainerStatsSample): number | null {
  const { cpu_stats: now, precpu_stats: before } = sample;
  if (!before.system_cpu_usage || now.system_cpu_usage === undefined || !before.cpu_usage) return null;
  const cpus = now.online_cpus || now.cpu_usage.percpu_usage?.length || 0;
  const systemDelta = now.system_cpu_usage - before.system_cpu_usage;
  const cpuDelta = now.cpu_usage.total_usage - before.cpu_usage.total_usage;
  if (cpus === 0 || systemDelta <= 0) return null;
  if (cpuDelta <= 0) return 0;
  return Math.round((cpuDelta / systemDelta) * cpus * 100 * 100) / 100;
}

/**
 * Memory in use as `docker stats` shows it: the usage without the page cache the kernel can drop
 * (`total_inactive_file` on cgroup v1, `inactive_file` on v2; `cache` on older v1 kernels).
 * Null for a container that reports none (not running, or Windows).
 */
export function memoryUsed(sample: ContainerStatsSample): number | null {
  const { usage, stats = {} } = sample.memory_stats;
  if (usage === undefined) return null;
  for (const key of ["total_inactive_file", "inactive_file", "cache"] as const) {
    const cache = stats[key];
    if (cache !== undefined) return cache < usage ? usage - cache : usage;
  }
  return usage;
}

/** Go's zero time (`0001-01-01T00:00:00Z`) means never; anything else as ISO 8601 UTC. */
export function dockerTime(value: string | undefined): string | null {
  if (!value || value.startsWith("0001-")) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) && ms > 0 ? new Date(ms).toISOString() : null;
}
