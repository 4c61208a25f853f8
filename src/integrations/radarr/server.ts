import { Type } from "@sinclair/typebox";
import { upstreamFailed } from "../../server/http/errors.js";
import { answeredJson, defineIntegrationServer } from "../../server/integrations/kit.js";
import { defineSource } from "../../server/upstream/source.js";

const SystemStatus = defineSource(
  Type.Object({
    appName: Type.Optional(Type.String()),
    instanceName: Type.Optional(Type.String()),
    version: Type.String(),
  }),
);

/** The API key in `X-Api-Key` on every call (Radarr also reads `?apikey=`, which would put it in logs). */
export default defineIntegrationServer({
  headers: ({ apiKey }): Record<string, string> => (apiKey ? { "x-api-key": apiKey } : {}),
  async test(call) {
    const response = await call({
      path: "/api/v3/system/status",
      what: "its status",
      headers: { accept: "application/json" },
    });
    if (response.status === 404)
      throw upstreamFailed(
        "Radarr answered 404: nothing is at /api/v3 here. If Radarr has a URL Base (Settings > General), add it to the address",
      );
    const status = SystemStatus.parse(answeredJson(response, "Radarr"), response);
    const app = status.appName ?? "Radarr";
    if (app.toLowerCase() !== "radarr")
      throw upstreamFailed(
        `This address is ${app} ${status.version}, not Radarr${app.toLowerCase() === "sonarr" ? ": save it as a Sonarr integration" : ""}`,
      );
    const instance = status.instanceName && status.instanceName !== app ? ` (${status.instanceName})` : "";
    return `Radarr ${status.version}${instance}`;
  },
});
