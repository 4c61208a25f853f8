import { randomUUID } from "node:crypto";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, { type FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import {
  AccountSchema,
  DashboardSchema,
  NotificationSchema,
  ProblemSchema,
  SettingsSchema,
  WidgetSchema,
} from "../contract/resources.js";
import { createAuth } from "./auth/auth.js";
import { authRoutes } from "./auth/routes.js";
import { SessionResolver } from "./auth/sessions.js";
import { createTokenCipher } from "./auth/token-cipher.js";
import type { Config } from "./config.js";
import type { AppContext } from "./context.js";
import { type Database, openDatabase } from "./db/client.js";
import { exchangeRoutes } from "./exchange/routes.js";
import { installErrorHandling } from "./http/errors.js";
import { createAuthenticate } from "./http/guards.js";
import { healthRoutes } from "./http/health.js";
import { loggerOptions } from "./http/logging.js";
import { createRedisNotificationStore } from "./notifications/redis-store.js";
import { createSqlNotificationStore } from "./notifications/sql-store.js";
import { providerAuthPlugins } from "./providers/auth-plugins.js";
import { providerRoutes } from "./providers/routes.js";
import { createMemoryLimiter, createRedisLimiter } from "./ratelimit/limiter.js";
import { createBus } from "./realtime/create-bus.js";
import { realtimeRoutes } from "./realtime/routes.js";
import { accountRoutes } from "./resources/accounts/routes.js";
import { dashboardRoutes } from "./resources/dashboards/routes.js";
import { notificationRoutes } from "./resources/notifications/routes.js";
import { publicRoutes } from "./resources/public/routes.js";
import { settingsRoutes } from "./resources/settings/routes.js";
import { widgetRoutes } from "./resources/widgets/routes.js";
import { weatherRoutes } from "./weather/routes.js";
import { webRoutes } from "./web/static.js";

export const BODY_LIMIT = 1024 * 1024;

export interface AppDeps {
  /** An already open database (tests share one across apps); opened from config when absent. */
  database?: Database;
  /** Log destination; pino's stdout when absent. Tests pass a stream to inspect log lines. */
  logStream?: NodeJS.WritableStream;
}

export interface BuiltApp {
  app: FastifyInstance;
  ctx: AppContext;
  /** Stops accepting requests, finishes those in flight, then closes every pool and connection. */
  close(): Promise<void>;
}

/** Builds one instance of the app from its config and dependencies; nothing is global. */
export async function buildApp(config: Config, deps: AppDeps = {}): Promise<BuiltApp> {
  const ownsDatabase = !deps.database;
  const database = deps.database ?? (await openDatabase(config));
  await database.migrate();

  const redis = config.redisUrl
    ? new Redis(config.redisUrl, {
        maxRetriesPerRequest: 2,
        connectTimeout: 2000,
        enableAutoPipelining: true,
      })
    : null;
  // A Redis that goes away is reported per request (503) and through /readyz, not as a crash.
  redis?.on("error", () => {});

  const bus = await createBus(config, database);
  const cipher = createTokenCipher(config.tokenKey);
  const notifications = redis
    ? createRedisNotificationStore(redis, config.redisPrefix)
    : createSqlNotificationStore(database.db);
  const limiter = redis ? createRedisLimiter(redis, config.redisPrefix) : createMemoryLimiter();
  const auth = createAuth({ config, db: database.db, cipher, plugins: providerAuthPlugins(config) });
  const sessions = new SessionResolver(database.db, config.authSecret, bus, config.sessionCacheTtlMs);
  sessions.start();
  const origin = new URL(config.baseUrl).origin;

  const ctx: AppContext = {
    config,
    database,
    redis,
    bus,
    notifications,
    limiter,
    cipher,
    auth,
    sessions,
    authenticate: createAuthenticate(sessions, origin),
  };

  const app = Fastify({
    logger: loggerOptions(config.logLevel, deps.logStream),
    trustProxy: config.trustProxy,
    bodyLimit: BODY_LIMIT,
    genReqId: (req) => {
      const given = req.headers["x-request-id"];
      return typeof given === "string" && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    // DESIGN section 2: no coercion ("100" is not a number); unknown fields are left alone and ignored.
    ajv: {
      customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: false },
    },
    onProtoPoisoning: "error",
    onConstructorPoisoning: "error",
    return503OnClosing: true,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addHook("onSend", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  installErrorHandling(app);
  // JSON is the only body the API reads; anything else is a 415, not a string handed to a route.
  app.removeContentTypeParser("text/plain");

  for (const schema of [
    ProblemSchema,
    AccountSchema,
    WidgetSchema,
    DashboardSchema,
    SettingsSchema,
    NotificationSchema,
  ]) {
    app.addSchema(schema);
  }
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Tessera API",
        version: "0.1.0",
        description:
          "Dashboards, widgets, settings, notifications and connected accounts. Every endpoint acts on the signed-in user only. Errors are RFC 9457 problem details.",
      },
      servers: [{ url: config.baseUrl }],
      components: {
        securitySchemes: {
          session: { type: "apiKey", in: "cookie", name: "session" },
          bearer: { type: "http", scheme: "bearer", description: "The session token, for scripts" },
        },
      },
      security: [{ session: [] }, { bearer: [] }],
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: "/api/docs", staticCSP: true });
  app.get("/api/openapi.json", { schema: { hide: true } }, async () => app.swagger());

  await app.register(healthRoutes, ctx);
  await app.register(authRoutes, { config, auth, sessions, limiter });
  await app.register(accountRoutes, ctx);
  await app.register(dashboardRoutes, ctx);
  await app.register(widgetRoutes, ctx);
  await app.register(settingsRoutes, ctx);
  await app.register(notificationRoutes, ctx);
  await app.register(publicRoutes, ctx);
  await app.register(realtimeRoutes, ctx);
  await app.register(exchangeRoutes, ctx);
  await app.register(providerRoutes, ctx);
  await app.register(weatherRoutes, ctx);
  await app.register(webRoutes, { dist: config.webDist });

  await app.ready();

  let closed = false;
  return {
    app,
    ctx,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      sessions.stop();
      limiter.close();
      await bus.close();
      if (redis) await redis.quit().catch(() => redis.disconnect());
      if (ownsDatabase) await database.close();
    },
  };
}
