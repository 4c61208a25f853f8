import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { bearer } from "better-auth/plugins";
import { and, eq } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { isProvider, PROVIDERS } from "../../contract/providers.js";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { account as accountTable, authSchema } from "../db/schema.js";
import { withHashedSessionTokens } from "./hashed-sessions.js";
import type { TokenCipher } from "./token-cipher.js";

export const SESSION_COOKIE = "session";
const TOKEN_FIELDS = ["accessToken", "refreshToken", "idToken"] as const;

/**
 * better-auth endpoints we do not serve. Provider accounts are only ever *linked* to a signed-in
 * user (POST /link-social), never used to sign in; and access tokens stay on the server, which
 * refreshes them itself (providers/tokens.ts), so the endpoints that hand tokens to the browser
 * or call providers with them are closed.
 */
const CLOSED_ENDPOINTS = new Set(["/sign-in/social", "/get-access-token", "/refresh-token", "/account-info"]);

export interface AuthOptions {
  config: Config;
  db: Db;
  cipher: TokenCipher;
  /** Extra better-auth plugins (the OAuth providers add theirs). */
  plugins?: Parameters<typeof betterAuth>[0]["plugins"];
  /** Runs once a new user is stored, before sign-up answers (the app creates their settings). */
  onUserCreated(userId: string): Promise<void>;
}

/** Encrypts whatever token fields better-auth is about to write, so none reaches the database in plaintext. */
function encryptTokens<T extends Record<string, unknown>>(cipher: TokenCipher, data: T): T {
  const out: Record<string, unknown> = { ...data };
  for (const field of TOKEN_FIELDS) {
    const value = out[field];
    if (typeof value === "string" && value.length > 0) out[field] = cipher.encrypt(value);
  }
  return out as T;
}

export function createAuth({ config, db, cipher, plugins = [], onUserCreated }: AuthOptions) {
  const secure = config.baseUrl.startsWith("https://");
  return betterAuth({
    appName: "Tessera",
    baseURL: config.baseUrl,
    basePath: "/api/auth",
    secret: config.authSecret,
    trustedOrigins: [new URL(config.baseUrl).origin],
    database: withHashedSessionTokens(
      drizzleAdapter(db, { provider: "pg", schema: authSchema }) as unknown as Parameters<
        typeof withHashedSessionTokens
      >[0],
    ) as unknown as ReturnType<typeof drizzleAdapter>,
    emailAndPassword: { enabled: true, minPasswordLength: 8, maxPasswordLength: 128, autoSignIn: true },
    // Our own limiter (per address and per email, shared through Redis) guards sign-in and sign-up.
    rateLimit: { enabled: false },
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24 },
    account: {
      accountLinking: {
        enabled: true,
        // Linking is always to the signed-in user (the state carries their id and session), so the
        // provider's email may differ from theirs and need not be verified by the provider.
        allowDifferentEmails: true,
        trustedProviders: [...PROVIDERS],
        disableImplicitLinking: true,
      },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (CLOSED_ENDPOINTS.has(ctx.path)) throw new APIError("NOT_FOUND", { message: "Not served" });
      }),
    },
    advanced: {
      database: { generateId: () => uuidv7() },
      // The spec names the cookie `session`. Secure prefixes would rename it to __Secure-session,
      // so the prefix stays off and the Secure attribute is set directly behind https.
      useSecureCookies: false,
      cookies: {
        session_token: { name: SESSION_COOKIE, attributes: { secure, httpOnly: true, sameSite: "lax" } },
      },
      ipAddress: { ipAddressHeaders: config.trustProxy ? ["x-forwarded-for"] : [] },
    },
    logger: { disabled: process.env.NODE_ENV === "test" },
    databaseHooks: {
      user: {
        create: {
          after: async (user) => {
            await onUserCreated(user.id);
          },
        },
      },
      account: {
        create: {
          before: async (account) => {
            // One account per provider and user (unique index): connecting another account of the
            // same provider replaces the previous one instead of failing.
            if (isProvider(account.providerId)) {
              await db
                .delete(accountTable)
                .where(
                  and(
                    eq(accountTable.userId, account.userId),
                    eq(accountTable.providerId, account.providerId),
                  ),
                );
            }
            return { data: encryptTokens(cipher, account) };
          },
        },
        update: { before: async (account) => ({ data: encryptTokens(cipher, account) }) },
      },
    },
    plugins: [bearer(), ...plugins],
  });
}

export type Auth = ReturnType<typeof createAuth>;
