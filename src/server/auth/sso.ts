import type { GenericOAuthConfig } from "better-auth/plugins";
import { and, eq } from "drizzle-orm";
import type { OidcConfig } from "../config.js";
import type { Db } from "../db/client.js";
import { account, user } from "../db/schema.js";
import { OidcDiscovery } from "../upstream/sources/oidc.js";
import type { CachePolicy, Upstream } from "../upstream/upstream.js";
import type { TokenCipher } from "./token-cipher.js";

/** How long a failed discovery waits before the next try, and how long one try may take. */
const RETRY_MS = 30_000;
const DISCOVERY_TIMEOUT_MS = 5_000;
const RECHECK_MS = 5_000;

/**
 * A document found counts for as long as a recheck would wait anyway. A failure is not kept (the
 * watcher's own retries decide when to ask again), nor is an old document shown for a provider
 * that stopped answering: availability must be true.
 */
const DISCOVERY: CachePolicy = {
  kind: "oidcDiscovery",
  fresh: RECHECK_MS,
  failuresRemembered: false,
  staleIfError: false,
};

export interface SsoStatus {
  /** Whether the provider's discovery document was last fetched fine. */
  available(): boolean;
  /** Fetches the discovery document now (the sign-in page asks while it is unavailable). */
  recheck(): Promise<boolean>;
  stop(): void;
}

/**
 * The one OpenID Connect provider (DESIGN section 12) as a better-auth generic OAuth provider:
 * discovery, PKCE, state and nonce, the ID token's signature, issuer and audience checked
 * against the provider's keys. Accounts it creates are gated by operators/signup-gate.ts.
 */
export function ssoOAuthConfig(oidc: OidcConfig): GenericOAuthConfig {
  return {
    providerId: oidc.providerId,
    name: oidc.displayName,
    discoveryUrl: `${oidc.issuer}/.well-known/openid-configuration`,
    clientId: oidc.clientId,
    clientSecret: oidc.clientSecret,
    scopes: oidc.scopes,
    pkce: true,
    // No discovery keys, no sign-in: an ID token is never taken unchecked.
    requireIdTokenVerification: true,
    // The sign-up gate decides (it knows the first-admin rule); the plugin must not refuse first.
    disableSignUp: false,
    mapProfileToUser: (profile) => ({
      name: String(profile.name ?? profile.preferred_username ?? profile.email ?? "Someone"),
    }),
  };
}

/** The claims of an ID token the plugin has already verified (we only read them). */
function claimsOf(idToken: string): Record<string, unknown> | null {
  try {
    return JSON.parse(Buffer.from(idToken.split(".")[1] ?? "", "base64url").toString("utf8"));
  } catch {
    return null;
  }
}

/**
 * Members of OIDC_ADMIN_GROUP become admins each time they sign in through the provider, read
 * from the ID token the plugin verified and stored (encrypted) on their account. Leaving the
 * group does not demote: an admin may also have been made one by hand.
 */
export async function applyAdminGroup(db: Db, cipher: TokenCipher, oidc: OidcConfig, userId: string) {
  if (!oidc.adminGroup) return;
  const [row] = await db
    .select({ idToken: account.idToken })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, oidc.providerId)))
    .limit(1);
  if (!row?.idToken) return;
  const groups = claimsOf(cipher.decrypt(row.idToken))?.groups;
  const member = Array.isArray(groups) ? groups.includes(oidc.adminGroup) : groups === oidc.adminGroup;
  if (member) await db.update(user).set({ role: "admin" }).where(eq(user.id, userId));
}

/**
 * Watches the provider's discovery document so the sign-in page can say when single sign-on is
 * unavailable. Start-up never waits on it: an issuer that is down is retried in the background
 * (better-auth also retries discovery itself when someone tries to sign in). Read through the
 * upstream layer like every outside call (its deadline, shutdown and cache); the issuer comes
 * from config (OIDC_ISSUER), so it is pinned, and may be on the home network.
 */
export function watchSso(
  oidc: OidcConfig | null,
  upstream: Upstream,
  clock: () => number = Date.now,
): SsoStatus {
  if (!oidc) return { available: () => false, recheck: async () => false, stop() {} };
  let ok = false;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const url = `${oidc.issuer}/.well-known/openid-configuration`;
  let inflight: Promise<boolean> | null = null;
  let lastProbeAt = 0;
  const probe = () => {
    inflight ??= fetchDiscovery().finally(() => {
      inflight = null;
    });
    return inflight;
  };
  const fetchDiscovery = async () => {
    if (timer) clearTimeout(timer);
    timer = null;
    lastProbeAt = clock();
    try {
      await upstream.cached(DISCOVERY, url, async () => {
        const response = await upstream.fetch({
          url,
          service: "the single sign-on provider",
          what: "its discovery document",
          timeoutMs: DISCOVERY_TIMEOUT_MS,
          pinned: true,
        });
        return OidcDiscovery.read(response);
      });
      ok = true;
    } catch {
      ok = false;
    }
    // Nothing is retried once the app closes: the upstream layer would refuse it anyway.
    if (!ok && !stopped && !upstream.closing.aborted) {
      timer = setTimeout(probe, RETRY_MS);
      timer.unref();
    }
    return ok;
  };
  void probe();
  return {
    available: () => ok,
    // At most one probe in flight and one every few seconds, however often pages ask.
    recheck: () => {
      if (inflight) return inflight;
      if (clock() - lastProbeAt < RECHECK_MS) return Promise.resolve(ok);
      return probe();
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
