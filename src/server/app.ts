import { randomUUID } from "node:crypto";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, { type FastifyInstance } from "fastify";
import { ACCOUNT_SCHEMAS } from "../contract/account.js";
import { AuditPageSchema } from "../contract/audit.js";
import { BootstrapSchema } from "../contract/bootstrap.js";
import { InstanceSettingsSchema } from "../contract/instance-settings.js";
import { OPERATOR_SCHEMAS } from "../contract/operators.js";
import { PushSubscriptionSchema } from "../contract/push.js";
import {
  AccountSchema,
  DashboardSchema,
  NotificationSchema,
  ProblemSchema,
  SettingsSchema,
  WidgetSchema,
} from "../contract/resources.js";
import { SHARING_SCHEMAS } from "../contract/sharing.js";
import { profileRoutes } from "./account/routes.js";
import { apiKeyBudget, apiKeys } from "./apikeys/keys.js";
import { apiKeyRoutes } from "./apikeys/routes.js";
import { AuditLog } from "./audit/record.js";
import { auditRoutes } from "./audit/routes.js";
import { ActorResolver } from "./auth/actors.js";
import { createAuth } from "./auth/auth.js";
import { authPlugin } from "./auth/plugin.js";
import { authRoutes } from "./auth/routes.js";
import { sessionOrigins } from "./auth/session-origin.js";
import { sessionRoutes } from "./auth/session-routes.js";
import { SessionResolver } from "./auth/sessions.js";
import { watchSso } from "./auth/sso.js";
import { createTokenCipher } from "./auth/token-cipher.js";
import { bootstrapRoutes } from "./bootstrap/routes.js";
import { warmFirstScreen } from "./bootstrap/warm.js";
import type { Config } from "./config.js";
import type { AppContext } from "./context.js";
import { HOT_READ_CACHE_BYTES } from "./db/bounded-cache.js";
import { DashboardChanges } from "./db/changes.js";
import { type Database, openDatabase } from "./db/client.js";
import { openMarket } from "./exchange/open-market.js";
import { exchangeRoutes } from "./exchange/routes.js";
import { installErrorHandling } from "./http/errors.js";
import { healthRoutes } from "./http/health.js";
import { installInputGuards } from "./http/json-body.js";
import { JsonBytes } from "./http/json-bytes.js";
import { lazyCompilers } from "./http/lazy-compilers.js";
import { ServerState } from "./http/lifecycle.js";
import { AnsweredRequestLog, loggerOptions } from "./http/logging.js";
import { rateLimitPlugin } from "./http/rate-limit.js";
import { securityHeaders, swaggerCsp } from "./http/security-headers.js";
import { applyConnectionLimit, edgeServerOptions } from "./http/server-options.js";
import { instanceSettingsRoutes } from "./instance-settings/routes.js";
import { InstanceSettingsService } from "./instance-settings/service.js";
import { integrationServers } from "./integrations/registry.js";
import { INTEGRATION_SCHEMAS, integrationRoutes } from "./integrations/routes.js";
import { IntegrationService } from "./integrations/service.js";
import { alertScheduler, alertsPending, alertWorker } from "./jobs/alerts.js";
import { Jobs } from "./jobs/jobs.js";
import { openJobQueue } from "./jobs/queue.js";
import { watchWorker } from "./jobs/watch/pass.js";
import { countingBus, watchAppGauges } from "./metrics/app-gauges.js";
import { metricsRoutes, timeRequests } from "./metrics/routes.js";
import { notificationRoutes } from "./notifications/routes.js";
import { NotificationService } from "./notifications/service.js";
import { createRedisNotificationStore } from "./notifications/stores/redis.js";
import { createSqlNotificationStore } from "./notifications/stores/sql.js";
import { operatorRoutes } from "./operators/routes.js";
import { signupGate } from "./operators/signup-gate.js";
import { userLimitsListener } from "./policies/limits.js";
import { portabilityRoutes } from "./portability/routes.js";
import { createProviderServices } from "./providers/client.js";
import { providerOAuthConfigs } from "./providers/oauth-configs.js";
import { providerRoutes } from "./providers/routes.js";
import type { Provisioner } from "./provisioning/provisioner.js";
import { pushSender, pushWorker } from "./push/deliver.js";
import { pushRoutes } from "./push/routes.js";
import { pushService } from "./push/service.js";
import { loadVapidIdentity, vapidIdentity } from "./push/vapid.js";
import { createMemoryLimiter, createRedisLimiter } from "./ratelimit/limiter.js";
import { createBus } from "./realtime/create-bus.js";
import { realtimeRoutes } from "./realtime/routes.js";
import { openRedis } from "./redis/client.js";
import { watchRedisPersistence } from "./redis/persistence.js";
import { accountRoutes } from "./resources/accounts/routes.js";
import { dashboardRoutes } from "./resources/dashboards/routes.js";
import { publicRoutes } from "./resources/public/routes.js";
import { ensureSettings } from "./resources/settings/queries.js";
import { settingsRoutes } from "./resources/settings/routes.js";
import { widgetRoutes } from "./resources/widgets/routes.js";
import { sharingRoutes } from "./sharing/routes.js";
import type { Clock } from "./upstream/cache.js";
import { createUpstream } from "./upstream/upstream.js";
import { webRoutes } from "./web/static.js";
import { widgetActionRoutes } from "./widgets/actions.js";
import { widgetConfigChecks } from "./widgets/config-checks.js";
import { widgetDataRoutes } from "./widgets/data.js";
import { widgetServers } from "./widgets/registry.js";

export const BODY_LIMIT = 1024 * 1024;

export interface AppDeps {
  /** An already open database (tests share one across apps); opened from config when absent. */
  database?: Database;
  /**
   * A database main.ts began opening before the rest of the app loaded (the embedded engine
   * starts in its thread meanwhile); the app owns it and closes it.
   */
  openingDatabase?: Promise<Database>;
  /** Log destination; pino's stdout when absent. Tests pass a stream to inspect log lines. */
  logStream?: NodeJS.WritableStream;
  /** The app's clock (upstream freshness windows, version history); tests move it instead of waiting. */
  clock?: Clock;
  /** Where provisioning files' `${NAME}` placeholders are read: the process environment when absent. */
  env?: Readonly<Record<string, string | undefined>>;
}

export interface BuiltApp {
  app: FastifyInstance;
  ctx: AppContext;
  /** Stops accepting requests, finishes those in flight, then closes every pool and connection. */
  close(): Promise<void>;
  /**
   * The graceful stop of SIGTERM: drains for `graceMs` (readiness 503, everything still served),
   * then closes as close() does, cutting connections still busy after `timeoutMs`.
   * Resolves `forced: true` when it had to cut any.
   */
  shutdown(options: { graceMs: number; timeoutMs: number }): Promise<{ forced: boolean }>;
  /** Compiles the validators and serializers not used yet (answers how many); the server compiles each on first use. */
  compileSchemas(): number;
  /** Applies PROVISIONING_DIR (null without it): started before the app answers. */
  provisioner: Provisioner | null;
  /**
   * The same in the background, a slice at a time, the routes of a first visit first, while the
   * database runs the first screen's reads once (bootstrap/warm.ts): called once the server
   * listens, so no one after a restart waits for a compilation or a cold query (answers how many
   * it compiled).
   */
  warmUp(): Promise<number>;
}

/** What a page load calls first (web/lib): warmed before the rest. */
const FIRST_VISIT = [
  "/api/bootstrap",
  "/api/widgets",
  "/api/dashboards",
  "/api/realtime",
  "/api/notifications",
];

/** Builds one instance of the app from its config and dependencies; nothing is global. */
export async function buildApp(config: Config, deps: AppDeps = {}): Promise<BuiltApp> {
  const ownsDatabase = !deps.database;
  const database = deps.database ?? (await (deps.openingDatabase ?? openDatabase(config)));
  // Migrations run while the app is assembled; nothing is served before they finish (below).
  const migrated = database.migrate();
  migrated.catch(() => {});

  const redis = config.redisUrl ? await openRedis(config.redisUrl, { enableAutoPipelining: true }) : null;

  // Loaded only when asked for: without METRICS_TOKEN a restart loads and times nothing of it.
  const metrics = config.metricsToken ? await (await import("./metrics/metrics.js")).createMetrics() : null;
  const plainBus = await createBus(config, database);
  const bus = metrics ? countingBus(plainBus, metrics) : plainBus;
  const changes = new DashboardChanges();
  // Read before anything is served (below); the address guard and sign-up read it from then on.
  const instanceSettings = new InstanceSettingsService({
    db: database.db,
    bus,
    config,
    clock: deps.clock ?? Date.now,
    changes,
  });
  const cipher = createTokenCipher(config.tokenKey);
  const notifications = new NotificationService(
    redis ? createRedisNotificationStore(redis, config.redisPrefix) : createSqlNotificationStore(database.db),
    bus,
  );
  const limiter = redis
    ? createRedisLimiter(redis, config.redisPrefix, deps.clock)
    : createMemoryLimiter(deps.clock);
  const upstream = createUpstream(
    config.upstream,
    deps.clock,
    () => instanceSettings.allowList(),
    metrics ? (call) => metrics.upstreamAnswered(call) : undefined,
  );
  const clock = deps.clock ?? Date.now;
  const audit = new AuditLog(database.db, clock);
  let provisioner: Provisioner | null = null;
  const auth = createAuth({
    config,
    db: database.db,
    cipher,
    oauthConfigs: providerOAuthConfigs(config, upstream.fetch),
    signup: signupGate(
      database.db,
      config.access,
      clock,
      async () => (await instanceSettings.fresh()).signupMode,
    ),
    // Sign-ins and failures for the audit log (DESIGN section 17). A refused single sign-on
    // proved no email, so nobody is named.
    onSignIn: (attempt) =>
      audit.after(
        { id: attempt.userId, name: attempt.name ?? attempt.email ?? "Unknown" },
        {
          action: attempt.ok ? "auth.signed_in" : "auth.sign_in_failed",
          target: attempt.userId
            ? `user:${attempt.userId}`
            : attempt.email !== null
              ? `email:${attempt.email}`
              : `sso:${config.access.oidc?.providerId}`,
          detail: { email: attempt.email, method: attempt.method },
        },
        app.log,
      ),
    // Every user has a settings row from the moment sign-up answers (DESIGN section 2), and a
    // copy of the starting dashboard when admins chose one (never failing the sign-up).
    onUserCreated: async (userId) => {
      await ensureSettings(database.db, userId);
      await instanceSettings.welcome(userId);
      // A provisioned dashboard may have waited for this account (its owner, a member).
      await provisioner
        ?.accountCreated()
        .catch((error) => app.log.error({ err: error }, "provisioning after a sign-up failed"));
    },
  });
  const sessions = new SessionResolver(database.db, config.authSecret, bus, config.sessionCacheTtlMs);
  sessions.start();
  const keys = apiKeys(auth, database.db);
  const actors = new ActorResolver(sessions, keys);
  const sso = watchSso(config.access.oidc, upstream, clock);
  const origin = new URL(config.baseUrl).origin;
  const state = new ServerState();

  const ctx: AppContext = {
    jsonBytes: new JsonBytes(HOT_READ_CACHE_BYTES),
    metrics,
    config,
    database,
    redis,
    bus,
    notifications,
    limiter,
    cipher,
    auth,
    sessions,
    actors,
    keys,
    sso,
    upstream,
    market: openMarket(config, redis, upstream),
    changes,
    instanceSettings,
    audit,
    integrations: new IntegrationService({
      audit,
      db: database.db,
      cipher,
      fetch: upstream.fetch,
      checkAddress: (url, reach) => upstream.checkAddress(url, reach),
      servers: integrationServers,
      clock,
    }),
    // `app` is built below; the queue opens later, from a request or once migrations are done.
    jobs: new Jobs(
      () => openJobQueue(database, app.log),
      (error) => {
        app.log.error({ err: error }, "the job queue did not start");
        // Operators see it in /readyz; writes that schedule reminders fail (503), the rest go on.
        state.warn("job-queue", "The job queue did not start: reminders are not scheduled (see the log)");
      },
    ),
    state,
    clock,
  };
  ctx.changes.listenAll(userLimitsListener(config.limits));

  const compilers = lazyCompilers();
  const app = Fastify({
    logger: loggerOptions(config.logLevel, deps.logStream),
    logController: new AnsweredRequestLog(),
    schemaController: { compilersFactory: compilers.compilersFactory },
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
    ...edgeServerOptions(config.http),
  }).withTypeProvider<TypeBoxTypeProvider>();
  applyConnectionLimit(app, config.http);
  if (ctx.metrics) {
    timeRequests(app, ctx.metrics);
    watchAppGauges(ctx, ctx.metrics);
  }
  // Loaded on first use (a subscription, a push), after migrations; the same pair on every instance.
  const identity = vapidIdentity(() => loadVapidIdentity(database.db, config.push, cipher));
  const push = pushService(identity, ctx.jobs);
  // Before the alert worker: an alert firing sends push jobs, so the push queue must exist first.
  ctx.jobs.addWorker(
    pushWorker(pushSender(database.db, config.push, identity, upstream.fetch, app.log), app.log),
  );
  ctx.jobs.addWorker(alertWorker(database, notifications, app.log, clock));
  // The watchers' own provider client: the data cache is shared (ctx.upstream), tokens refresh as anywhere.
  const providers = createProviderServices(ctx);
  const servers = await widgetServers();
  ctx.jobs.addWorker(
    watchWorker(
      { database, notifications, log: app.log, clock },
      servers.flatMap(({ server }) => server.watchers?.({ ctx, providers }) ?? []),
      config.alertsWatchSeconds,
    ),
  );
  // Widgets' reminders are scheduled, moved and cancelled in the transaction of each change.
  ctx.changes.listenAll(alertScheduler(ctx.jobs, clock));
  ctx.changes.listenAll(widgetConfigChecks(servers));
  // PostgreSQL: every instance works the shared queue from the start, so another's jobs are taken
  // over if it dies. Embedded (one process): only when there is alert work (jobs/jobs.ts).
  migrated
    .then(async () => {
      if (database.kind === "postgres" || (await alertsPending(database.db))) await ctx.jobs.ensure();
    })
    .catch(() => {});
  if (redis) {
    const stopWatching = watchRedisPersistence(redis, state, app.log);
    app.addHook("onClose", async () => stopWatching());
  }

  app.addHook("onSend", (request, reply, _payload, done) => {
    reply.header("x-request-id", request.id);
    done();
  });
  installErrorHandling(app);
  state.install(app);
  // Before the server stops listening, so requests waiting on an upstream end at once.
  app.addHook("preClose", async () => upstream.close());
  // JSON is the only body the API reads; anything else is a 415, not a string handed to a route.
  app.removeContentTypeParser("text/plain");
  installInputGuards(app);
  securityHeaders(app, config);
  // Before any route: every route registered from here on gets an access rule and a rate-limit hook.
  await app.register(authPlugin, { actors, origin });
  await app.register(rateLimitPlugin, {
    limiter,
    enabled: config.rateLimitEnabled,
    everyRoute: [apiKeyBudget(config.access)],
  });
  // Before any route: every answer that starts a session records the client's address.
  await app.register(sessionOrigins, { db: database.db });

  for (const schema of [
    ProblemSchema,
    AccountSchema,
    WidgetSchema,
    DashboardSchema,
    SettingsSchema,
    NotificationSchema,
    BootstrapSchema,
    PushSubscriptionSchema,
    InstanceSettingsSchema,
    ...OPERATOR_SCHEMAS,
    ...SHARING_SCHEMAS,
    ...ACCOUNT_SCHEMAS,
    ...INTEGRATION_SCHEMAS,
    AuditPageSchema,
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
          "Dashboards, widgets, settings, notifications and connected accounts. Every endpoint acts for the signed-in user: on their own records, and on dashboards others shared with them as their `access` allows. Errors are RFC 9457 problem details.",
      },
      servers: [{ url: config.baseUrl }],
      components: {
        securitySchemes: {
          session: { type: "apiKey", in: "cookie", name: "session" },
          bearer: { type: "http", scheme: "bearer", description: "The session token, for scripts" },
          apiKey: {
            type: "http",
            scheme: "bearer",
            bearerFormat: "tsk_…",
            description:
              "An API key from Settings → API keys, as `Authorization: Bearer tsk_…`. Scopes: `read` (every GET), `write` (everything), `notifications:write` (POST /api/notifications only); outside them 403 `insufficient_scope`. Keys never reach /api/keys, /api/sessions, /api/admin/* or /api/bootstrap.",
          },
        },
      },
      security: [{ session: [] }, { bearer: [] }, { apiKey: [] }],
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, {
    routePrefix: "/api/docs",
    staticCSP: true,
    transformStaticCSP: swaggerCsp(config.baseUrl),
  });
  app.get("/api/openapi.json", { schema: { hide: true } }, async () => app.swagger());

  await app.register(healthRoutes, ctx);
  if (ctx.metrics && config.metricsToken)
    await app.register(metricsRoutes, { metrics: ctx.metrics, token: config.metricsToken });
  await app.register(authRoutes, { config, auth, sessions });
  for (const routes of [
    accountRoutes,
    operatorRoutes,
    instanceSettingsRoutes,
    apiKeyRoutes,
    sessionRoutes,
    profileRoutes,
    bootstrapRoutes,
    dashboardRoutes,
    widgetRoutes,
    sharingRoutes,
    settingsRoutes,
    notificationRoutes,
    publicRoutes,
    realtimeRoutes,
    exchangeRoutes,
    providerRoutes,
    integrationRoutes,
    auditRoutes,
  ])
    await app.register(routes, ctx);
  // Each widget type's data and own routes (src/widgets/<type>/server), in the list's order.
  await app.register(async (scope) =>
    widgetDataRoutes(
      scope,
      ctx,
      servers.flatMap(({ definition, server }) =>
        server.data ? [{ definition, data: server.data(ctx) }] : [],
      ),
    ),
  );
  for (const { server } of servers) if (server.routes) await app.register(server.routes, ctx);
  await app.register(widgetActionRoutes(servers), ctx);
  await app.register(portabilityRoutes, ctx);
  await app.register(pushRoutes, { ...ctx, push });
  await app.register(webRoutes, { dist: config.webDist });

  await app.ready();
  await migrated;
  await instanceSettings.start(app.log);
  if (config.provisioning) {
    // Loaded only when asked for: the YAML parser and the watcher are no part of a plain start.
    const { Provisioner } = await import("./provisioning/provisioner.js");
    provisioner = new Provisioner({
      dir: config.provisioning.dir,
      watch: config.provisioning.watch,
      pollIntervalMs: config.provisioning.pollMs,
      db: database.db,
      changes: ctx.changes,
      bus: ctx.bus,
      integrations: ctx.integrations,
      env: deps.env ?? process.env,
      log: app.log,
    });
    await provisioner.start();
  }

  let closed = false;
  const built: BuiltApp = {
    app,
    ctx,
    async close() {
      if (closed) return;
      closed = true;
      state.phase = "closing";
      await provisioner?.close();
      await app.close();
      // A queue still starting is waited for, then stopped with the rest.
      await ctx.jobs.stop();
      sessions.stop();
      instanceSettings.stop();
      sso.stop();
      limiter.close();
      await bus.close();
      if (redis) await redis.quit().catch(() => redis.disconnect());
      if (ownsDatabase) await database.close();
    },
    async shutdown({ graceMs, timeoutMs }) {
      state.phase = "draining";
      app.log.info({ graceMs }, "draining: /readyz answers 503, requests are still served");
      await new Promise((resolve) => setTimeout(resolve, graceMs));
      app.log.info("closing: late requests get 503, realtime streams end");
      state.phase = "closing";
      await state.stopAccepting(app.server);
      let forced = false;
      const force = setTimeout(() => {
        forced = true;
        app.log.error({ timeoutMs }, "requests still in flight after the shutdown timeout; cutting them");
        app.server.closeAllConnections();
      }, timeoutMs);
      try {
        await built.close();
      } finally {
        clearTimeout(force);
      }
      return { forced };
    },
    compileSchemas: compilers.compileAll,
    provisioner,
    async warmUp() {
      // The queries run on the database's side (its thread, or PostgreSQL) while this thread compiles.
      const reads = warmFirstScreen(ctx).catch((error) =>
        app.log.warn({ err: error }, "warming the first screen's reads failed"),
      );
      const compiled = await compilers.warm((url) => FIRST_VISIT.some((prefix) => url.startsWith(prefix)));
      await reads;
      return compiled;
    },
  };
  return built;
}
