import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
// @ts-expect-error oidc-provider ships no type declarations (and @types/oidc-provider is not installed)
import OidcProvider from "oidc-provider";

/** The small part of oidc-provider's API these tests use. */
interface Provider {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
  interactionFinished(
    req: IncomingMessage,
    res: ServerResponse,
    result: unknown,
    options: { mergeWithLastSubmission: boolean },
  ): Promise<void>;
  Grant: {
    new (init: { accountId: string; clientId: string }): Grant;
    find(id: string): Promise<Grant | undefined>;
  };
  AccessToken: { find(token: string): Promise<{ isExpired: boolean } | undefined> };
}
interface Grant {
  addOIDCScope(scope: string): void;
  addResourceScope(resource: string, scope: string): void;
  addOIDCClaims(claims: string[]): void;
  save(): Promise<string>;
}
interface InteractionDetails {
  grantId?: string;
  session?: { accountId: string };
  params: Record<string, unknown>;
  prompt: { name: string; details: Record<string, unknown> };
}

/**
 * A real OAuth 2.0 / OpenID Connect server (oidc-provider) on 127.0.0.1 for the connect flow.
 * It enforces what a real provider does: registered client and secret, the exact redirect URI,
 * PKCE (S256, required for every client), single-use codes, and refresh-token grants. The
 * login and consent interaction approves automatically as the account in `nextLogin`.
 */

const API_RESOURCE = "urn:tessera-test:api";

export interface OidcAccount {
  sub: string;
  email: string;
  name: string;
  /** What the provider says of the email (default true). */
  emailVerified?: boolean;
  /** The `groups` claim (single sign-on's admin mapping). */
  groups?: string[];
}

export interface OidcClient {
  clientId: string;
  clientSecret: string;
}

export interface OidcServer {
  issuer: string;
  provider: Provider;
  /** The registered clients, by the name they were asked for. */
  clients: Record<string, OidcClient>;
  /** Who "signs in" at the provider on the next authorization. */
  nextLogin: OidcAccount;
  /**
   * Misbehaviours of a compromised or replaying provider, for single sign-on's tests: the ID
   * token of the next token answers altered after signing, or the next authorization given
   * another nonce than the client asked for.
   */
  tamperIdTokens: boolean;
  nonceOverride: string | null;
  /** The nonce of the last authorization request, as the client sent it. */
  lastNonce: string | null;
  /** True when the bearer token is an access token this server issued and it is still valid. */
  validAccessToken(token: string): Promise<boolean>;
  close(): Promise<void>;
}

export async function startOidcServer(
  clients: Record<
    string,
    { redirectUris: string[]; clientAuth: "client_secret_post" | "client_secret_basic" }
  >,
  port = 0,
): Promise<OidcServer> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const registered: Record<string, OidcClient> = {};
  for (const name of Object.keys(clients)) {
    registered[name] = {
      clientId: `${name}-${randomBytes(4).toString("hex")}`,
      clientSecret: randomBytes(24).toString("base64url"),
    };
  }
  const accounts = new Map<string, OidcAccount>();
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });

  const state: {
    nextLogin: OidcAccount;
    tamperIdTokens: boolean;
    nonceOverride: string | null;
    lastNonce: string | null;
  } = {
    nextLogin: { sub: "op-user-1", email: "someone@provider.test", name: "Provider Person" },
    tamperIdTokens: false,
    nonceOverride: null,
    lastNonce: null,
  };

  const provider: Provider = new OidcProvider(issuer, {
    clients: Object.entries(clients).map(([name, c]) => ({
      client_id: registered[name]!.clientId,
      client_secret: registered[name]!.clientSecret,
      redirect_uris: c.redirectUris,
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: c.clientAuth,
      id_token_signed_response_alg: "ES256",
    })),
    pkce: { required: () => true },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"], groups: ["groups"] },
    // Google's API scopes, so they are granted rather than dropped.
    scopes: [
      "openid",
      "offline_access",
      "groups",
      "email",
      "profile",
      "https://www.googleapis.com/auth/gmail.readonly",
      "https://www.googleapis.com/auth/calendar.readonly",
      "https://www.googleapis.com/auth/calendar.events",
    ],
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed("refresh_token"),
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      Grant: 3600,
      IdToken: 3600,
      Interaction: 600,
      RefreshToken: 86_400,
      Session: 3600,
    },
    features: {
      devInteractions: { enabled: false },
      // Plain OAuth 2.0 clients (GitHub- and Notion-like: no openid scope) get access tokens for
      // an API resource; the OpenID client (Google-like) keeps tokens the userinfo endpoint takes.
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx: unknown, client: { clientId: string }) =>
          client.clientId.startsWith("suite-") ? undefined : API_RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({ scope: "read:user", accessTokenFormat: "opaque" }),
      },
    },
    renderError: async (ctx: { type: string; body: unknown }, out: unknown) => {
      ctx.type = "application/json";
      ctx.body = out;
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    cookies: { keys: [randomBytes(16).toString("hex")] },
    jwks: { keys: [{ ...privateKey.export({ format: "jwk" }), kid: "k1", alg: "ES256", use: "sig" }] },
    findAccount: async (_ctx: unknown, sub: string) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          email: account.email,
          email_verified: account.emailVerified ?? true,
          name: account.name,
          ...(account.groups ? { groups: account.groups } : {}),
        }),
      };
    },
  });

  const callback = provider.callback();
  server.on("request", async (req, res) => {
    if (req.url?.startsWith("/auth?")) {
      // Notion's OAuth has no scopes: it grants the integration's configured capabilities. A
      // scope-less request stands for that here and is given the API scope.
      const url = new URL(req.url, issuer);
      if (!url.searchParams.has("scope")) url.searchParams.set("scope", "read:user");
      state.lastNonce = url.searchParams.get("nonce");
      if (state.nonceOverride) url.searchParams.set("nonce", state.nonceOverride);
      req.url = `${url.pathname}${url.search}`;
    }
    if (state.tamperIdTokens && req.url?.startsWith("/token")) tamperIdTokenIn(res);
    if (!req.url?.startsWith("/interaction/")) return callback(req, res);
    try {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === "login") {
        const account = state.nextLogin;
        accounts.set(account.sub, account);
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: account.sub } },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      const grant = details.grantId
        ? (await provider.Grant.find(details.grantId))!
        : new provider.Grant({
            accountId: details.session!.accountId,
            clientId: details.params.client_id as string,
          });
      const missing = details.prompt.details as {
        missingOIDCScope?: string[];
        missingOIDCClaims?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
        grant.addResourceScope(resource, scopes.join(" "));
      }
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { consent: { grantId } },
        { mergeWithLastSubmission: true },
      );
    } catch (error) {
      res.writeHead(500, { "content-type": "text/plain" }).end(String(error));
    }
  });

  return {
    issuer,
    provider,
    clients: registered,
    get tamperIdTokens() {
      return state.tamperIdTokens;
    },
    set tamperIdTokens(on: boolean) {
      state.tamperIdTokens = on;
    },
    get nonceOverride() {
      return state.nonceOverride;
    },
    set nonceOverride(nonce: string | null) {
      state.nonceOverride = nonce;
    },
    get lastNonce() {
      return state.lastNonce;
    },
    get nextLogin() {
      return state.nextLogin;
    },
    set nextLogin(account: OidcAccount) {
      state.nextLogin = account;
    },
    async validAccessToken(token) {
      const found = await provider.AccessToken.find(token);
      return Boolean(found && !found.isExpired);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Alters the signed ID token in a token answer after signing, as an attacker in the middle
 * would: one letter of the name claim changes, so the length (and Content-Length) stays and
 * only the signature check can notice.
 */
function tamperIdTokenIn(res: ServerResponse) {
  const end = res.end.bind(res) as (chunk?: unknown, ...rest: unknown[]) => ServerResponse;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (!chunk) return end(chunk, ...rest);
    const body = JSON.parse(Buffer.from(chunk as Buffer).toString("utf8")) as { id_token?: string };
    if (body.id_token) {
      const [header, payload, signature] = body.id_token.split(".");
      const claims = Buffer.from(payload!, "base64url").toString("utf8").replace('"name":"P', '"name":"Q');
      body.id_token = [header, Buffer.from(claims).toString("base64url"), signature].join(".");
    }
    const out = Buffer.from(JSON.stringify(body));
    if (!res.headersSent) res.setHeader("content-length", out.length);
    return end(out, ...rest);
  }) as typeof res.end;
}
