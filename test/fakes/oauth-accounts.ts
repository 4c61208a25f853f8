import { and, eq } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Provider } from "../../src/contract/providers.js";
import type { BuiltApp } from "../../src/server/app.js";
import { type Config, loadConfig } from "../../src/server/config.js";
import { account } from "../../src/server/db/schema.js";
import type { TokenAuthority } from "./oauth-http.js";

/**
 * Links a provider account straight in the database, tokens encrypted as the auth hooks would
 * store them: data-endpoint tests need a linked account, not the OAuth dance (the connect test
 * does the dance against a real OAuth server).
 */
export async function seedAccount(
  built: BuiltApp,
  userId: string,
  provider: Provider,
  authority: TokenAuthority,
  options: { expiresInMs?: number; withRefreshToken?: boolean } = {},
) {
  const { accessToken, refreshToken } = authority.issue();
  const { cipher, database } = built.ctx;
  const now = new Date();
  await database.db.insert(account).values({
    id: uuidv7(),
    accountId: `${provider}-${userId}`,
    providerId: provider,
    userId,
    accessToken: cipher.encrypt(accessToken),
    refreshToken: options.withRefreshToken === false ? null : cipher.encrypt(refreshToken),
    accessTokenExpiresAt: new Date(now.getTime() + (options.expiresInMs ?? 3_600_000)),
    scope: "read",
    createdAt: now,
    updatedAt: now,
  });
  return { accessToken, refreshToken };
}

export async function storedAccount(built: BuiltApp, userId: string, provider: Provider) {
  const [row] = await built.ctx.database.db
    .select()
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, provider)));
  return row ?? null;
}

/** Makes the stored access token look expired, as it would be an hour after linking. */
export async function expireAccessToken(built: BuiltApp, userId: string, provider: Provider) {
  await built.ctx.database.db
    .update(account)
    .set({ accessTokenExpiresAt: new Date(Date.now() - 1000) })
    .where(and(eq(account.userId, userId), eq(account.providerId, provider)));
}

export interface ProviderFakeUrls {
  google?: { api: string; token: string; authority: TokenAuthority };
  github?: { api: string; token: string; authority: TokenAuthority };
  notion?: { api: string; token: string; authority: TokenAuthority };
}

/** Config.providers pointing the configured ones at fakes; the rest keep no credentials. */
export function providersConfig(fakes: ProviderFakeUrls): Config["providers"] {
  const base = loadConfig({
    AUTH_SECRET: "x".repeat(40),
    TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64"),
    DATABASE_URL: "postgres://unused@127.0.0.1/unused",
  }).providers;
  const out = structuredClone(base);
  for (const key of ["google", "github", "notion"] as const) {
    const fake = fakes[key];
    if (!fake) continue;
    out[key] = {
      clientId: fake.authority.clientId,
      clientSecret: fake.authority.clientSecret,
      authorizationUrl: `${fake.token}/authorize`,
      tokenUrl: `${fake.token}/token`,
      userInfoUrl: `${fake.api}/userinfo`,
      apiUrl: fake.api,
    };
  }
  return out;
}
