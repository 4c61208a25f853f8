import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.js";
import { sendProblem, unavailable } from "./errors.js";

/**
 * /healthz: the process serves. /readyz: its database (and Redis) answer too, and it is not
 * shutting down; `warnings` lists what an operator should fix (a Redis without persistence).
 */
export async function healthRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get("/healthz", { schema: { hide: true } }, async () => ({ status: "ok" }));

  app.get("/readyz", { schema: { hide: true } }, async (request, reply) => {
    if (ctx.state.phase !== "serving") {
      return sendProblem(reply, unavailable("Not ready: shutting down", 5));
    }
    const checks: Record<string, "ok" | "down"> = {};
    const probe = async (name: string, check: () => Promise<unknown>) => {
      try {
        await withTimeout(check(), 2000);
        checks[name] = "ok";
      } catch (error) {
        request.log.warn({ err: error, dependency: name }, "readiness check failed");
        checks[name] = "down";
      }
    };
    await Promise.all([
      probe("database", () => ctx.database.ping()),
      ctx.redis ? probe("redis", () => ctx.redis!.ping()) : Promise.resolve(),
    ]);
    const down = Object.entries(checks).filter(([, state]) => state === "down");
    if (down.length > 0) {
      return sendProblem(reply, unavailable(`Not ready: ${down.map(([name]) => name).join(", ")} down`, 5));
    }
    return { status: "ready", checks, warnings: ctx.state.warnings };
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
