import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

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

export interface RateLimitConfig {
  /** Sign-in and sign-up attempts per client address per window. */
  authPerIp: number;
  /** Sign-in attempts per email address per window. */
  authPerEmail: number;
  authWindowMs: number;
  /** Notifications a user may create per window. */
  notificationsPerUser: number;
  notificationsWindowMs: number;
}

export interface OAuthProviderConfig {
  clientId: string | null;
  clientSecret: string | null;
  authorizationUrl: string;
  tokenUrl: string;
  userInfoUrl: string;
  apiUrl: string;
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
  redisUrl: string | null;
  /** Optional prefix for Redis keys and channels, so several deployments (or test runs) can share one Redis. */
  redisPrefix: string;
  authSecret: string;
  /** Key for OAuth tokens at rest (32 bytes, base64). */
  tokenKey: string;
  logLevel: string;
  trustProxy: boolean;
  rateLimitEnabled: boolean;
  rateLimits: RateLimitConfig;
  sessionCacheTtlMs: number;
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

  return {
    port,
    host,
    baseUrl: url(env, "BASE_URL", `http://${host === "0.0.0.0" ? "localhost" : host}:${port}`)!,
    dataDir,
    databaseUrl,
    pgliteDir: path.join(dataDir, "pglite"),
    redisUrl,
    redisPrefix: str(env, "REDIS_PREFIX") ?? "tessera:",
    authSecret,
    tokenKey,
    logLevel: str(env, "LOG_LEVEL") ?? "info",
    trustProxy: bool(env, "TRUST_PROXY", false),
    rateLimitEnabled: bool(env, "RATE_LIMIT_ENABLED", true),
    rateLimits: {
      authPerIp: int(env, "RATE_LIMIT_AUTH_PER_IP", 30, 1, 1_000_000),
      authPerEmail: int(env, "RATE_LIMIT_AUTH_PER_EMAIL", 10, 1, 1_000_000),
      authWindowMs: int(env, "RATE_LIMIT_AUTH_WINDOW_SECONDS", 300, 1, 86_400) * 1000,
      notificationsPerUser: int(env, "RATE_LIMIT_NOTIFICATIONS_PER_USER", 60, 1, 1_000_000),
      notificationsWindowMs: int(env, "RATE_LIMIT_NOTIFICATIONS_WINDOW_SECONDS", 60, 1, 86_400) * 1000,
    },
    sessionCacheTtlMs: int(env, "SESSION_CACHE_SECONDS", 30, 0, 3600) * 1000,
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
  };
}

function isBase64(value: string): boolean {
  return /^[A-Za-z0-9+/]+={0,2}$/.test(value) && value.length % 4 === 0;
}
