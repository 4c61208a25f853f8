import type { GenericOAuthConfig } from "better-auth/plugins";
import type { Config } from "../config.js";
import type { UpstreamFetch } from "../upstream/fetch.js";
import { configuredProviders, PROVIDER_DEFS, providerSettings } from "./registry.js";

/**
 * better-auth generic OAuth providers that let a signed-in user link the suite, codehost and notes providers.
 * The provider ids better-auth stores are exactly the API's (`suite`, `codehost`, `notes`), so no
 * name mapping exists anywhere. Only configured providers are registered; the others are
 * reported as "not configured" by GET /api/providers.
 */
export function providerOAuthConfigs(config: Config, fetch: UpstreamFetch): GenericOAuthConfig[] {
  return configuredProviders(config).map((id): GenericOAuthConfig => {
    const def = PROVIDER_DEFS[id];
    const settings = providerSettings(config, id);
    return {
      providerId: id,
      name: def.label,
      clientId: settings.clientId!,
      clientSecret: settings.clientSecret!,
      authorizationUrl: settings.authorizationUrl,
      tokenUrl: settings.tokenUrl,
      userInfoUrl: settings.userInfoUrl,
      scopes: def.scopes,
      authentication: def.tokenAuth,
      accessType: def.accessType,
      prompt: def.prompt,
      authorizationUrlParams: def.authorizationUrlParams,
      pkce: true,
      // These providers only link to a signed-in user; they never create or sign in users.
      disableSignUp: true,
      disableImplicitSignUp: true,
      getUserInfo: async (tokens) => {
        // A provider that fails or times out here ends the flow with better-auth's
        // `unable_to_get_user_info` redirect instead of an error page.
        const identity = await def
          .identity(
            settings,
            {
              accessToken: tokens.accessToken,
              raw: (tokens as { raw?: Record<string, unknown> }).raw,
            },
            fetch,
          )
          .catch(() => null);
        return identity ? { ...identity, emailVerified: identity.emailVerified ?? false } : null;
      },
    };
  });
}
