import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import ipaddr from "ipaddr.js";

/** A bad configuration stops start-up with one line naming the variable. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
    this.name = "ConfigError";
  }
}

/** What one user may hold, so no account can exhaust the server (docs/api.md "Per-user limits"). */
export interface UserLimits {
  dashboards: number;
  widgetsPerDashboard: number;
  /** Serialized widget and settings configs together, in bytes. */
  configBytes: number;
  /** Open realtime streams per user on one instance. */
  streams: number;
}

export interface RateLimitConfig {
  /** Sign-in and sign-up attempts per client address per window. */
  authPerIp: number;
  /** Sign-in attempts per client address and email address per window (ten times this per email from all addresses). */
  authPerEmail: number;
  /** Sign-ups per client address per hour. */
  signupsPerHour: number;
  authWindowMs: number;
  /** Notifications a user may create per window, sustained. */
  notificationsPerUser: number;
  /** Notifications a user may create at once, before the sustained rate applies. */
  notificationsBurst: number;
  notificationsWindowMs: number;
  /** Test pushes a user may ask for per hour (each fans out to every subscribed device). */
  pushTestsPerHour: number;
}

/**
 * How long each kind of outside data is served from the cache before the upstream is asked again
 * (seconds; each is tunable as CACHE_<KIND>_SECONDS, e.g. CACHE_PROVIDER_DATA_SECONDS).
 * Prices move, so a quarter of the shortest candle; currency lists and places change over days.
 */
export const CACHE_SECONDS = {
  prices: 15,
  currencies: 300,
  forecast: 600,
  geocoding: 3600,
  providerData: 30,
  mailMessage: 300,
  contributions: 300,
  notesPage: 60,
  feed: 900,
  favicon: 86_400,
} as const;
export type CacheKind = keyof typeof CACHE_SECONDS;

export interface UpstreamConfig {
  /** How long any outside call (exchange, weather, provider API, token endpoint) may take before a 504. */
  timeoutMs: number;
  /** How long a failed exchange answer is repeated instead of asking again. */
  failureMs: number;
  /** How long past freshness a list that changes over days is served while its upstream fails. */
  staleIfErrorMs: number;
  freshMs: Record<CacheKind, number>;
  /**
   * Hosts and networks a user-given URL (a feed) may reach although they are private, loopback or
   * link-local (FETCH_ALLOW_PRIVATE: host names, IPs or CIDRs, comma-separated). Empty when it is
   * not set: the admin page's list applies (read it from ctx.instanceSettings).
   */
  allowPrivate: string[];
}

/** The network edge (src/server/http/server-options.ts): what one client may hold of the server. */
export interface HttpConfig {
  /** A request's headers and body must have arrived within this time, or it is answered 408 and cut. */
  requestTimeoutMs: number;
  /** A connection that sends and receives nothing this long is closed (SSE streams are exempt). */
  idleTimeoutMs: number;
  /** How long an idle keep-alive connection waits for its next request. */
  keepAliveTimeoutMs: number;
  /** Open connections beyond this are refused at once. */
  maxConnections: number;
}

/** SIGTERM (src/server/http/lifecycle.ts): drain, then close. */
export interface ShutdownConfig {
  /** After SIGTERM: /readyz answers 503 while every request is still served, so balancers move away. */
  graceMs: number;
  /** Then: how long requests in flight may take before their connections are cut (and the exit is 1). */
  timeoutMs: number;
}

export interface OAuthProviderConfig {
  clientId: string | null;
  clientSecret: string | null;
  authorizationUrl: string;
  tokenUrl: string;
  userInfoUrl: string;
  apiUrl: string;
}

/** Who may create an account (DESIGN section 8). */
export type SignupMode = "invite" | "open" | "closed";

/** The one OpenID Connect provider people sign in with (DESIGN section 12). */
export interface OidcConfig {
  /** better-auth's provider id: the callback is /api/auth/callback/oidc. */
  providerId: "oidc";
  issuer: string;
  clientId: string;
  clientSecret: string;
  displayName: string;
  scopes: string[];
  /** Whether a first sign-in through the provider may create an account. */
  autoSignUp: boolean;
  /** Members of this `groups` claim value become admins; null maps no group. */
  adminGroup: string | null;
}

/** Who may get in, and how (DESIGN sections 8, 9, 12). */
export interface AccessConfig {
  /**
   * SIGNUP_MODE. Null when it is not set: the admin page's choice applies, else `invite`
   * (read the effective mode from ctx.instanceSettings, never from here).
   */
  signupMode: SignupMode | null;
  /** false leaves single sign-on as the only way in. */
  passwordLogin: boolean;
  oidc: OidcConfig | null;
  /** Requests one API key may make per minute, sustained, and at once. */
  apiKeyPerMinute: number;
  apiKeyBurst: number;
}

/** Web Push (DESIGN section 11; docs/api.md "Alerts and push notifications"). */
export interface PushConfig {
  /**
   * The VAPID key pair (base64url, as web-push generates it). Null: generated once and kept in
   * the database, so every instance on one PostgreSQL signs with the same key (push/vapid.ts).
   */
  vapidPublicKey: string | null;
  vapidPrivateKey: string | null;
  /** Who push services contact about our traffic: a mailto: or https: URL. */
  vapidSubject: string;
  /** How long a push service keeps an undelivered message for an offline device, in seconds. */
  ttlSeconds: number;
  /**
   * Accept http:// subscription endpoints on loopback addresses. Only for tests and local fake
   * push services: browsers always give https endpoints. Never on by default.
   */
  allowInsecureEndpoints: boolean;
}

export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  dataDir: string;
  /** PostgreSQL connection string; null selects the embedded PGlite database under dataDir. */
  databaseUrl: string | null;
  /** PGlite location used when databaseUrl is null: a directory, or "memory://" for tests. */
  pgliteDir: string;
  /**
   * The embedded engine's shape: its own thread (default) or the event loop, household settings
   * (default) or PGlite's stock ones, hot reads cached until the next write (default) or not.
   * The alternatives exist to be measured (bench/lean.ts).
   */
  embeddedEngine: { thread: "worker" | "main"; tuned: boolean; readCache: boolean };
  redisUrl: string | null;
  /** Bearer token for `GET /metrics`; null (the default) serves no metrics and times nothing. */
  metricsToken: string | null;
  /**
   * Dashboards and integrations kept in files (DESIGN section 17): applied at start and on
   * change. `pollMs` 0 watches with inotify; container and network mounts need polling.
   */
  provisioning: { dir: string; watch: boolean; pollMs: number } | null;
  /** Optional prefix for Redis keys and channels, so several deployments (or test runs) can share one Redis. */
  redisPrefix: string;
  authSecret: string;
  /** Key for OAuth tokens at rest (32 bytes, base64). */
  tokenKey: string;
  logLevel: string;
  trustProxy: boolean;
  rateLimitEnabled: boolean;
  rateLimits: RateLimitConfig;
  limits: UserLimits;
  access: AccessConfig;
  /**
   * Seconds between watch passes (price, meeting and new-mail alerts); 0 runs none, which turns
   * those alerts off (tests drive passes themselves).
   */
  alertsWatchSeconds: number;
  /** Record dashboard versions (docs/api.md "History"). */
  historyEnabled: boolean;
  /** Changes this close to a dashboard's newest version fold into it (DESIGN 10: a minute). */
  historyFoldMs: number;
  sessionCacheTtlMs: number;
  http: HttpConfig;
  shutdown: ShutdownConfig;
  /** CSP frame-ancestors sources of public dashboard pages (`'none'`: no site may frame them). */
  publicFrameAncestors: string;
  /** Where the built web app lives; null disables static serving. */
  webDist: string | null;
  exchange: {
    url: string;
    clientId: string | null;
    clientSecret: string | null;
    passphrase: string | null;
  };
  providers: {
    google: OAuthProviderConfig;
    github: OAuthProviderConfig;
    notion: OAuthProviderConfig;
  };
  weatherApiUrl: string;
  geocodingApiUrl: string;
  upstream: UpstreamConfig;
  push: PushConfig;
}

type Env = Record<string, string | undefined>;

function str(env: Env, name: string): string | null {
  const value = env[name]?.trim();
  return value ? value : null;
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = str(env, name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max)
    throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = str(env, name);
  if (raw === null) return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(name, `expected true or false, got "${raw}"`);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = str(env, name);
  if (raw === null) return fallback;
  if (!(allowed as readonly string[]).includes(raw))
    throw new ConfigError(name, `expected one of ${allowed.join(", ")}, got "${raw}"`);
  return raw as T;
}

/** Comma-separated host names, IPs and CIDR networks; a malformed network stops start-up. */
function allowList(env: Env, name: string): string[] {
  const entries = (str(env, name) ?? "")
    .split(",")
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  for (const entry of entries) {
    if (entry.includes("/") && !ipaddr.isValidCIDR(entry))
      throw new ConfigError(name, `not a network in CIDR notation: "${entry}"`);
    if (!entry.includes("/") && !/^[a-z0-9.:_-]+$/.test(entry))
      throw new ConfigError(name, `not a host name or address: "${entry}"`);
  }
  return entries;
}

function oidcConfig(env: Env): OidcConfig | null {
  const issuer = url(env, "OIDC_ISSUER", null);
  if (issuer === null) return null;
  const clientId = str(env, "OIDC_CLIENT_ID");
  const clientSecret = str(env, "OIDC_CLIENT_SECRET");
  if (clientId === null) throw new ConfigError("OIDC_CLIENT_ID", "required when OIDC_ISSUER is set");
  if (clientSecret === null) throw new ConfigError("OIDC_CLIENT_SECRET", "required when OIDC_ISSUER is set");
  const scopes = (str(env, "OIDC_SCOPES") ?? "openid email profile").split(/[\s,]+/).filter(Boolean);
  if (!scopes.includes("openid")) throw new ConfigError("OIDC_SCOPES", 'must include "openid"');
  return {
    providerId: "oidc",
    issuer,
    clientId,
    clientSecret,
    displayName: str(env, "OIDC_DISPLAY_NAME") ?? "single sign-on",
    scopes,
    autoSignUp: bool(env, "OIDC_AUTO_SIGNUP", false),
    adminGroup: str(env, "OIDC_ADMIN_GROUP"),
  };
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function pushConfig(env: Env, baseUrl: string): PushConfig {
  const vapidPublicKey = str(env, "VAPID_PUBLIC_KEY");
  const vapidPrivateKey = str(env, "VAPID_PRIVATE_KEY");
  if ((vapidPublicKey === null) !== (vapidPrivateKey === null))
    throw new ConfigError(
      vapidPublicKey === null ? "VAPID_PUBLIC_KEY" : "VAPID_PRIVATE_KEY",
      "set both VAPID keys or neither (npx web-push generate-vapid-keys)",
    );
  if (vapidPublicKey !== null) {
    if (!BASE64URL.test(vapidPublicKey) || Buffer.from(vapidPublicKey, "base64url").length !== 65)
      throw new ConfigError("VAPID_PUBLIC_KEY", "must be a 65-byte P-256 public key in base64url");
    if (!BASE64URL.test(vapidPrivateKey!) || Buffer.from(vapidPrivateKey!, "base64url").length !== 32)
      throw new ConfigError("VAPID_PRIVATE_KEY", "must be a 32-byte P-256 private key in base64url");
  }
  // web-push accepts only mailto: and https: subjects; an https base URL is the natural contact.
  const fallback = baseUrl.startsWith("https://") ? baseUrl : `mailto:push@${new URL(baseUrl).hostname}`;
  return {
    vapidPublicKey,
    vapidPrivateKey,
    vapidSubject: url(env, "VAPID_SUBJECT", fallback, ["mailto:", "https:"])!,
    ttlSeconds: int(env, "PUSH_TTL_SECONDS", 3600, 0, 28 * 86_400),
    allowInsecureEndpoints: bool(env, "PUSH_ALLOW_INSECURE_ENDPOINTS", false),
  };
}

function accessConfig(env: Env): AccessConfig {
  const oidc = oidcConfig(env);
  const passwordLogin = bool(env, "PASSWORD_LOGIN", true);
  if (!passwordLogin && oidc === null)
    throw new ConfigError(
      "PASSWORD_LOGIN",
      "false needs single sign-on (OIDC_ISSUER), or nobody could sign in",
    );
  return {
    signupMode:
      str(env, "SIGNUP_MODE") === null
        ? null
        : oneOf(env, "SIGNUP_MODE", ["invite", "open", "closed"] as const, "invite"),
    passwordLogin,
    oidc,
    apiKeyPerMinute: int(env, "RATE_LIMIT_API_KEY_PER_MINUTE", 300, 1, 1_000_000),
    apiKeyBurst: int(env, "RATE_LIMIT_API_KEY_BURST", 600, 1, 1_000_000),
  };
}

function url(env: Env, name: string, fallback: string | null, protocols: string[] = ["http:", "https:"]) {
  const raw = str(env, name) ?? fallback;
  if (raw === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `not a valid URL: "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `expected a ${protocols.join(" or ")} URL, got "${parsed.protocol}"`);
  }
  return raw.replace(/\/+$/, "");
}

/**
 * In embedded mode a secret the operator did not set is generated once and kept under DATA_DIR,
 * so sessions and encrypted tokens survive restarts without any setup.
 */
function persistedSecret(dataDir: string, file: string): string {
  const target = path.join(dataDir, file);
  try {
    return readFileSync(target, "utf8").trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString("base64");
    writeFileSync(target, `${secret}\n`, { mode: 0o600, flag: "wx" });
    return secret;
  }
}

function providerConfig(
  env: Env,
  prefix: "GOOGLE" | "GITHUB" | "NOTION",
  defaults: Omit<OAuthProviderConfig, "clientId" | "clientSecret">,
): OAuthProviderConfig {
  return {
    clientId: str(env, `${prefix}_CLIENT_ID`),
    clientSecret: str(env, `${prefix}_CLIENT_SECRET`),
    authorizationUrl: url(env, `${prefix}_AUTHORIZATION_URL`, defaults.authorizationUrl)!,
    tokenUrl: url(env, `${prefix}_TOKEN_URL`, defaults.tokenUrl)!,
    userInfoUrl: url(env, `${prefix}_USERINFO_URL`, defaults.userInfoUrl)!,
    apiUrl: url(env, `${prefix}_API_URL`, defaults.apiUrl)!,
  };
}

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, "PORT", 3000, 0, 65535);
  const host = str(env, "HOST") ?? "127.0.0.1";
  const dataDir = path.resolve(str(env, "DATA_DIR") ?? "./data");
  const databaseUrl = url(env, "DATABASE_URL", null, ["postgres:", "postgresql:"]);
  const redisUrl = url(env, "REDIS_URL", null, ["redis:", "rediss:"]);
  const embedded = databaseUrl === null;

  const authSecret = str(env, "AUTH_SECRET") ?? (embedded ? persistedSecret(dataDir, "auth-secret") : null);
  if (authSecret === null) throw new ConfigError("AUTH_SECRET", "required when DATABASE_URL is set");
  if (authSecret.length < 32) throw new ConfigError("AUTH_SECRET", "must be at least 32 characters");

  const metricsToken = str(env, "METRICS_TOKEN") ?? null;
  if (metricsToken !== null && metricsToken.length < 16)
    throw new ConfigError("METRICS_TOKEN", "must be at least 16 characters");

  const provisioningDir = str(env, "PROVISIONING_DIR");
  const provisioning =
    provisioningDir === null
      ? null
      : {
          dir: path.resolve(provisioningDir),
          watch: bool(env, "PROVISIONING_WATCH", true),
          pollMs: int(env, "PROVISIONING_POLL_SECONDS", 0, 0, 3600) * 1000,
        };

  const tokenKey =
    str(env, "TOKEN_ENCRYPTION_KEY") ?? (embedded ? persistedSecret(dataDir, "token-key") : null);
  if (tokenKey === null) throw new ConfigError("TOKEN_ENCRYPTION_KEY", "required when DATABASE_URL is set");
  if (Buffer.from(tokenKey, "base64").length !== 32) {
    throw new ConfigError(
      "TOKEN_ENCRYPTION_KEY",
      "must be 32 bytes encoded as base64 (openssl rand -base64 32)",
    );
  }

  const exchangeSecret = str(env, "EXCHANGE_CLIENT_SECRET");
  if (exchangeSecret !== null && !isBase64(exchangeSecret)) {
    throw new ConfigError("EXCHANGE_CLIENT_SECRET", "must be the base64-encoded secret the exchange issued");
  }

  const baseUrl = url(env, "BASE_URL", `http://${host === "0.0.0.0" ? "localhost" : host}:${port}`)!;
  return {
    port,
    host,
    baseUrl,
    dataDir,
    databaseUrl,
    pgliteDir: path.join(dataDir, "pglite"),
    embeddedEngine: {
      thread: oneOf(env, "EMBEDDED_DB_THREAD", ["worker", "main"] as const, "worker"),
      tuned: oneOf(env, "EMBEDDED_DB_SETTINGS", ["household", "stock"] as const, "household") === "household",
      readCache: bool(env, "EMBEDDED_DB_READ_CACHE", true),
    },
    redisUrl,
    redisPrefix: str(env, "REDIS_PREFIX") ?? "tessera:",
    metricsToken,
    provisioning,
    authSecret,
    tokenKey,
    logLevel: str(env, "LOG_LEVEL") ?? "info",
    trustProxy: bool(env, "TRUST_PROXY", false),
    rateLimitEnabled: bool(env, "RATE_LIMIT_ENABLED", true),
    historyEnabled: bool(env, "HISTORY_ENABLED", true),
    historyFoldMs: int(env, "HISTORY_FOLD_SECONDS", 60, 0, 86_400) * 1000,
    limits: {
      dashboards: int(env, "LIMIT_DASHBOARDS_PER_USER", 100, 1, 1_000_000),
      widgetsPerDashboard: int(env, "LIMIT_WIDGETS_PER_DASHBOARD", 200, 1, 100_000),
      configBytes: int(env, "LIMIT_CONFIG_MIB_PER_USER", 8, 1, 100_000) * 1024 * 1024,
      streams: int(env, "LIMIT_STREAMS_PER_USER", 20, 1, 100_000),
    },
    access: accessConfig(env),
    alertsWatchSeconds: int(env, "ALERTS_WATCH_SECONDS", 30, 0, 3600),
    rateLimits: {
      authPerIp: int(env, "RATE_LIMIT_AUTH_PER_IP", 30, 1, 1_000_000),
      authPerEmail: int(env, "RATE_LIMIT_AUTH_PER_EMAIL", 10, 1, 1_000_000),
      signupsPerHour: int(env, "RATE_LIMIT_SIGNUPS_PER_HOUR", 10, 1, 1_000_000),
      authWindowMs: int(env, "RATE_LIMIT_AUTH_WINDOW_SECONDS", 300, 1, 86_400) * 1000,
      notificationsPerUser: int(env, "RATE_LIMIT_NOTIFICATIONS_PER_USER", 60, 1, 1_000_000),
      notificationsBurst: int(env, "RATE_LIMIT_NOTIFICATIONS_BURST", 120, 1, 1_000_000),
      notificationsWindowMs: int(env, "RATE_LIMIT_NOTIFICATIONS_WINDOW_SECONDS", 60, 1, 86_400) * 1000,
      pushTestsPerHour: int(env, "RATE_LIMIT_PUSH_TESTS_PER_HOUR", 10, 1, 1_000_000),
    },
    sessionCacheTtlMs: int(env, "SESSION_CACHE_SECONDS", 30, 0, 3600) * 1000,
    http: {
      requestTimeoutMs: int(env, "HTTP_REQUEST_TIMEOUT_SECONDS", 30, 1, 3600) * 1000,
      idleTimeoutMs: int(env, "HTTP_IDLE_TIMEOUT_SECONDS", 120, 1, 86_400) * 1000,
      keepAliveTimeoutMs: int(env, "HTTP_KEEP_ALIVE_TIMEOUT_SECONDS", 72, 1, 3600) * 1000,
      maxConnections: int(env, "HTTP_MAX_CONNECTIONS", 10_000, 1, 1_000_000),
    },
    publicFrameAncestors: frameAncestors(env, "PUBLIC_FRAME_ANCESTORS"),
    shutdown: {
      graceMs: int(env, "SHUTDOWN_GRACE_SECONDS", 5, 0, 3600) * 1000,
      timeoutMs: int(env, "SHUTDOWN_TIMEOUT_SECONDS", 10, 1, 3600) * 1000,
    },
    webDist: str(env, "WEB_DIST") ?? path.resolve("dist/web"),
    exchange: {
      url: url(env, "EXCHANGE_URL", "https://api.exchange.coinbase.com")!,
      clientId: str(env, "EXCHANGE_CLIENT_ID"),
      clientSecret: exchangeSecret,
      passphrase: str(env, "EXCHANGE_PASSPHRASE") ?? exchangeSecret,
    },
    providers: {
      google: providerConfig(env, "GOOGLE", {
        authorizationUrl: "https://accounts.google.com/o/oauth2/v2/auth",
        tokenUrl: "https://oauth2.googleapis.com/token",
        userInfoUrl: "https://openidconnect.googleapis.com/v1/userinfo",
        apiUrl: "https://www.googleapis.com",
      }),
      github: providerConfig(env, "GITHUB", {
        authorizationUrl: "https://github.com/login/oauth/authorize",
        tokenUrl: "https://github.com/login/oauth/access_token",
        userInfoUrl: "https://api.github.com/user",
        apiUrl: "https://api.github.com",
      }),
      notion: providerConfig(env, "NOTION", {
        authorizationUrl: "https://api.notion.com/v1/oauth/authorize",
        tokenUrl: "https://api.notion.com/v1/oauth/token",
        userInfoUrl: "https://api.notion.com/v1/users/me",
        apiUrl: "https://api.notion.com",
      }),
    },
    weatherApiUrl: url(env, "WEATHER_API_URL", "https://api.open-meteo.com")!,
    geocodingApiUrl: url(env, "GEOCODING_API_URL", "https://geocoding-api.open-meteo.com")!,
    push: pushConfig(env, baseUrl),
    upstream: {
      timeoutMs: int(env, "UPSTREAM_TIMEOUT_SECONDS", 5, 1, 120) * 1000,
      failureMs: int(env, "UPSTREAM_FAILURE_SECONDS", 5, 0, 3600) * 1000,
      staleIfErrorMs: int(env, "CACHE_STALE_IF_ERROR_SECONDS", 86_400, 0, 7 * 86_400) * 1000,
      allowPrivate: allowList(env, "FETCH_ALLOW_PRIVATE"),
      freshMs: Object.fromEntries(
        Object.entries(CACHE_SECONDS).map(([kind, seconds]) => [
          kind,
          int(
            env,
            `CACHE_${kind.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}_SECONDS`,
            seconds,
            0,
            86_400,
          ) * 1000,
        ]),
      ) as Record<CacheKind, number>,
    },
  };
}

/** CSP source expressions: 'none', 'self', *, a scheme (https:) or a host (https://*.example.com:8443). */
const FRAME_SOURCE =
  /^('self'|\*|[a-z][a-z0-9+.-]*:|([a-z][a-z0-9+.-]*:\/\/)?(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:(\d{1,5}|\*))?(\/[^\s;,']*)?)$/i;

function frameAncestors(env: Env, name: string): string {
  const raw = str(env, name);
  if (raw === null) return "'none'";
  // Shells strip the quotes of 'none' and 'self'; both spellings mean the keyword.
  const sources = raw
    .split(/\s+/)
    .map((source) => (/^(none|self)$/i.test(source) ? `'${source.toLowerCase()}'` : source));
  if (sources.length === 1 && sources[0] === "'none'") return "'none'";
  const bad = sources.find((source) => !FRAME_SOURCE.test(source));
  if (bad !== undefined) {
    throw new ConfigError(
      name,
      `"${bad}" is not a CSP source ('none', 'self', https:, https://example.com, *.example.com)`,
    );
  }
  return sources.join(" ");
}

function isBase64(value: string): boolean {
  return /^[A-Za-z0-9+/]+={0,2}$/.test(value) && value.length % 4 === 0;
}
