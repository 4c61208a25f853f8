import { upstreamFailed } from "../../server/http/errors.js";
import { answered, defineIntegrationServer } from "../../server/integrations/kit.js";
import { signInToQbittorrent } from "./sign-in.js";

/**
 * qBittorrent's Web API v2: calls carry the session cookie of a sign-in (the service keeps one per
 * saved integration, signs in again once when a call is answered 403 after the session timed
 * out), or from 5.2 on an API key as a Bearer token, which needs no session.
 */
export default defineIntegrationServer({
  headers: ({ apiKey }): Record<string, string> => (apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
  signIn: signInToQbittorrent,
  async test(call) {
    const response = await call({
      path: "/api/v2/app/version",
      what: "its version",
      headers: { accept: "text/plain" },
    });
    const version = answered(response, "qBittorrent").text.trim().slice(0, 40);
    if (!/^v?\d+\.\d+/.test(version))
      throw upstreamFailed("The address answered, but not with a qBittorrent version");
    return `qBittorrent ${version}`;
  },
});
