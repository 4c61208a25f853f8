import { and, eq } from "drizzle-orm";
import type { Provider } from "../../contract/providers.js";
import type { TokenCipher } from "../auth/token-cipher.js";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { account } from "../db/schema.js";
import { notConnected, reconnectRequired } from "../http/errors.js";
import type { UpstreamFetch } from "../upstream/fetch.js";
import { maybeJson } from "../upstream/source.js";
import { OAuthTokens } from "../upstream/sources/oauth.js";
import { isConfigured, PROVIDER_DEFS, providerSettings } from "./registry.js";

export type AccountRow = typeof account.$inferSelect;

/** A token this close to expiry is refreshed before use, so it cannot lapse mid-request. */
export const REFRESH_MARGIN_MS = 60_000;

export const expiresSoon = (row: Pick<AccountRow, "accessTokenExpiresAt">, now = Date.now()) =>
  row.accessTokenExpiresAt !== null && row.accessTokenExpiresAt.getTime() - now < REFRESH_MARGIN_MS;

/**
 * Hands out usable access tokens for linked accounts. Tokens are stored encrypted and only
 * decrypted here, in memory, right before a provider call. An expiring token is refreshed at
 * the provider's token endpoint and the rotated tokens are stored encrypted; concurrent
 * refreshes of one account within this instance share a single token request.
 */
export class AccountTokens {
  private readonly refreshing = new Map<string, Promise<AccountRow>>();

  constructor(
    private readonly db: Db,
    private readonly cipher: TokenCipher,
    private readonly config: Config,
    private readonly fetch: UpstreamFetch,
  ) {}

  async find(userId: string, provider: Provider): Promise<AccountRow> {
    const [row] = await this.db
      .select()
      .from(account)
      .where(and(eq(account.userId, userId), eq(account.providerId, provider)))
      .limit(1);
    if (!row) throw notConnected(provider);
    return row;
  }

  /** A token for the account, refreshed first when it has expired or is about to. */
  async accessToken(row: AccountRow): Promise<string> {
    const usable = expiresSoon(row) ? await this.refresh(row) : row;
    if (!usable.accessToken) throw reconnectRequired(row.providerId as Provider, "no access token is stored");
    return this.cipher.decrypt(usable.accessToken);
  }

  /**
   * Refreshes the account's tokens. `rejected` is a token the provider just refused: when the
   * stored token already differs (another request refreshed it), that one is used instead.
   */
  refresh(row: AccountRow, rejected?: string): Promise<AccountRow> {
    const pending = this.refreshing.get(row.id);
    if (pending) return pending;
    const promise = this.refreshNow(row, rejected).finally(() => this.refreshing.delete(row.id));
    this.refreshing.set(row.id, promise);
    return promise;
  }

  private async refreshNow(stale: AccountRow, rejected?: string): Promise<AccountRow> {
    const provider = stale.providerId as Provider;
    const [row] = await this.db.select().from(account).where(eq(account.id, stale.id)).limit(1);
    if (!row) throw notConnected(provider);
    const current = row.accessToken ? this.cipher.decrypt(row.accessToken) : null;
    const stillGood = current !== null && !expiresSoon(row);
    if (stillGood && (rejected === undefined ? true : current !== rejected)) return row;

    if (!row.refreshToken)
      throw reconnectRequired(provider, "the access token expired and no refresh token is stored");
    if (!isConfigured(this.config, provider))
      throw reconnectRequired(provider, "the provider is not configured on this server");

    const tokens = await this.requestTokens(provider, this.cipher.decrypt(row.refreshToken));
    const now = new Date();
    const update = {
      accessToken: this.cipher.encrypt(tokens.accessToken),
      refreshToken: tokens.refreshToken ? this.cipher.encrypt(tokens.refreshToken) : row.refreshToken,
      accessTokenExpiresAt: tokens.expiresIn ? new Date(now.getTime() + tokens.expiresIn * 1000) : null,
      refreshTokenExpiresAt: tokens.refreshExpiresIn
        ? new Date(now.getTime() + tokens.refreshExpiresIn * 1000)
        : row.refreshTokenExpiresAt,
      scope: tokens.scope ?? row.scope,
      updatedAt: now,
    };
    // Conditional on the refresh token we used, so a slower refresh on another instance never
    // overwrites newer tokens with older ones.
    const [stored] = await this.db
      .update(account)
      .set(update)
      .where(and(eq(account.id, row.id), eq(account.refreshToken, row.refreshToken)))
      .returning();
    return stored ?? { ...row, ...update };
  }

  private async requestTokens(provider: Provider, refreshToken: string) {
    const def = PROVIDER_DEFS[provider];
    const settings = providerSettings(this.config, provider);
    const body = new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken });
    const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
    if (def.tokenAuth === "basic") {
      const basic = Buffer.from(`${settings.clientId}:${settings.clientSecret}`).toString("base64");
      headers.authorization = `Basic ${basic}`;
    } else {
      body.set("client_id", settings.clientId!);
      body.set("client_secret", settings.clientSecret!);
    }
    const res = await this.fetch({
      url: settings.tokenUrl,
      service: `the ${def.label} token endpoint`,
      what: "a token refresh",
      method: "POST",
      headers,
      body,
      pinned: true,
    });
    const data = maybeJson(res.text);
    if (res.status !== 200 || !OAuthTokens.matches(data)) {
      // invalid_grant and friends: the grant was revoked or has expired; only the user can fix it.
      throw reconnectRequired(provider, `the provider refused to refresh the access token (${res.status})`);
    }
    const seconds = (v: number | null | undefined) => (typeof v === "number" && v > 0 ? v : null);
    return {
      accessToken: data.access_token,
      refreshToken: data.refresh_token || null,
      expiresIn: seconds(data.expires_in),
      refreshExpiresIn: seconds(data.refresh_token_expires_in),
      scope: data.scope
        ? data.scope
            .trim()
            .split(/[\s,]+/)
            .join(",")
        : null,
    };
  }
}
