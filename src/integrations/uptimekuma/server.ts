import { upstreamFailed } from "../../server/http/errors.js";
import { answered, defineIntegrationServer } from "../../server/integrations/kit.js";
import { monitorsFromMetrics } from "./metrics.js";

/**
 * Uptime Kuma's metrics take an API key as the password of HTTP Basic (the user name is ignored);
 * its status pages need nothing.
 */
export default defineIntegrationServer({
  headers: ({ apiKey }): Record<string, string> =>
    apiKey ? { authorization: `Basic ${Buffer.from(`:${apiKey}`).toString("base64")}` } : {},
  async test(call) {
    const response = await call({ path: "/metrics", what: "its metrics", headers: { accept: "text/plain" } });
    if (response.status === 401)
      throw upstreamFailed(
        "Uptime Kuma answered 401: its metrics need an API key (Settings, API Keys); status pages work without one",
      );
    const { text } = answered(response, "Uptime Kuma");
    // Kuma declares monitor_status (# HELP, # TYPE) even before its first monitor.
    if (!text.includes("monitor_status"))
      throw upstreamFailed("The address answered, but not with Uptime Kuma's metrics");
    const monitors = monitorsFromMetrics(text).length;
    return `Uptime Kuma with ${monitors} monitor${monitors === 1 ? "" : "s"}`;
  },
});
