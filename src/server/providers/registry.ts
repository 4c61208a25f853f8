import { PROVIDER_LABELS, PROVIDERS, type Provider } from "../../contract/providers.js";
import type { Config, OAuthProviderConfig } from "../config.js";
import type { UpstreamFetch } from "../upstream/fetch.js";
import { maybeJson } from "../upstream/source.js";
import { UserInfo } from "../upstream/sources/oauth.js";

/** What the linking flow needs to know about the provider account: its stable id and contact. */
export interface ProviderIdentity {
  id: string;
  email?: string;
  name?: string;
  image?: string;
  emailVerified?: boolean;
}

export interface ProviderDef {
  id: Provider;
  label: string;
  /** The key under config.providers (the real service's name). */
  configKey: keyof Config["providers"];
  scopes: string[];
  /** How the client authenticates at the token endpoint. */
  tokenAuth: "post" | "basic";
  accessType?: string;
  prompt?: "consent";
  authorizationUrlParams?: Record<string, string>;
  /** Headers every API call carries besides the bearer token. */
  apiHeaders: Record<string, string>;
  /** Reads the provider account's identity after the code exchange. */
  identity(
    settings: OAuthProviderConfig,
    tokens: TokenSet,
    fetch: UpstreamFetch,
  ): Promise<ProviderIdentity | null>;
}

export interface TokenSet {
  accessToken?: string;
  raw?: Record<string, unknown>;
}

export const NOTION_VERSION = "2022-06-28";

async function getJson(fetch: UpstreamFetch, url: string, service: string, headers: Record<string, string>) {
  // The user-info URLs come from config (OAUTH_*), as do all of a provider's.
  const res = await fetch({ url, service, what: "the signed-in account", headers, pinned: true });
  const body = maybeJson(res.text);
  return res.status === 200 && UserInfo.matches(body) ? body : null;
}

const str = (v: unknown) => (typeof v === "string" && v ? v : undefined);

const suite: ProviderDef = {
  id: "suite",
  label: PROVIDER_LABELS.suite,
  configKey: "google",
  // Read-only mail and calendars; calendar.events only so the Meetings widget can create events.
  scopes: [
    "openid",
    "email",
    "profile",
    "https://www.googleapis.com/auth/gmail.readonly",
    "https://www.googleapis.com/auth/calendar.readonly",
    "https://www.googleapis.com/auth/calendar.events",
  ],
  tokenAuth: "post",
  accessType: "offline",
  prompt: "consent",
  apiHeaders: {},
  async identity(settings, tokens, fetch) {
    if (!tokens.accessToken) return null;
    const info = await getJson(fetch, settings.userInfoUrl, "Google", {
      authorization: `Bearer ${tokens.accessToken}`,
    });
    const sub = info?.sub;
    if (typeof sub !== "string" && typeof sub !== "number") return null;
    return {
      id: String(sub),
      email: str(info?.email),
      name: str(info?.name),
      image: str(info?.picture),
      emailVerified: info?.email_verified === true || info?.email_verified === "true",
    };
  },
};

export const GITHUB_HEADERS = {
  accept: "application/vnd.github+json",
  "x-github-api-version": "2022-11-28",
  "user-agent": "Tessera",
};

const codehost: ProviderDef = {
  id: "codehost",
  label: PROVIDER_LABELS.codehost,
  configKey: "github",
  // Profile and public data only. Issues of private repositories would need `repo`, which also
  // grants write access to code, so it is deliberately not requested.
  scopes: ["read:user"],
  tokenAuth: "post",
  apiHeaders: GITHUB_HEADERS,
  async identity(settings, tokens, fetch) {
    if (!tokens.accessToken) return null;
    const info = await getJson(fetch, settings.userInfoUrl, "GitHub", {
      ...GITHUB_HEADERS,
      authorization: `Bearer ${tokens.accessToken}`,
    });
    if (typeof info?.id !== "number" && typeof info?.id !== "string") return null;
    return {
      id: String(info.id),
      email: str(info.email),
      name: str(info.name) ?? str(info.login),
      image: str(info.avatar_url),
    };
  },
};

const notes: ProviderDef = {
  id: "notes",
  label: PROVIDER_LABELS.notes,
  configKey: "notion",
  // Notion has no OAuth scopes: the integration's capabilities decide, and the user picks pages.
  scopes: [],
  tokenAuth: "basic",
  authorizationUrlParams: { owner: "user" },
  apiHeaders: { "notion-version": NOTION_VERSION },
  async identity(settings, tokens, fetch) {
    // The token response names the user who installed the integration; users/me is the fallback.
    let owner = ownerUser(tokens.raw?.owner);
    if (!owner && tokens.accessToken) {
      const me = await getJson(fetch, settings.userInfoUrl, "Notion", {
        "notion-version": NOTION_VERSION,
        authorization: `Bearer ${tokens.accessToken}`,
      });
      owner = ownerUser((me?.bot as { owner?: unknown } | undefined)?.owner);
    }
    if (!owner) return null;
    return { id: owner.id, email: owner.email, name: owner.name, image: owner.image };
  },
};

function ownerUser(owner: unknown) {
  const user = (owner as { type?: string; user?: Record<string, unknown> } | undefined)?.user;
  if (!user || typeof user.id !== "string") return null;
  return {
    id: user.id,
    name: str(user.name),
    image: str(user.avatar_url),
    email: str((user.person as { email?: unknown } | undefined)?.email),
  };
}

export const PROVIDER_DEFS: Record<Provider, ProviderDef> = { suite, codehost, notes };

export const providerSettings = (config: Config, provider: Provider): OAuthProviderConfig =>
  config.providers[PROVIDER_DEFS[provider].configKey];

/** A provider without both client id and secret is "not configured", never an error. */
export function isConfigured(config: Config, provider: Provider): boolean {
  const settings = providerSettings(config, provider);
  return Boolean(settings.clientId && settings.clientSecret);
}

export const configuredProviders = (config: Config) => PROVIDERS.filter((p) => isConfigured(config, p));
