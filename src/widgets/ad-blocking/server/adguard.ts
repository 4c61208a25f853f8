import { Type } from "@sinclair/typebox";
import { adguardRefused } from "../../../integrations/adguard/server.js";
import type { AppContext } from "../../../server/context.js";
import { answered, answeredJson } from "../../../server/integrations/kit.js";
import type { IntegrationRequest, UsableIntegration } from "../../../server/integrations/types.js";
import type { UpstreamResponse } from "../../../server/upstream/fetch.js";
import { defineSource } from "../../../server/upstream/source.js";
import type { Blocking } from "../contract.js";
import { type BlockerClient, pausedUntil, shareOf } from "./reading.js";

const Status = defineSource(
  Type.Object({
    running: Type.Boolean(),
    protection_enabled: Type.Boolean(),
    /** Milliseconds left of a pause (v0.107.28+); 0 without one. */
    protection_disabled_duration: Type.Optional(Type.Number()),
  }),
);

const Count = Type.Integer({ minimum: 0 });
const Stats = defineSource(
  Type.Object({
    time_units: Type.String(),
    dns_queries: Type.Array(Count),
    blocked_filtering: Type.Array(Count),
  }),
);

const HOUR_MS = 3_600_000;
const DAY_HOURS = 24;

const sum = (values: readonly number[]) => values.reduce((total, n) => total + n, 0);

/**
 * The last 24 hours from AdGuard Home's statistics, whatever their interval. `recent` (v0.107.72+)
 * asks for exactly that; an interval shorter than a day refuses it (400), so all of it is taken.
 * Older versions ignore it and answer the interval by hours (up to 7 days: the last 24 are
 * summed) or by day (the last, AdGuard's current day so far).
 */
function lastDay(
  stats: { time_units: string; dns_queries: number[]; blocked_filtering: number[] },
  now: number,
) {
  if (stats.time_units === "days") {
    const hours = Math.floor(now / HOUR_MS) % DAY_HOURS || DAY_HOURS;
    return { queries: stats.dns_queries.at(-1) ?? 0, blocked: stats.blocked_filtering.at(-1) ?? 0, hours };
  }
  const queries = stats.dns_queries.slice(-DAY_HOURS);
  return {
    queries: sum(queries),
    blocked: sum(stats.blocked_filtering.slice(-DAY_HOURS)),
    hours: queries.length,
  };
}

function blockingOf(
  status: { running: boolean; protection_enabled: boolean; protection_disabled_duration?: number },
  now: number,
): Blocking {
  if (!status.running) return { state: "failed", pausedUntil: null };
  if (status.protection_enabled) return { state: "enabled", pausedUntil: null };
  const left = status.protection_disabled_duration ?? 0;
  return left > 0
    ? { state: "paused", pausedUntil: pausedUntil(now, left) }
    : { state: "disabled", pausedUntil: null };
}

/** AdGuard Home through the integration (HTTP Basic with the saved user). */
export function adguardClient(ctx: AppContext, integration: UsableIntegration): BlockerClient {
  async function call(request: IntegrationRequest): Promise<UpstreamResponse> {
    const response = await ctx.integrations.call(integration, request);
    if (response.status === 401) throw adguardRefused(integration.name);
    return response;
  }
  async function status() {
    const response = await call({ path: "/control/status", what: "its status" });
    return blockingOf(Status.parse(answeredJson(response, integration.name), response), ctx.clock());
  }
  return {
    async read() {
      // One at a time: a refused password then costs one refused call, not two (five block the address).
      const blocking = await status();
      let response = await call({
        path: "/control/stats",
        query: { recent: String(DAY_HOURS * HOUR_MS) },
        what: "its statistics",
      });
      if (response.status === 400) response = await call({ path: "/control/stats", what: "its statistics" });
      const stats = Stats.parse(answeredJson(response, integration.name), response);
      const day = lastDay(stats, ctx.clock());
      return {
        queries: day.queries,
        blocked: day.blocked,
        blockedShare: shareOf(day.blocked, day.queries),
        windowHours: day.hours,
        blocking,
      };
    },
    async change(change) {
      // The duration is in milliseconds; AdGuard Home turns protection back on when it runs out.
      // The Content-Type must be exactly application/json (its CSRF rule: anything else is 415).
      const body =
        change === "resume" ? { enabled: true } : { enabled: false, duration: change.pauseMinutes * 60_000 };
      answered(
        await call({
          path: "/control/protection",
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
          what: "a change of protection",
        }),
        integration.name,
      );
      return status();
    },
  };
}
