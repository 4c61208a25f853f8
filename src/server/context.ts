import type { Redis } from "ioredis";
import type { Auth } from "./auth/auth.js";
import type { SessionResolver } from "./auth/sessions.js";
import type { TokenCipher } from "./auth/token-cipher.js";
import type { Config } from "./config.js";
import type { Database } from "./db/client.js";
import type { NotificationStore } from "./notifications/store.js";
import type { RateLimiter } from "./ratelimit/limiter.js";
import type { EventBus } from "./realtime/bus.js";

/**
 * Everything a route needs, built once per app instance by buildApp and handed to each route
 * plugin: no module keeps state of its own, so several instances can run side by side.
 */
export interface AppContext {
  config: Config;
  database: Database;
  redis: Redis | null;
  bus: EventBus;
  notifications: NotificationStore;
  limiter: RateLimiter;
  cipher: TokenCipher;
  auth: Auth;
  sessions: SessionResolver;
  /** The onRequest guard of every protected route (runs before the body is read): session (401) and same-origin (403) checks. */
  authenticate: (
    request: import("fastify").FastifyRequest,
    reply: import("fastify").FastifyReply,
  ) => Promise<void>;
}
