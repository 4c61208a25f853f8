import { type Static, type TSchema, Type } from "@sinclair/typebox";
import type { AppContext } from "../../../server/context.js";
import { answeredJson } from "../../../server/integrations/kit.js";
import type { UsableIntegration } from "../../../server/integrations/types.js";
import { defineSource, type Source } from "../../../server/upstream/source.js";
import type { Blocking } from "../contract.js";
import type { BlockerClient } from "./reading.js";
import { pausedUntil, shareOf } from "./reading.js";

/** `GET /api/stats/summary`: only the counts the widget shows are read. */
const Summary = defineSource(
  Type.Object({
    queries: Type.Object({ total: Type.Integer({ minimum: 0 }), blocked: Type.Integer({ minimum: 0 }) }),
  }),
);

/** `GET` and `POST /api/dns/blocking`: the timer is the seconds left, null without one. */
const BlockingAnswer = defineSource(
  Type.Object({ blocking: Type.String(), timer: Type.Union([Type.Number(), Type.Null()]) }),
);

/** FTL keeps the last 24 hours of queries in memory; its summary counts those. */
const PIHOLE_WINDOW_HOURS = 24;

function blockingOf(answer: { blocking: string; timer: number | null }, now: number): Blocking {
  switch (answer.blocking) {
    case "enabled":
      return { state: "enabled", pausedUntil: null };
    case "disabled":
      return answer.timer !== null && answer.timer > 0
        ? { state: "paused", pausedUntil: pausedUntil(now, answer.timer * 1000) }
        : { state: "disabled", pausedUntil: null };
    case "failed":
      return { state: "failed", pausedUntil: null };
    default:
      return { state: "unknown", pausedUntil: null };
  }
}

/** Pi-hole v6 through the integration (the service signs in and keeps the session). */
export function piholeClient(ctx: AppContext, integration: UsableIntegration): BlockerClient {
  async function ask<S extends TSchema>(
    source: Source<S>,
    path: string,
    what: string,
    body?: object,
  ): Promise<Static<S>> {
    const response = await ctx.integrations.call(integration, {
      path,
      what,
      ...(body && {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    });
    return source.parse(answeredJson(response, integration.name), response);
  }
  return {
    async read() {
      const [summary, blocking] = await Promise.all([
        ask(Summary, "/api/stats/summary", "its summary"),
        ask(BlockingAnswer, "/api/dns/blocking", "its blocking state"),
      ]);
      const { total, blocked } = summary.queries;
      return {
        queries: total,
        blocked,
        blockedShare: shareOf(blocked, total),
        windowHours: PIHOLE_WINDOW_HOURS,
        blocking: blockingOf(blocking, ctx.clock()),
      };
    },
    async change(change) {
      // The timer is in seconds; Pi-hole turns blocking back on by itself when it runs out.
      const body =
        change === "resume"
          ? { blocking: true, timer: null }
          : { blocking: false, timer: change.pauseMinutes * 60 };
      const after = await ask(BlockingAnswer, "/api/dns/blocking", "a change of blocking", body);
      return blockingOf(after, ctx.clock());
    },
  };
}
