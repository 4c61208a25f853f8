import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { bearer } from "better-auth/plugins";
import { uuidv7 } from "uuidv7";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { authSchema } from "../db/schema.js";
import { ensureSettings } from "../resources/settings/queries.js";
import type { TokenCipher } from "./token-cipher.js";

export const SESSION_COOKIE = "session";
const TOKEN_FIELDS = ["accessToken", "refreshToken", "idToken"] as const;

export interface AuthOptions {
  config: Config;
  db: Db;
  cipher: TokenCipher;
  /** Extra better-auth plugins (the OAuth providers add theirs). */
  plugins?: Parameters<typeof betterAuth>[0]["plugins"];
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

export function createAuth({ config, db, cipher, plugins = [] }: AuthOptions) {
  const secure = config.baseUrl.startsWith("https://");
  return betterAuth({
    appName: "Tessera",
    baseURL: config.baseUrl,
    basePath: "/api/auth",
    secret: config.authSecret,
    trustedOrigins: [new URL(config.baseUrl).origin],
    database: drizzleAdapter(db, { provider: "pg", schema: authSchema }),
    emailAndPassword: { enabled: true, minPasswordLength: 8, maxPasswordLength: 128, autoSignIn: true },
    // Our own limiter (per address and per email, shared through Redis) guards sign-in and sign-up.
    rateLimit: { enabled: false },
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24 },
    account: { accountLinking: { enabled: true, allowDifferentEmails: true } },
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
          // Every user has a settings row from the moment sign-up answers (DESIGN section 2).
          after: async (user) => {
            await ensureSettings(db, user.id);
          },
        },
      },
      account: {
        create: { before: async (account) => ({ data: encryptTokens(cipher, account) }) },
        update: { before: async (account) => ({ data: encryptTokens(cipher, account) }) },
      },
    },
    plugins: [bearer(), ...plugins],
  });
}

export type Auth = ReturnType<typeof createAuth>;
