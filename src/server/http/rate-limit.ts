import type { FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { RateLimiter } from "../ratelimit/limiter.js";
import { rateLimited } from "./errors.js";

/** One budget a request spends from: `limit` requests per `windowMs` for each key. */
export interface RateLimitRule {
  /** Names the counter, so budgets of different rules never mix. */
  name: string;
  /** Whose budget the request spends (a user id, an address); null when the rule does not apply. */
  key(request: FastifyRequest): string | null;
  limit: number;
  windowMs: number;
  /**
   * With a burst, the rule is a token bucket: up to `burst` requests at once, refilled at `limit`
   * per `windowMs`. Without, `limit` requests per fixed window.
   */
  burst?: number;
  /** The 429's detail. */
  detail: string;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** Budgets the route spends from, checked by one hook once the body is read and valid. */
    rateLimit?: RateLimitRule[];
  }
}

/**
 * Reads each route's `config.rateLimit` (after the budgets every route spends from) and answers 429 with Retry-After when any of its budgets
 * is spent. Counters live in the limiter, shared through Redis when there is one.
 */
export const rateLimitPlugin = fp<{ limiter: RateLimiter; enabled: boolean; everyRoute?: RateLimitRule[] }>(
  async (app, { limiter, enabled, everyRoute = [] }) => {
    if (!enabled) return;
    app.addHook("preHandler", async (request) => {
      const own = request.routeOptions.config.rateLimit;
      if (!own && everyRoute.length === 0) return;
      const rules = own ? [...everyRoute, ...own] : everyRoute;
      for (const rule of rules) {
        const key = rule.key(request);
        if (key === null) continue;
        const counter = `${rule.name}:${key}`;
        const verdict = rule.burst
          ? await limiter.take(counter, { capacity: rule.burst, refill: rule.limit, windowMs: rule.windowMs })
          : await limiter.hit(counter, rule.limit, rule.windowMs);
        // Once one budget refuses, the later ones are not spent: a refused request costs nothing more.
        if (!verdict.allowed) throw rateLimited(rule.detail, verdict.retryAfterMs);
      }
    });
  },
  { name: "tessera-rate-limit" },
);
