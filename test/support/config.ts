import { type Config, loadConfig, type UpstreamConfig } from "../../src/server/config.js";

export const TEST_ORIGIN = "http://127.0.0.1:3000";

/** A complete config for tests: in-memory PGlite, fixed secrets, no web build, quiet logs. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const base = loadConfig({
    // Every test signs its users up from one address; the sign-up budget has its own test.
    RATE_LIMIT_SIGNUPS_PER_HOUR: "100000",
    // Most tests sign several people up; the sign-up modes have their own tests.
    SIGNUP_MODE: "open",
    // Tests drive watch passes themselves (test/server/price-alerts.test.ts).
    ALERTS_WATCH_SECONDS: "0",
    AUTH_SECRET: "test-secret-test-secret-test-secret-0123456789",
    TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
    DATABASE_URL: "postgres://unused@127.0.0.1/unused",
    LOG_LEVEL: "silent",
    BASE_URL: TEST_ORIGIN,
  });
  return { ...base, databaseUrl: null, pgliteDir: "memory://", webDist: null, ...overrides };
}

/** The default upstream settings with some changed (a short timeout, say, so a test need not wait 5 s). */
export function upstreamConfig(overrides: Partial<UpstreamConfig>): UpstreamConfig {
  return { ...testConfig().upstream, ...overrides };
}
