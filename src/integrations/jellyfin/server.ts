import { Type } from "@sinclair/typebox";
import { upstreamFailed } from "../../server/http/errors.js";
import { answeredJson, defineIntegrationServer } from "../../server/integrations/kit.js";
import { defineSource } from "../../server/upstream/source.js";

const SystemInfo = defineSource(
  Type.Object({ Version: Type.String(), ServerName: Type.Optional(Type.String()) }),
);

/**
 * The key in Jellyfin's own `Authorization: MediaBrowser Token="…"` scheme, never `?ApiKey=` (an
 * address ends up in proxy and access logs) nor the legacy `X-Emby-Token`, which Jellyfin 12
 * turns off by default. Jellyfin URL-decodes the quoted values, so the key is encoded to keep a
 * stray quote from ending it.
 */
export function jellyfinAuthorization(apiKey: string): string {
  return `MediaBrowser Token="${encodeURIComponent(apiKey)}"`;
}

export default defineIntegrationServer({
  headers: ({ apiKey }): Record<string, string> =>
    apiKey ? { authorization: jellyfinAuthorization(apiKey) } : {},
  async test(call) {
    // /System/Info, not /System/Info/Public: only the former proves the key is accepted.
    const response = await call({ path: "/System/Info", what: "its system information" });
    if (response.status === 401)
      throw upstreamFailed(
        "Jellyfin answered 401: it does not know this API key (Dashboard, API Keys shows the valid ones)",
      );
    const info = SystemInfo.parse(answeredJson(response, "Jellyfin"), response);
    const name = info.ServerName?.slice(0, 100);
    return `Jellyfin ${info.Version.slice(0, 40)}${name ? ` (${name})` : ""}`;
  },
});
