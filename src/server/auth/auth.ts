import { apiKey } from "@better-auth/api-key";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { admin, bearer, type GenericOAuthConfig, genericOAuth } from "better-auth/plugins";
import { createAccessControl } from "better-auth/plugins/access";
import { adminAc, defaultStatements, userAc } from "better-auth/plugins/admin/access";
import { and, eq } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { PASSWORD_MAX, PASSWORD_MIN } from "../../contract/account-rules.js";
import { API_KEY_PREFIX } from "../../contract/operators.js";
import { isProvider, PROVIDERS } from "../../contract/providers.js";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { account as accountTable, authSchema } from "../db/schema.js";
import { markInviteUsedBy } from "../operators/invites.js";
import { refusalError, type SignupGate } from "../operators/signup-gate.js";
import { withHashedSessionTokens } from "./hashed-sessions.js";
import { createPasswordHasher, upgradeStoredHash } from "./passwords.js";
import { applyAdminGroup, ssoOAuthConfig } from "./sso.js";
import type { TokenCipher } from "./token-cipher.js";

export const SESSION_COOKIE = "session";
const TOKEN_FIELDS = ["accessToken", "refreshToken", "idToken"] as const;

/**
 * better-auth endpoints we do not serve. Provider accounts are only ever *linked* to a signed-in
 * user (POST /link-social), never used to sign in (/sign-in/social serves single sign-on only,
 * see below); and access tokens stay on the server, which
 * refreshes them itself (providers/tokens.ts), so the endpoints that hand tokens to the browser
 * or call providers with them are closed.
 */
const CLOSED_ENDPOINTS = new Set(["/get-access-token", "/refresh-token", "/account-info"]);
/**
 * The admin and API-key plugins' own endpoints are closed too: /api/admin/* and /api/keys serve
 * the same with the checks DESIGN sections 8 and 9 ask for (the last admin, scopes, cache and
 * stream invalidation on every instance), and one way to do a thing is easier to secure.
 */
const CLOSED_PREFIXES = ["/admin/", "/api-key/"];
const PASSWORD_ENDPOINTS = new Set(["/sign-in/email", "/sign-up/email"]);

/** Admin-plugin roles: ours are `admin` and `member`; what each may do is decided in policies/. */
const ac = createAccessControl({ ...defaultStatements });
const roles = { admin: ac.newRole({ ...adminAc.statements }), member: ac.newRole({ ...userAc.statements }) };

export interface AuthOptions {
  config: Config;
  db: Db;
  cipher: TokenCipher;
  /** The data providers' OAuth settings (they only link); single sign-on's is added here. */
  oauthConfigs: GenericOAuthConfig[];
  /** Who may create an account, and with which role (operators/signup-gate.ts). */
  signup: SignupGate;
  /** Runs once a new user is stored, before sign-up answers (the app creates their settings). */
  onUserCreated(userId: string): Promise<void>;
  /**
   * A sign-in tried, with a password or through single sign-on: who (the account, when it
   * succeeded) and the email it named (none for a refused single sign-on: nothing proved one).
   * For the audit log, written before the answer goes; must not throw.
   */
  onSignIn?(attempt: {
    userId: string | null;
    name: string | null;
    email: string | null;
    method: "password" | "sso";
    ok: boolean;
  }): Promise<void>;
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

export function createAuth({
  config,
  db,
  cipher,
  oauthConfigs,
  signup,
  onUserCreated,
  onSignIn,
}: AuthOptions) {
  const secure = config.baseUrl.startsWith("https://");
  const oidc = config.access.oidc;
  const oauth = oidc ? [...oauthConfigs, ssoOAuthConfig(oidc)] : oauthConfigs;
  const passwords = createPasswordHasher();
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
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN,
      maxPasswordLength: PASSWORD_MAX,
      autoSignIn: true,
      password: passwords,
    },
    // Our own limiter (per address and per email, shared through Redis) guards sign-in and sign-up.
    rateLimit: { enabled: false },
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24 },
    account: {
      accountLinking: {
        enabled: true,
        // Linking a data provider is always to the signed-in user (the state carries their id and
        // session), so the provider's email may differ from theirs and need not be verified.
        allowDifferentEmails: true,
        trustedProviders: [...PROVIDERS],
        // Implicit linking (a sign-in whose email matches an account) happens only through single
        // sign-on, the one provider that signs in, and only when both sides proved the email: the
        // identity provider says it is verified (it is not a trusted provider), and so does the
        // local account's email_verified, which only the way the account came in sets: an invite
        // bound to that email (claim below) or single sign-on itself (the provider's word). A
        // password account whose email is merely what someone typed is never handed to whoever
        // signs in with that email: better-auth sends them to /signin?error=account_not_linked,
        // and the account's owner links single sign-on from Settings (POST /link-social) instead.
        disableImplicitLinking: !oidc,
        requireLocalEmailVerified: true,
      },
    },
    user: {
      validateUserInfo: async ({ user, source }, ctx) => {
        if (source.action !== "create-user") return;
        return (await signup.check(source.method, user.email ?? "", ctx)) ?? undefined;
      },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        // Closed to HTTP requests; the app's own server-side calls (no request) pass.
        const closed =
          CLOSED_ENDPOINTS.has(ctx.path) || CLOSED_PREFIXES.some((prefix) => ctx.path.startsWith(prefix));
        if (closed && ctx.request) throw new APIError("NOT_FOUND", { message: "Not served" });
        // Social sign-in is single sign-on's only, and by redirect only: an ID token a client
        // hands in directly would skip the nonce and the code flow.
        if (ctx.path === "/sign-in/social") {
          const body = ctx.body as { provider?: unknown; idToken?: unknown } | undefined;
          if (!oidc || body?.provider !== oidc.providerId || body?.idToken !== undefined)
            throw new APIError("NOT_FOUND", { message: "Not served" });
        }
        // Linking goes through the provider's page too, for the same reason: a handed-in ID token
        // would attach someone's identity-provider login to the caller's account unchecked.
        if (
          ctx.path === "/link-social" &&
          (ctx.body as { idToken?: unknown } | undefined)?.idToken !== undefined
        )
          throw new APIError("NOT_FOUND", { message: "Not served" });
        if (!config.access.passwordLogin && PASSWORD_ENDPOINTS.has(ctx.path))
          throw new APIError("FORBIDDEN", {
            code: "password_login_disabled",
            message: "Password sign-in is off on this instance; use single sign-on",
          });
        // Refused sign-ups are refused before better-auth looks the email up, so a refusal reads
        // the same whether or not the email has an account (else 422 "exists" would list them).
        if (ctx.path === "/sign-up/email") {
          const email = (ctx.body as { email?: unknown } | undefined)?.email;
          const why = await signup.check("email-password", typeof email === "string" ? email : "", ctx);
          if (why) throw refusalError(why);
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        const signedIn = ctx.context.newSession?.user.id;
        if (oidc && signedIn && ctx.path.startsWith("/callback/"))
          await applyAdminGroup(db, cipher, oidc, signedIn);
        const { password, email } = (ctx.body ?? {}) as { password?: unknown; email?: unknown };
        if (signedIn && ctx.path === "/sign-in/email" && typeof password === "string")
          await upgradeStoredHash(db, passwords, signedIn, password);
        if (ctx.path === "/sign-in/email" && typeof email === "string")
          await onSignIn?.({
            userId: signedIn ?? null,
            name: ctx.context.newSession?.user.name ?? null,
            email: email.slice(0, 320),
            method: "password",
            ok: signedIn !== undefined,
          });
        // The provider's callback: a new session is a sign-in. Without one, a browser that came
        // with a session was linking (Settings › Sessions), which is no sign-in to record.
        const cameSignedIn = Boolean(ctx.getCookie(SESSION_COOKIE));
        if (
          oidc &&
          ctx.path.startsWith("/callback/") &&
          ctx.params?.id === oidc.providerId &&
          (signedIn !== undefined || !cameSignedIn)
        )
          await onSignIn?.({
            userId: signedIn ?? null,
            name: ctx.context.newSession?.user.name ?? null,
            email: ctx.context.newSession?.user.email ?? null,
            method: "sso",
            ok: signedIn !== undefined,
          });
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
    // A sign-in flow that fails before it knows where to go back (a forged ID token, a replayed
    // state) lands on the sign-in page, which explains `?error=`, not on a bare error page.
    onAPIError: { errorURL: `${config.baseUrl}/signin` },
    databaseHooks: {
      user: {
        create: {
          // The role is decided as the row is written, so two racing sign-ups cannot both be first.
          before: async (user, ctx) => {
            const { role, emailProven } = await signup.claim(user.email, ctx);
            return { data: { ...user, role, emailVerified: user.emailVerified === true || emailProven } };
          },
          after: async (user, ctx) => {
            const invite = signup.inviteTokenOf(ctx);
            if (invite) await markInviteUsedBy(db, invite, user.id);
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
    plugins: [
      bearer(),
      // Disabled ("banned") users cannot get a session; roles are stored on the user.
      admin({ ac, roles, defaultRole: "member", adminRoles: ["admin"] }),
      // Keys are created and verified by our routes (apikeys/); the plugin stores them hashed.
      apiKey({
        defaultPrefix: API_KEY_PREFIX,
        startingCharactersConfig: { charactersLength: API_KEY_PREFIX.length + 6 },
        // Per-key budgets are the app's rate limiter's (shared through Redis); the plugin's
        // counter would write the key's row on every request.
        rateLimit: { enabled: false },
        keyExpiration: { defaultExpiresIn: null, minExpiresIn: 1, maxExpiresIn: 365 },
      }),
      ...(oauth.length > 0 ? [genericOAuth({ config: oauth })] : []),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
