import type { Redis } from "ioredis";
import type { ApiKeys } from "./apikeys/keys.js";
import type { AuditLog } from "./audit/record.js";
import type { ActorResolver } from "./auth/actors.js";
import type { Auth } from "./auth/auth.js";
import type { SessionResolver } from "./auth/sessions.js";
import type { SsoStatus } from "./auth/sso.js";
import type { TokenCipher } from "./auth/token-cipher.js";
import type { Config } from "./config.js";
import type { DashboardChanges } from "./db/changes.js";
import type { Database } from "./db/client.js";
import type { Market } from "./exchange/market.js";
import type { JsonBytes } from "./http/json-bytes.js";
import type { ServerState } from "./http/lifecycle.js";
import type { InstanceSettingsService } from "./instance-settings/service.js";
import type { IntegrationService } from "./integrations/service.js";
import type { Jobs } from "./jobs/jobs.js";
import type { Metrics } from "./metrics/metrics.js";
import type { NotificationService } from "./notifications/service.js";
import type { RateLimiter } from "./ratelimit/limiter.js";
import type { EventBus } from "./realtime/bus.js";
import type { Upstream } from "./upstream/upstream.js";

/**
 * Everything a route needs, built once per app instance by buildApp and handed to each route
 * plugin: no module keeps state of its own, so several instances can run side by side.
 */
export interface AppContext {
  config: Config;
  database: Database;
  redis: Redis | null;
  bus: EventBus;
  notifications: NotificationService;
  limiter: RateLimiter;
  cipher: TokenCipher;
  auth: Auth;
  sessions: SessionResolver;
  /** Who is acting: API keys and sessions (auth/actors.ts). */
  actors: ActorResolver;
  keys: ApiKeys;
  /** Whether single sign-on can be offered right now (its provider's discovery succeeded). */
  sso: SsoStatus;
  /** Every outside call goes through it: one fetch wrapper, one cache. */
  upstream: Upstream;
  /** Exchange market data, cached and throttled: crypto widgets and price alerts share it. */
  market: Market;
  /** Writes to dashboards and widgets report here; history and alerts listen in the same transaction. */
  changes: DashboardChanges;
  /** The job queue every instance shares through the database (reminders, alerts, push). */
  jobs: Jobs;
  /** The admin page's settings (sign-up mode, private networks, starting dashboard), on every instance. */
  instanceSettings: InstanceSettingsService;
  /** Saved connections to services (DESIGN section 16): who may use which, and calls to them. */
  integrations: IntegrationService;
  /** What was done and by whom, for admins (DESIGN section 17). */
  audit: AuditLog;
  /** Serving, draining or closing, and the warnings /readyz shows. */
  state: ServerState;
  /** Milliseconds now: version folding and upstream freshness read it; tests move it. */
  clock: () => number;
  /** The bytes of large cached answers, encoded once (http/json-bytes.ts). */
  jsonBytes: JsonBytes;
  /** Prometheus metrics, when METRICS_TOKEN is set (metrics/metrics.ts); null otherwise. */
  metrics: Metrics | null;
}
