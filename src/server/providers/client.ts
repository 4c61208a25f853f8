import type { Provider } from "../../contract/providers.js";
import type { CacheKind } from "../config.js";
import type { AppContext } from "../context.js";
import { reconnectRequired } from "../http/errors.js";
import type { UpstreamResponse } from "../upstream/fetch.js";
import type { CachePolicy } from "../upstream/upstream.js";
import { PROVIDER_DEFS, providerSettings } from "./registry.js";
import { type AccountRow, AccountTokens } from "./tokens.js";

export interface ProviderCall {
  /** Path (with query) under the provider's API base URL. */
  path: string;
  /** What is asked for, for error details ("message", "calendar"). */
  what: string;
  method?: "GET" | "POST";
  json?: unknown;
}

/** What the provider route plugins share: one per app instance. */
export interface ProviderServices {
  ctx: AppContext;
  tokens: AccountTokens;
  /** The user's linked account of that provider, or 404 account_not_connected. */
  account(userId: string, provider: Provider): Promise<AccountRow>;
  /** An API call with the account's token: refreshed when expiring, and once more if refused. */
  call(row: AccountRow, request: ProviderCall): Promise<UpstreamResponse>;
  /** Cache key scoped to the linked account, so a reconnect or another user never shares entries. */
  key(row: AccountRow, ...parts: (string | number | undefined)[]): string;
  cached<T>(policy: CachePolicy, key: string, load: () => Promise<T>): Promise<T>;
  invalidate(policy: CachePolicy, keyPrefix: string): void;
}

/**
 * The cache rule of a provider's data, declared by each loader with its own name and freshness
 * knob. It is a user's own and would look current, so it is never served stale; a failure is
 * asked again at once (a refreshed token or a reconnect mends most).
 */
export const accountData = (kind: string, fresh: CacheKind): CachePolicy => ({
  kind,
  fresh,
  failuresRemembered: false,
  staleIfError: false,
});

export function createProviderServices(ctx: AppContext): ProviderServices {
  const tokens = new AccountTokens(ctx.database.db, ctx.cipher, ctx.config, ctx.upstream.fetch);

  async function send(row: AccountRow, request: ProviderCall, token: string) {
    const provider = row.providerId as Provider;
    const def = PROVIDER_DEFS[provider];
    const headers: Record<string, string> = { ...def.apiHeaders, authorization: `Bearer ${token}` };
    if (request.json !== undefined) headers["content-type"] = "application/json";
    return ctx.upstream.fetch({
      url: `${providerSettings(ctx.config, provider).apiUrl}${request.path}`,
      service: def.label,
      what: request.what,
      method: request.method ?? "GET",
      headers,
      body: request.json === undefined ? undefined : JSON.stringify(request.json),
      pinned: true,
    });
  }

  return {
    ctx,
    tokens,
    account: (userId, provider) => tokens.find(userId, provider),
    async call(row, request) {
      const token = await tokens.accessToken(row);
      const res = await send(row, request, token);
      if (res.status !== 401) return res;
      // The provider refused a token we thought valid (revoked, or expired early): refresh once.
      const provider = row.providerId as Provider;
      if (!row.refreshToken)
        throw reconnectRequired(provider, "the provider refused the stored access token");
      const refreshed = await tokens.refresh(row, token);
      const retried = await send(refreshed, request, await tokens.accessToken(refreshed));
      if (retried.status === 401) throw reconnectRequired(provider, "the provider refused the access token");
      return retried;
    },
    key: (row, ...parts) => [row.id, ...parts.map((p) => p ?? "")].join("|"),
    cached: (policy, key, load) => ctx.upstream.cached(policy, key, load),
    invalidate: (policy, keyPrefix) => ctx.upstream.invalidate(policy, keyPrefix),
  };
}
